// Glyph outlines placed relative to the pen: font units (y up) mapped to dots (y down), ready to fill, with the
// curves kept beside the polygons for vector output.

import { extentOf, type Contour, type Extent, type PathData } from '../display/display-list.js';
import type { OutlineGlyph } from '../decode/outline-font.js';

/** Placed contours: polygons to fill (curves flattened) and the same contours as path data with their curves. */
export interface PlacedContours {
  polygons: Contour[];
  curves: PathData[];
}

/** How font units (y up) map to dots down: Y = oy - y * sy, with `syBelow` in place of sy below the font's baseline. */
export interface VerticalMap {
  sy: number;
  oy: number;
  syBelow?: number;
}

/**
 * The vertical map that puts ink from font units minY..maxY between `bottom` and `top` (dots up from the baseline).
 * One stretch, except for `anchored` glyphs whose outline reaches well below its baseline and whose measured ink
 * reaches below ours at all (p, Q, ç; ø, whose slash pokes out further in the outline font): there the parts above
 * and below the baseline are stretched apart, so the bowl of p or ø still sits on the baseline when the two fonts'
 * descenders differ in proportion.
 */
export function verticalFit(minY: number, maxY: number, bottom: number, top: number, anchored = false): VerticalMap {
  const deep = (lo: number, hi: number) => lo < 0 && hi > 0 && -lo > DESCENDER_SHARE * (hi - lo);
  if (anchored && deep(minY, maxY) && bottom < 0) return { sy: top / maxY, oy: 0, syBelow: bottom / minY };
  const sy = (top - bottom) / Math.max(1, maxY - minY);
  return { sy, oy: minY * sy - bottom };
}

/** Below this share of the ink height under the baseline, a glyph keeps one vertical stretch (overshoots of o, s). */
const DESCENDER_SHARE = 0.04;

/**
 * A placed glyph that encloses some area, with the extent of its polygons (measured once, when placed) in the same
 * record: text layout reads it for every glyph, and one record is one memory access fewer than two.
 */
export interface PlacedOutline extends PlacedContours, Extent {}

/**
 * Maps contours of `g` (font units, y up; each one of g.contours) with X = ox + gx * sx, Y = oy - gy * sy, where
 * (ox, oy) is the glyph's origin relative to the pen in dots (`v.syBelow` for sy below the baseline).
 */
export function placeContours(
  g: OutlineGlyph,
  contours: readonly (readonly number[])[],
  sx: number,
  v: VerticalMap,
  ox: number,
): PlacedContours {
  const { sy, oy } = v,
    below = v.syBelow ?? sy;
  const Y = (y: number) => oy - y * (y < 0 ? below : sy);
  const polygons = contours.map((c) => {
    const out = new Array<number>(c.length);
    for (let i = 0; i < c.length; i += 2) {
      out[i] = ox + c[i] * sx;
      out[i + 1] = Y(c[i + 1]);
    }
    return out;
  });
  const curves = contours.map((c) => {
    const path = g.paths[g.contours.indexOf(c as number[])] ?? [];
    const out: number[] = [];
    for (let i = 0; i < path.length; ) {
      const op = path[i++];
      const points = op === 3 ? 3 : op === 2 ? 2 : 1;
      out.push(op);
      for (let k = 0; k < points; k++, i += 2) out.push(ox + path[i] * sx, Y(path[i + 1]));
    }
    return out;
  });
  return { polygons, curves };
}

/** Places every contour of a glyph; null for blank glyphs. */
export function placeOutline(g: OutlineGlyph, sx: number, v: VerticalMap, ox: number): PlacedOutline | null {
  if (!g.contours.length) return null;
  return nonEmpty(placeContours(g, g.contours, sx, v, ox));
}

/** Parts placed separately, as one outline. */
export function joinOutlines(parts: readonly PlacedContours[]): PlacedContours {
  return { polygons: parts.flatMap((p) => p.polygons), curves: parts.flatMap((p) => p.curves) };
}

/** The outline, or null when it encloses no area (nothing would be filled). */
export function nonEmpty(placed: PlacedContours): PlacedOutline | null {
  const { minX, minY, maxX, maxY } = extentOf(placed.polygons);
  return minX < maxX && minY < maxY
    ? { polygons: placed.polygons, curves: placed.curves, minX, minY, maxX, maxY }
    : null;
}
