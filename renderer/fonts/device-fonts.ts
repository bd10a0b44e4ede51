// The fixed-cell device fonts A-H and GS: cell sizes and glyph boxes measured from the legacy renderer,
// glyph shapes from DejaVu Sans Mono scaled into those boxes. Magnification is by whole multiples.

import type { OutlineFont } from './outline-font.js';
import { dejaVuSansMono, dejaVuSansMonoBold, dejaVuSansCondensedBold, withGlyph } from './builtin.js';
import { outlineMask } from '../text/glyph-mask.js';
import { cachedGlyph, type Face } from './face.js';

export interface DeviceFont {
  /** Base cell height and pen advance (glyph width plus the inter-character gap), in dots. */
  cellHeight: number;
  advance: number;
  /** Nominal character width of the Zebra font table (the unit of ^A width magnification). */
  width: number;
  /** Cell top to baseline. */
  baseline: number;
  /** Cap height, and the ink box of a full-width glyph (left bearing and width). */
  capHeight: number;
  inkLeft: number;
  inkWidth: number;
  bold: boolean;
  upperOnly?: boolean;
}

/** Measured at magnification 1 (8 dpmm). */
export const deviceFonts: Readonly<Record<string, DeviceFont>> = {
  A: { cellHeight: 9, advance: 6, width: 5, baseline: 7, capHeight: 7, inkLeft: 0, inkWidth: 5, bold: false },
  B: { cellHeight: 11, advance: 9, width: 7, baseline: 11, capHeight: 11, inkLeft: 0, inkWidth: 8, bold: true, upperOnly: true },
  C: { cellHeight: 18, advance: 12, width: 10, baseline: 14, capHeight: 14, inkLeft: 0, inkWidth: 10, bold: true },
  D: { cellHeight: 18, advance: 12, width: 10, baseline: 14, capHeight: 14, inkLeft: 0, inkWidth: 10, bold: true },
  E: { cellHeight: 28, advance: 20, width: 15, baseline: 23, capHeight: 20, inkLeft: 0, inkWidth: 14, bold: true },
  F: { cellHeight: 26, advance: 16, width: 13, baseline: 21, capHeight: 21, inkLeft: 0, inkWidth: 15, bold: true },
  G: { cellHeight: 60, advance: 48, width: 40, baseline: 48, capHeight: 48, inkLeft: 3, inkWidth: 30, bold: true },
  H: { cellHeight: 21, advance: 18, width: 13, baseline: 21, capHeight: 21, inkLeft: 0, inkWidth: 14, bold: true },
  GS: { cellHeight: 24, advance: 24, width: 24, baseline: 24, capHeight: 24, inkLeft: 0, inkWidth: 24, bold: true },
};

/** Whole-number magnification for a requested size: the nearest multiple of the base, at least 1. */
export function magnification(requested: number, base: number): number {
  return requested > 0 ? Math.max(1, Math.round(requested / base)) : 0;
}

function shapeFont(f: DeviceFont): ReadonlyArray<() => OutlineFont | null> {
  return f.bold ? [dejaVuSansMonoBold, dejaVuSansCondensedBold] : [dejaVuSansMono, dejaVuSansCondensedBold];
}

export function deviceFace(name: string, height: number, width: number): Face | null {
  const f = deviceFonts[name];
  if (!f) return null;
  let my = magnification(height, f.cellHeight);
  let mx = magnification(width, f.width);
  if (!my && !mx) my = mx = 1;
  else if (!my) my = mx;
  else if (!mx) mx = my;
  const key = `${name}:${mx}:${my}`;
  const chain = shapeFont(f);
  const mapChar = f.upperOnly ? (cp: number) => (cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp) : undefined;
  return {
    key,
    height: f.cellHeight * my,
    baseline: f.baseline * my,
    antialias: true,
    mapChar,
    advance: () => f.advance * mx,
    glyph(cp) {
      return cachedGlyph(`${key}:${cp}`, () => {
        const font = withGlyph(cp, chain);
        const g = font?.glyph(cp);
        const ref = font?.glyph(0x4d); // M fills the cell's width
        if (!font || !g || !ref || !g.contours.length) return null;
        const sy = (f.capHeight * my) / font.capHeight;
        const sx = (f.inkWidth * mx) / Math.max(1, ref.maxX - ref.minX);
        return outlineMask(g.contours, sx, sy, f.inkLeft * mx - ref.minX * sx, 0);
      });
    },
  };
}
