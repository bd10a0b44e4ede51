// The fixed-cell device fonts A-H and GS: cell sizes and glyph boxes measured from the legacy renderer,
// glyph shapes from DejaVu Sans Mono scaled into those boxes. Magnification is by whole multiples.

import type { OutlineFont } from '../decode/outline-font.js';
import { dejaVuSansMono, dejaVuSansMonoBold, dejaVuSansCondensedBold, ocrA, ocrB, withGlyph } from './builtin.js';
import { cachedOutline, type Face } from './face.js';
import { placeOutline, type PlacedOutline } from './place.js';
import { deviceMetrics, type DeviceGlyphBox } from './device-metrics.js';

export interface DeviceFont {
  /** Base cell height (the unit of height magnification and the ^FB line pitch), in dots. */
  cellHeight: number;
  /** Nominal character width of the Zebra font table (the unit of ^A width magnification). */
  width: number;
  /** Heavier DejaVu shapes for the bold-looking fonts. */
  bold: boolean;
  /** OCR fonts: E is OCR-B, H is OCR-A. */
  ocr?: 'A' | 'B';
  /** Font B has no lower case: lower-case letters print as capitals. */
  upperOnly?: boolean;
  /** Font B's full-width glyphs start at the pen (its H, E, L, C, J all do), not where DejaVu Mono centres them. */
  leftAligned?: boolean;
}

/** Zebra's font matrices at 8 dpmm (cell height x character width); measured metrics are in device-metrics.ts. */
export const deviceFonts: Readonly<Record<string, DeviceFont>> = {
  A: { cellHeight: 9, width: 5, bold: false },
  B: { cellHeight: 11, width: 7, bold: true, upperOnly: true, leftAligned: true },
  C: { cellHeight: 18, width: 10, bold: false },
  D: { cellHeight: 18, width: 10, bold: false },
  E: { cellHeight: 28, width: 15, bold: false, ocr: 'B' },
  F: { cellHeight: 26, width: 13, bold: false },
  G: { cellHeight: 60, width: 40, bold: false },
  H: { cellHeight: 21, width: 13, bold: false, ocr: 'A' },
  GS: { cellHeight: 24, width: 24, bold: false },
};

/** The measured box of M: the cap height, baseline and full glyph width of a font. */
function referenceBox(name: string, f: DeviceFont): DeviceGlyphBox {
  return deviceMetrics[name]?.[0x4d] ?? [f.width + 1, 0, f.width, 0, Math.round(f.cellHeight * 0.78)];
}

/** Whole-number magnification for a requested size: the nearest multiple of the base, at least 1. */
export function magnification(requested: number, base: number): number {
  return requested > 0 ? Math.max(1, Math.round(requested / base)) : 0;
}

function shapeFont(f: DeviceFont): ReadonlyArray<() => OutlineFont | null> {
  if (f.ocr) return [f.ocr === 'A' ? ocrA : ocrB, dejaVuSansMono, dejaVuSansCondensedBold];
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
  const ref = referenceBox(name, f);
  const measured = deviceMetrics[name] ?? {};
  const baseline = Math.round(ref[4]);
  const place = (cp: number): PlacedOutline | null => {
    const font = withGlyph(cp, chain);
    const g = font?.glyph(cp);
    const m = font?.glyph(0x4d);
    if (!font || !g || !m || !g.contours.length) return null;
    const box = measured[cp];
    if (box) {
      // Stretch the outline onto the measured ink box (y measured down from the cell top).
      const sx = ((box[2] - box[1]) * mx) / Math.max(1, g.maxX - g.minX);
      const sy = ((box[4] - box[3]) * my) / Math.max(1, g.maxY - g.minY);
      return placeOutline(g, sx, { sy, oy: (box[4] - baseline) * my + g.minY * sy }, box[1] * mx - g.minX * sx);
    }
    // Unmeasured glyph: the scale that fits M onto its measured box.
    const sx = ((ref[2] - ref[1]) * mx) / Math.max(1, m.maxX - m.minX);
    const sy = ((ref[4] - ref[3]) * my) / Math.max(1, m.maxY - m.minY);
    const wide = g.maxX - g.minX >= 0.7 * (m.maxX - m.minX);
    return placeOutline(g, sx, { sy, oy: 0 }, ref[1] * mx - (f.leftAligned && wide ? g.minX : m.minX) * sx);
  };
  return {
    key,
    height: f.cellHeight * my,
    baseline: baseline * my,
    antialias: true,
    mapChar,
    advance: () => Math.round(ref[0]) * mx,
    outline: (cp) => cachedOutline(key, cp, place),
  };
}
