// The fonts we draw with, loaded lazily from node_modules at run time (no font files in this repo).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadOutlineFont, type OutlineFont } from '../decode/outline-font.js';

const require = createRequire(import.meta.url);

function loadPackaged(specifier: string, label: string): OutlineFont | null {
  try {
    return loadOutlineFont(readFileSync(require.resolve(specifier)), label);
  } catch {
    return null;
  }
}

/** A file inside an installed package whose `exports` map hides it: found next to the package's entry point. */
function loadFromPackageDir(pkg: string, rel: string, label: string): OutlineFont | null {
  try {
    const entry = require.resolve(pkg);
    const marker = `${path.sep}node_modules${path.sep}${pkg}${path.sep}`;
    const root = entry.slice(0, entry.lastIndexOf(marker) + marker.length);
    return loadOutlineFont(readFileSync(path.join(root, rel)), label);
  } catch {
    return null;
  }
}

function lazy(load: () => OutlineFont | null): () => OutlineFont | null {
  let font: OutlineFont | null | undefined;
  return () => (font === undefined ? (font = load()) : font);
}

/** Roboto Condensed Bold (Latin subset): the outline source of font 0. */
export const robotoCondensedBold = lazy(() =>
  loadPackaged('@fontsource/roboto-condensed/files/roboto-condensed-latin-700-normal.woff', 'roboto-cb'),
);
/** Lighter and heavier weights of it: some legacy glyphs match them better (chosen per glyph by measuring). */
export const robotoCondensedWeight = (weight: number) =>
  lazy(() =>
    loadPackaged(
      `@fontsource/roboto-condensed/files/roboto-condensed-latin-${weight}-normal.woff`,
      `roboto-c${weight}`,
    ),
  );
/** Its italic: the legacy micro sign is slanted. */
export const robotoCondensedBoldItalic = lazy(() =>
  loadPackaged('@fontsource/roboto-condensed/files/roboto-condensed-latin-700-italic.woff', 'roboto-cbi'),
);
/** Its Latin-extended subset, for the few Latin-1 / code-page glyphs outside the Latin file. */
export const robotoCondensedBoldExt = lazy(() =>
  loadPackaged('@fontsource/roboto-condensed/files/roboto-condensed-latin-ext-700-normal.woff', 'roboto-cb-ext'),
);
/** DejaVu Sans Condensed Bold: fallback for symbols Roboto lacks. */
export const dejaVuSansCondensedBold = lazy(() =>
  loadPackaged('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf', 'dejavu-sans-cond-bold'),
);
/** DejaVu Sans and DejaVu Sans Condensed (book weight). */
export const dejaVuSans = lazy(() => loadPackaged('dejavu-fonts-ttf/ttf/DejaVuSans.ttf', 'dejavu-sans'));
export const dejaVuSansCondensed = lazy(() =>
  loadPackaged('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf', 'dejavu-sans-cond'),
);
/** DejaVu Sans Bold: wider shapes some font-0 symbols match better. */
export const dejaVuSansBold = lazy(() => loadPackaged('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', 'dejavu-sans-bold'));
/** DejaVu Sans Mono: glyph shapes of the bitmap device fonts. */
export const dejaVuSansMono = lazy(() => loadPackaged('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf', 'dejavu-mono'));
export const dejaVuSansMonoBold = lazy(() =>
  loadPackaged('dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf', 'dejavu-mono-bold'),
);

/** First font of a fallback chain that has a glyph for `cp`. */
export function withGlyph(cp: number, chain: ReadonlyArray<() => OutlineFont | null>): OutlineFont | null {
  for (const get of chain) {
    const f = get();
    if (f?.glyph(cp)) return f;
  }
  return null;
}

/**
 * Noto Sans JP Bold: font 0's fallback for Japanese kana and kanji (and the CJK ideographs it has), drawn when the
 * optional package @expo-google-fonts/noto-sans-jp is installed; without it such characters are warned about.
 */
export const notoSansJpBold = lazy(() =>
  loadFromPackageDir('@expo-google-fonts/noto-sans-jp', '700Bold/NotoSansJP_700Bold.ttf', 'noto-sans-jp-bold'),
);

/** OCR-A and OCR-B, shipped with bwip-js: the shapes of device fonts H and E. */
export const ocrA = lazy(() => loadFromPackageDir('bwip-js', 'fonts/OCRA7.ttf', 'ocr-a'));
export const ocrB = lazy(() => loadFromPackageDir('bwip-js', 'fonts/OCRB7.ttf', 'ocr-b'));
