// Glyph coverage masks relative to the pen (a point on the baseline), and their quarter-turn rotations.

import type { Orientation } from '../model.js';
import type { Contour } from '../layout/display-list.js';
import { coverageMask } from './fill-path.js';

/** Coverage mask whose top-left pixel sits at (x, y) relative to the pen point. */
export interface GlyphMask {
  x: number;
  y: number;
  w: number;
  h: number;
  cov: Uint8Array;
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

const cache = new Map<string, GlyphMask | null>();
const MAX_CACHED = 20000;

/**
 * The mask of a glyph outline (upright, relative to the pen) turned to an orientation, thresholded when crisp;
 * memoised by `key`, which names the font, code point and sub-dot shift.
 */
export function glyphMask(key: string, outline: readonly Contour[], o: Orientation, crisp: boolean): GlyphMask | null {
  const full = `${key}:${o}:${crisp ? 1 : 0}`;
  let m = cache.get(full);
  if (m === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    const upright = coverageMask(outline);
    m = upright ? rotateMask({ x: upright.x, y: upright.y, w: upright.w, h: upright.h, cov: upright.cov }, o) : null;
    if (m && crisp) m = binarize(m);
    cache.set(full, m);
  }
  return m;
}
