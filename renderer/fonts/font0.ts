// Font 0 (the scalable CG Triumvirate Bold Condensed of Zebra printers): Roboto Condensed Bold outlines
// fitted glyph by glyph into the boxes measured from the legacy renderer's output (font0-metrics.ts),
// glyphs of separate parts (%, ‰, ½) part by part where that matches the reference better.

import { joinOutlines, nonEmpty, placeContours, placeOutline, verticalFit, type PlacedOutline } from './place.js';
import {
  dejaVuSans,
  dejaVuSansBold,
  dejaVuSansCondensed,
  dejaVuSansCondensedBold,
  robotoCondensedBold,
  robotoCondensedBoldExt,
  notoSansJpBold,
  robotoCondensedBoldItalic,
  robotoCondensedWeight,
  withGlyph,
} from './builtin.js';
import { cachedOutline, type Face } from './face.js';
import { font0Metrics, type GlyphBox } from './font0-metrics.js';
import { font0Model, type Font0Band, type GlyphModel } from './font0-model.js';
import { font0RunAdvances, type Font0RunBand } from './font0-run-advances.js';
import { adjustOutline, type GlyphAdjustment } from './embolden.js';
import { fitParts } from './glyph-parts.js';
import type { OutlineFont, OutlineGlyph } from '../decode/outline-font.js';

/** Outline sources by the names the metric table uses; Roboto Condensed Bold unless the table picked another. */
export const FONT0_SOURCES: Readonly<Record<string, () => OutlineFont | null>> = {
  roboto: robotoCondensedBold,
  'roboto-ext': robotoCondensedBoldExt,
  'dejavu-cb': dejaVuSansCondensedBold,
  'dejavu-b': dejaVuSansBold,
  'roboto-italic': robotoCondensedBoldItalic,
  'roboto-500': robotoCondensedWeight(500),
  'roboto-900': robotoCondensedWeight(900),
  'dejavu-c': dejaVuSansCondensed,
  dejavu: dejaVuSans,
};

const FALLBACKS = [robotoCondensedBold, robotoCondensedBoldExt, dejaVuSansCondensedBold, notoSansJpBold];

/** The outline font drawing `cp`: the measured best match, else the first of the fallbacks that has it. */
function sourceFont(cp: number, named: string | null = font0Metrics.sources?.[cp] ?? null): OutlineFont | null {
  const f = named ? FONT0_SOURCES[named]?.() : null;
  return f?.glyph(cp) ? f : withGlyph(cp, FALLBACKS);
}

/**
 * Stretches an outline's ink box onto a measured box (units of the height; `sx` is the width stretch). Stem weights
 * are added to the placed glyph afterwards (adjustOutline), so the ink box is the measured one.
 * `anchored` (letters, see baselineAnchored) keeps what sits on the outline's baseline on the measured one.
 */
export function fitGlyph(g: OutlineGlyph, b: GlyphBox, h: number, sx: number, anchored = false): PlacedOutline | null {
  if (!g.contours.length) return null;
  const [, left, right, top, bottom] = b;
  const gx = Math.max(0, (right - left) * h * sx) / Math.max(1, g.maxX - g.minX);
  return placeOutline(g, gx, verticalFit(g.minY, g.maxY, bottom * h, top * h, anchored), left * h * sx - g.minX * gx);
}

/**
 * Accented letters: the base part fitted into the base letter's measured box and the accent, at the
 * base's scale, hung from the measured top. A single stretch would squash the base when the legacy
 * accent sits higher than Roboto's. Null when the glyph does not split that way.
 */
export function accentedOutline(
  cp: number,
  b: GlyphBox,
  h: number,
  sx: number,
  named: string | null = font0Metrics.sources?.[cp] ?? null,
  boxes: Readonly<Record<number, GlyphBox>> = font0Metrics.glyphs,
): PlacedOutline | null {
  const parts = String.fromCodePoint(cp).normalize('NFD');
  if (parts.length !== 2 || named) return null;
  const baseCp = parts.codePointAt(0)!;
  // Capitals keep their single stretch: their accents already sit where the legacy renderer puts them.
  if (baseCp < 0x61 || baseCp > 0x7a) return null;
  const font = sourceFont(cp, named);
  const g = font?.glyph(cp);
  let baseBox = boxes[baseCp];
  if (!font || !g || !baseBox) return null;
  const partTop = font.glyph(0x78)?.maxY ?? font.capHeight * 0.75;
  // The dot of i and j is not part of the accented letter: its stem ends at the x-height of n.
  if ((baseCp === 0x69 || baseCp === 0x6a) && boxes[0x6e])
    baseBox = [...baseBox.slice(0, 3), boxes[0x6e][3], baseBox[4]] as unknown as GlyphBox;
  const accent: number[][] = [],
    base: number[][] = [];
  for (const c of g.contours) {
    let minY = Infinity;
    for (let i = 1; i < c.length; i += 2) minY = Math.min(minY, c[i]);
    (minY >= partTop * 0.95 ? accent : base).push(c);
  }
  if (!accent.length || !base.length) return null;
  const extent = (cs: number[][]) => {
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity;
    for (const c of cs)
      for (let i = 0; i < c.length; i += 2) {
        x0 = Math.min(x0, c[i]);
        x1 = Math.max(x1, c[i]);
        y0 = Math.min(y0, c[i + 1]);
        y1 = Math.max(y1, c[i + 1]);
      }
    return { x0, x1, y0, y1 };
  };
  const be = extent(base),
    ae = extent(accent);
  const [, left, right, top, bottom] = baseBox;
  const gx = Math.max(0, (right - left) * h * sx) / Math.max(1, be.x1 - be.x0);
  const v = verticalFit(be.y0, be.y1, bottom * h, top * h, true);
  const ox = left * h * sx - be.x0 * gx;
  return nonEmpty(
    joinOutlines([
      placeContours(g, base, gx, v, ox),
      placeContours(g, accent, gx, { sy: v.sy, oy: ae.y1 * v.sy - b[3] * h }, ox),
    ]),
  );
}

/**
 * Letters hang their descenders from the baseline: the bowls of p, q and Q and the arms of y sit on it in both fonts
 * whatever the descender's length (strict text F1 +0.0007 over the corpus, h50_lcP +0.021). Symbols spanning the
 * baseline ({, §, @, $) are drawn centred on their box instead and keep one stretch (h50_Section -0.09 anchored).
 */
export function baselineAnchored(cp: number): boolean {
  return /\p{L}/u.test(String.fromCodePoint(cp));
}

/** ^TB line pitch per dot of height (h84_tb_ft: 106 dots at height 84); ^FB lines are one height apart. */
const TEXT_BLOCK_PITCH = 106 / 84;

/**
 * The row of the baseline below the cell top: the legacy renderer puts it on a whole row, floor(ratio * h)
 * (flat capitals end exactly on rows 15, 22, 37 and 60 at heights 20, 30, 50 and 80 with a ratio of 0.75).
 */
export function baselineRow(ratio: number, h: number): number {
  return Math.floor(ratio * h + 1e-9);
}

/** Baseline below the top of the cell for a height of `h` dots. */
export function font0Baseline(h: number): number {
  return baselineRow(font0Metrics.baseline, h);
}

/** The model of `cp` at height `h` (font0-model.ts): its band's entry, else the band's fallback; null past every band. */
export function glyphModel(cp: number, h: number, model: readonly Font0Band[]): GlyphModel | null {
  const band = model.find((b) => h <= b.maxHeight);
  return band ? (band.glyphs[cp] ?? band.fallback) : null;
}

/** The fitted weights and offset of `cp` at height `h`, in dots; null when they change nothing. */
export function glyphAdjustment(
  cp: number,
  h: number,
  model: readonly Font0Band[] = font0Model,
): GlyphAdjustment | null {
  const m = glyphModel(cp, h, model);
  if (!m || (!m[0] && !m[1] && !m[2] && !m[3])) return null;
  return { weightX: m[0] * h, weightY: m[1] * h, dx: m[2] * h, dy: m[3] * h };
}

/** Horizontal scale of a ^A0 width parameter relative to the height (0 = proportional). */
function widthScale(h: number, w: number): number {
  return w > 0 ? w / h : 1;
}

/** The measured box of `cp` in units of the height, or one derived from the outline. */
function box(cp: number): GlyphBox | null {
  const m = font0Metrics.glyphs[cp];
  if (m) return m;
  const font = sourceFont(cp);
  const g = font?.glyph(cp);
  if (!font || !g) return null;
  // Unmeasured glyph: scale the outline like an average measured glyph.
  const s = font0Metrics.emPerHeight / font.unitsPerEm;
  const sx = s * font0Metrics.condense;
  return [g.advance * sx, g.minX * sx, g.maxX * sx, g.maxY * s, g.minY * s];
}

/**
 * The measured letter an unmeasured accented one is built on (n for ń), else `cp`: measured accented letters advance
 * as their base does, 33 of 53 exactly and the rest within 0.003 of the height (dpdpl's Polish text 0.946 -> 0.956).
 */
export function advanceLetter(cp: number): number {
  if (font0Metrics.glyphs[cp]) return cp;
  const base = decomposedBase(cp);
  return base !== null && font0Metrics.glyphs[base] ? base : cp;
}

/**
 * The code point a character is built on, the first of its canonical decomposition into two or more (n for ń, = for
 * ≠); null when it does not decompose so (a singleton such as the ohm sign is another character, not a base).
 */
export function decomposedBase(cp: number): number | null {
  const parts = [...String.fromCodePoint(cp).normalize('NFD')];
  return parts.length > 1 ? parts[0]!.codePointAt(0)! : null;
}

/**
 * The pen advance after `cp` (or the letter it is built on, see advanceLetter) at height `h` in units of the height:
 * the measured box's, changed as the band's glyph model fitted it, then as runs of text showed it (font0-run-advances.ts).
 */
export function glyphAdvance(
  cp: number,
  h: number,
  model: readonly Font0Band[] = font0Model,
  runs: readonly Font0RunBand[] = font0RunAdvances,
): number | null {
  const a = advanceLetter(cp);
  const b = box(a);
  return b ? b[0] + (glyphModel(a, h, model)?.[4] ?? 0) + (runs.find((r) => h <= r.maxHeight)?.advances[a] ?? 0) : null;
}

/** `cp` fitted into its measured box at height `h` and width stretch `sx`, before the glyph model adjusts it. */
export function placeFont0Glyph(cp: number, h: number, sx: number): PlacedOutline | null {
  const b = box(cp);
  const g = sourceFont(cp)?.glyph(cp);
  if (!b || !g) return null;
  const parts = font0Metrics.parts?.[cp];
  const anchored = baselineAnchored(cp);
  return (
    (parts && fitParts(g, [b[1], b[2], b[3], b[4]], parts, h, sx, anchored)) ||
    (font0Metrics.glyphs[cp] && accentedOutline(cp, b, h, sx)) ||
    fitGlyph(g, b, h, sx, anchored)
  );
}

/** Code points below this have their advance kept by the face (2 KiB a face). */
const LATIN1 = 256;

export function font0Face(height: number, width: number): Face {
  const h = Math.max(1, height);
  const sx = widthScale(h, width);
  const key = `0:${h}:${width}`;
  const advances = new Float64Array(LATIN1).fill(NaN);
  const place = (cp: number): PlacedOutline | null => {
    const placed = placeFont0Glyph(cp, h, sx);
    const adjust = placed && glyphAdjustment(cp, h);
    return adjust ? adjustOutline(placed, adjust) : placed;
  };
  return {
    key,
    height: h,
    baseline: font0Baseline(h),
    textBlockPitch: Math.round(h * TEXT_BLOCK_PITCH),
    antialias: true,
    advance(cp) {
      // Layout asks each glyph's advance several times a field: Latin-1's are kept once worked out (a bounded table).
      const kept = cp < LATIN1 ? advances[cp]! : NaN;
      // biome-ignore lint/suspicious/noSelfCompare: a NaN test without a call on this hot path
      if (kept === kept) return kept;
      const ratio = glyphAdvance(cp, h);
      const a = ratio !== null ? ratio * h * sx : h * 0.5 * sx;
      if (cp < LATIN1) advances[cp] = a;
      return a;
    },
    outline: (cp) => cachedOutline(key, cp, place),
  };
}
