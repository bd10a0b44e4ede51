// Glyph outlines placed relative to the pen: font units (y up) mapped to dots (y down), ready to fill, with the
// curves kept beside the polygons for vector output.

import { extentOf, type Contour, type Extent, type PathData } from '../layout/display-list.js';
import type { OutlineGlyph } from './outline-font.js';

/** Placed contours: polygons to fill (curves flattened) and the same contours as path data with their curves. */
export interface PlacedContours {
  polygons: Contour[];
  curves: PathData[];
}

/**
 * A placed glyph that encloses some area, with the extent of its polygons (measured once, when placed) in the same
 * record: text layout reads it for every glyph, and one record is one memory access fewer than two.
 */
export interface PlacedOutline extends PlacedContours, Extent {}

/**
 * Maps contours of `g` (font units, y up; each one of g.contours) with X = ox + gx * sx, Y = oy - gy * sy, where
 * (ox, oy) is the glyph's origin relative to the pen in dots.
 */
export function placeContours(g: OutlineGlyph, contours: readonly (readonly number[])[], sx: number, sy: number, ox: number, oy: number): PlacedContours {
  const polygons = contours.map((c) => {
    const out = new Array<number>(c.length);
    for (let i = 0; i < c.length; i += 2) {
      out[i] = ox + c[i] * sx;
      out[i + 1] = oy - c[i + 1] * sy;
    }
    return out;
  });
  const curves = contours.map((c) => {
    const path = g.paths[g.contours.indexOf(c as number[])] ?? [];
    const out: number[] = [];
    for (let i = 0; i < path.length;) {
      const op = path[i++];
      const points = op === 3 ? 3 : op === 2 ? 2 : 1;
      out.push(op);
      for (let k = 0; k < points; k++, i += 2) out.push(ox + path[i] * sx, oy - path[i + 1] * sy);
    }
    return out;
  });
  return { polygons, curves };
}

/** Places every contour of a glyph; null for blank glyphs. */
export function placeOutline(g: OutlineGlyph, sx: number, sy: number, ox: number, oy: number): PlacedOutline | null {
  if (!g.contours.length) return null;
  return nonEmpty(placeContours(g, g.contours, sx, sy, ox, oy));
}

/** Parts placed separately, as one outline. */
export function joinOutlines(parts: readonly PlacedContours[]): PlacedContours {
  return { polygons: parts.flatMap((p) => p.polygons), curves: parts.flatMap((p) => p.curves) };
}

/** The outline, or null when it encloses no area (nothing would be filled). */
export function nonEmpty(placed: PlacedContours): PlacedOutline | null {
  const { minX, minY, maxX, maxY } = extentOf(placed.polygons);
  return minX < maxX && minY < maxY ? { polygons: placed.polygons, curves: placed.curves, minX, minY, maxX, maxY } : null;
}
