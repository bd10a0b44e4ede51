// Glyph outlines placed relative to the pen: font units (y up) mapped to dots (y down), ready to fill.

import { extentOf, type Contour } from '../layout/display-list.js';

/**
 * Maps an outline (font units, y up) with X = ox + gx * sx, Y = oy - gy * sy, where (ox, oy) is the glyph's
 * origin relative to the pen in dots. Null for blank glyphs.
 */
export function placeOutline(contours: readonly (readonly number[])[], sx: number, sy: number, ox: number, oy: number): Contour[] | null {
  if (!contours.length) return null;
  return nonEmpty(contours.map((c) => {
    const out = new Array<number>(c.length);
    for (let i = 0; i < c.length; i += 2) {
      out[i] = ox + c[i] * sx;
      out[i + 1] = oy - c[i + 1] * sy;
    }
    return out;
  }));
}

/** The outline, or null when it encloses no area (nothing would be filled). */
export function nonEmpty(placed: Contour[]): Contour[] | null {
  const { minX, minY, maxX, maxY } = extentOf(placed);
  return minX < maxX && minY < maxY ? placed : null;
}
