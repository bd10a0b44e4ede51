// Glyph coverage masks relative to the pen (a point on the baseline), and their quarter-turn rotations.

import type { Orientation } from '../model.js';
import { coverageMask } from '../raster/fill-path.js';

/** Coverage mask whose top-left pixel sits at (x, y) relative to the pen point. */
export interface GlyphMask {
  x: number;
  y: number;
  w: number;
  h: number;
  cov: Uint8Array;
}

/**
 * Rasterizes an outline (font units, y up) with an affine map: X = ox + gx * sx, Y = oy - gy * sy, where
 * (ox, oy) is the glyph's origin relative to the pen in dots; `widen` thickens vertical strokes (coverageMask).
 * Returns null for blank glyphs.
 */
export function outlineMask(contours: readonly number[][], sx: number, sy: number, ox: number, oy: number, widen = 0): GlyphMask | null {
  if (!contours.length) return null;
  const placed = contours.map((c) => {
    const out = new Float64Array(c.length);
    for (let i = 0; i < c.length; i += 2) {
      out[i] = ox + c[i] * sx;
      out[i + 1] = oy - c[i + 1] * sy;
    }
    return out;
  });
  const m = coverageMask(placed, undefined, widen);
  return m ? { x: m.x, y: m.y, w: m.w, h: m.h, cov: m.cov } : null;
}

/** Turns a mask (drawn for orientation N) clockwise by the orientation's angle about the pen point. */
export function rotateMask(m: GlyphMask, o: Orientation): GlyphMask {
  if (o === 'N') return m;
  const { w, h, cov } = m;
  const out = new Uint8Array(w * h);
  if (o === 'I') {
    for (let i = 0; i < w * h; i++) out[w * h - 1 - i] = cov[i];
    return { x: -(m.x + w), y: -(m.y + h), w, h, cov: out };
  }
  // R: (u, v) -> (-v, u); B: (u, v) -> (v, -u). The rotated mask is h wide and w tall.
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = cov[r * w + c];
      if (!v) continue;
      if (o === 'R') out[c * h + (h - 1 - r)] = v;
      else out[(w - 1 - c) * h + r] = v;
    }
  }
  return o === 'R'
    ? { x: -(m.y + h), y: m.x, w: h, h: w, cov: out }
    : { x: m.y, y: -(m.x + w), w: h, h: w, cov: out };
}

/** Thresholds a mask to pure ink/paper (reverse-printed fields come out this way). */
export function binarize(m: GlyphMask): GlyphMask {
  const cov = new Uint8Array(m.cov.length);
  for (let i = 0; i < cov.length; i++) cov[i] = m.cov[i] >= 128 ? 255 : 0;
  return { ...m, cov };
}
