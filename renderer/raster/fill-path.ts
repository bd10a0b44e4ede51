// Anti-aliased polygon filling with exact area coverage (non-zero winding), for glyph outlines,
// circles, ellipses and diagonal lines. Curves are flattened by the caller into polylines.

import { extentOf, type InkMode } from '../display/display-list.js';
import type { Raster } from './raster.js';
import { areaCoverage } from './area-coverage.js';

/** A closed polygon: x0, y0, x1, y1, ... in dots (y down). */
export type Contour = ArrayLike<number>;

/**
 * Fills the union of `contours` (non-zero winding) into `raster`. Each pixel gets the share of its area covered:
 * exact along a sub-scanline, sampled on SUB_ROWS sub-scanlines per row.
 */
export function fillPath(raster: Raster, contours: readonly Contour[], mode: InkMode = 'black'): void {
  // Only the part on the raster is rasterized: memory stays bounded by the label size.
  const mask = coverageMask(contours, { x0: 0, y0: 0, x1: raster.width, y1: raster.height });
  if (mask) raster.blitCoverage(mask.cov, mask.w, mask.h, mask.x, mask.y, mode);
}

export interface CoverageMask {
  x: number;
  y: number;
  w: number;
  h: number;
  cov: Uint8Array;
}

/** Vertical sub-scanlines per pixel row unless a caller asks for more. */
const SUB_ROWS = 4;

/** Largest unclipped mask (a glyph far bigger than any label is not drawn). */
const MAX_UNCLIPPED = 16e6;

/** Integer rectangle [x0, x1) x [y0, y1). */
export interface Clip { x0: number; y0: number; x1: number; y1: number }

/**
 * Rasterizes contours into a coverage mask positioned at integer (x, y), or null when empty.
 * With `clip`, only the part inside it is computed.
 * `rows` sub-scanlines sample each pixel row: an edge lands within 1 / (2 rows) of a dot of where it is, and half
 * coverage (the ink threshold) is crossed up to that much early.
 */
export function coverageMask(contours: readonly Contour[], clip?: Clip, rows = SUB_ROWS): CoverageMask | null {
  const { minX, minY, maxX, maxY } = extentOf(contours);
  if (!(minX < maxX) || !(minY < maxY)) return null;
  let x0 = Math.floor(minX), y0 = Math.floor(minY);
  let x1 = Math.ceil(maxX) + 1, y1 = Math.ceil(maxY);
  if (clip) {
    x0 = Math.max(x0, clip.x0); y0 = Math.max(y0, clip.y0);
    x1 = Math.min(x1, clip.x1); y1 = Math.min(y1, clip.y1);
  }
  const w = x1 - x0, h = y1 - y0;
  if (w <= 0 || h <= 0 || (!clip && w * h > MAX_UNCLIPPED)) return null;
  if (rows === Infinity) return { x: x0, y: y0, w, h, cov: areaCoverage(contours, x0, y0, w, h) };
  const cov = new Float32Array(w * h);
  // Per sub-scanline: crossings with winding direction, then fill between by non-zero rule with
  // fractional horizontal coverage at the span ends.
  const xs: number[] = [];
  const dirs: number[] = [];
  const edges: number[] = []; // x0,y0,x1,y1,dir
  for (const c of contours) {
    const n = c.length >> 1;
    for (let i = 0; i < n; i++) {
      const ax = c[2 * i] - x0, ay = c[2 * i + 1] - y0;
      const j = (i + 1) % n;
      const bx = c[2 * j] - x0, by = c[2 * j + 1] - y0;
      if (ay === by) continue;
      if (ay < by) edges.push(ax, ay, bx, by, 1); else edges.push(bx, by, ax, ay, -1);
    }
  }
  const order: number[] = [];
  for (let s = 0; s < h * rows; s++) {
    const sy = (s + 0.5) / rows;
    xs.length = 0; dirs.length = 0;
    for (let e = 0; e < edges.length; e += 5) {
      const ey0 = edges[e + 1], ey1 = edges[e + 3];
      if (sy < ey0 || sy >= ey1) continue;
      const t = (sy - ey0) / (ey1 - ey0);
      xs.push(edges[e] + t * (edges[e + 2] - edges[e]));
      dirs.push(edges[e + 4]);
    }
    if (xs.length < 2) continue;
    order.length = 0;
    for (let k = 0; k < xs.length; k++) order.push(k);
    order.sort((a, b) => xs[a] - xs[b]);
    const row = Math.floor(s / rows) * w;
    let wind = 0;
    // Filled spans, neighbours joined, so that a pixel two spans share is counted once.
    let a = NaN, b = NaN;
    for (let k = 0; k < order.length - 1; k++) {
      wind += dirs[order[k]];
      if (wind === 0) continue;
      const sa = xs[order[k]], sb = xs[order[k + 1]];
      if (sa <= b) { b = Math.max(b, sb); continue; }
      if (b > a) addSpan(cov, row, w, a, b);
      a = sa; b = sb;
    }
    if (b > a) addSpan(cov, row, w, a, b);
  }
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const v = Math.round((cov[i] / rows) * 255);
    out[i] = v > 255 ? 255 : v;
  }
  return { x: x0, y: y0, w, h, cov: out };
}

/** Adds horizontal coverage of [a, b) to one sub-scanline's row, with fractional ends. */
function addSpan(cov: Float32Array, row: number, w: number, a: number, b: number): void {
  if (a < 0) a = 0;
  if (b > w) b = w;
  if (b <= a) return;
  const ia = Math.floor(a), ib = Math.floor(b);
  if (ia === ib) { if (ia < w) cov[row + ia] += b - a; return; }
  cov[row + ia] += ia + 1 - a;
  for (let x = ia + 1; x < ib; x++) cov[row + x] += 1;
  if (ib < w) cov[row + ib] += b - ib;
}
