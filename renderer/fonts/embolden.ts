// Stem weight of placed glyphs: every edge of an outline moved out along its normal, by half a weight to either
// side, with separate weights across (vertical stems) and along (horizontal bars) the x axis, as FreeType's
// FT_Outline_EmboldenXY does; holes shrink as the ink grows. Points of Bézier paths move with the same rule, so
// the vector outline stays the shape the raster fills.

import { signedArea, type PathData } from '../display/display-list.js';
import type { PlacedOutline } from './place.js';

/** Below this cosine between an edge and the next (a turn past about 160 degrees), a point is not moved. */
const SHARP_TURN = -0.9375;

/**
 * The points of one closed contour (x, y pairs) moved so that each edge lies `wx` / 2 further out sideways and
 * `wy` / 2 further out up or down; `side` is +1 when the outline's outer contours have positive signedArea.
 */
function emboldenPoints(p: readonly number[], wx: number, wy: number, side: number): number[] {
  const n = p.length >> 1;
  const out = p.slice();
  const hx = wx / 2,
    hy = wy / 2;
  // Index of the nearest point before / after i at another position (paths repeat their first point at the end).
  const step = (i: number, dir: number): number => {
    for (let k = 1, j = i; k < n; k++) {
      j = (j + dir + n) % n;
      if (p[2 * j] !== p[2 * i] || p[2 * j + 1] !== p[2 * i + 1]) return j;
    }
    return i;
  };
  for (let i = 0; i < n; i++) {
    const a = step(i, -1),
      b = step(i, 1);
    if (a === i || b === i) continue;
    let ix = p[2 * i] - p[2 * a],
      iy = p[2 * i + 1] - p[2 * a + 1];
    let ox = p[2 * b] - p[2 * i],
      oy = p[2 * b + 1] - p[2 * i + 1];
    const li = Math.hypot(ix, iy),
      lo = Math.hypot(ox, oy);
    ix /= li;
    iy /= li;
    ox /= lo;
    oy /= lo;
    const cos = ix * ox + iy * oy;
    if (cos <= SHARP_TURN) continue;
    // Outward normals of both edges summed, over 1 + cos: the point that moves both edges out by one.
    const d = 1 + cos;
    const sx = side * (iy + oy),
      sy = -side * (ix + ox);
    // A short edge between two turns limits the shift (FreeType's rule), so thin parts do not fold over.
    const q = Math.abs(ox * iy - oy * ix),
      l = Math.min(li, lo);
    const scale = (w: number): number => (w * q <= l * d ? w / d : l / q);
    out[2 * i] += sx * scale(hx);
    out[2 * i + 1] += sy * scale(hy);
  }
  return out;
}

/** The points of a path (ops with their coordinates) as one x, y list, and a way to write moved points back. */
function pathPoints(path: PathData): { points: number[]; put(points: readonly number[]): PathData } {
  const points: number[] = [];
  for (let i = 0; i < path.length; ) {
    const op = path[i++];
    const count = op === 3 ? 3 : op === 2 ? 2 : 1;
    for (let k = 0; k < count; k++, i += 2) points.push(path[i], path[i + 1]);
  }
  return {
    points,
    put(moved) {
      const out = path.slice();
      for (let i = 0, m = 0; i < path.length; ) {
        const op = path[i++];
        const count = op === 3 ? 3 : op === 2 ? 2 : 1;
        for (let k = 0; k < count; k++, i += 2, m += 2) {
          out[i] = moved[m];
          out[i + 1] = moved[m + 1];
        }
      }
      return out;
    },
  };
}

/** Shift and scale of a placed glyph: x' = ox + (x - cx) * kx + cx, the same in y. */
interface Affine {
  cx: number;
  cy: number;
  kx: number;
  ky: number;
  dx: number;
  dy: number;
}

function mapPoints(p: readonly number[], t: Affine): number[] {
  const out = new Array<number>(p.length);
  for (let i = 0; i < p.length; i += 2) {
    out[i] = t.cx + (p[i] - t.cx) * t.kx + t.dx;
    out[i + 1] = t.cy + (p[i + 1] - t.cy) * t.ky + t.dy;
  }
  return out;
}

/** What the glyph model changes in a placed glyph, in dots. */
export interface GlyphAdjustment {
  /** Stems heavier by this much across x (vertical strokes) and along y (horizontal bars); negative: lighter. */
  weightX: number;
  weightY: number;
  /** The glyph moved right and down. */
  dx: number;
  dy: number;
}

/**
 * The outline with heavier (or lighter) strokes inside the same ink box, moved by (dx, dy): it is first narrowed
 * by the weights about the centre of its box, then emboldened, so the weights change stems, not the glyph's size.
 */
export function adjustOutline(o: PlacedOutline, a: GlyphAdjustment): PlacedOutline {
  const w = o.maxX - o.minX,
    h = o.maxY - o.minY;
  const t: Affine = {
    cx: (o.minX + o.maxX) / 2,
    cy: (o.minY + o.maxY) / 2,
    kx: w > a.weightX ? (w - a.weightX) / w : 1,
    ky: h > a.weightY ? (h - a.weightY) / h : 1,
    dx: a.dx,
    dy: a.dy,
  };
  const side = signedArea(o.polygons) >= 0 ? 1 : -1;
  const bold = (p: readonly number[]): number[] => {
    const moved = mapPoints(p, t);
    return a.weightX || a.weightY ? emboldenPoints(moved, a.weightX, a.weightY, side) : moved;
  };
  const polygons = o.polygons.map(bold);
  const curves = o.curves.map((c) => {
    const pp = pathPoints(c);
    return pp.put(bold(pp.points));
  });
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const c of polygons) {
    for (let i = 0; i < c.length; i += 2) {
      minX = Math.min(minX, c[i]);
      maxX = Math.max(maxX, c[i]);
      minY = Math.min(minY, c[i + 1]);
      maxY = Math.max(maxY, c[i + 1]);
    }
  }
  return { polygons, curves, minX, minY, maxX, maxY };
}
