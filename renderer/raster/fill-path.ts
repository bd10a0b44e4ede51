// Anti-aliased polygon filling (non-zero winding) for glyph outlines, circles, ellipses and diagonal lines, with
// the legacy service's two rasterizers: its shape filler samples (sampled-coverage.ts), its font scaler sums cell
// areas (cell-coverage.ts). Curves are flattened by the caller into polylines.

import { UNMETERED, type DecodeMeter } from '../decode/meter.js';
import { extentOf, type InkMode } from '../display/display-list.js';
import type { Raster } from './raster.js';
import { sampledCoverage } from './sampled-coverage.js';
import { cellCoverage } from './cell-coverage.js';

/** A closed polygon: x0, y0, x1, y1, ... in dots (y down). */
export type Contour = ArrayLike<number>;

/**
 * Fills the union of `contours` (non-zero winding) into `raster`, sampled as the legacy service fills shapes; its
 * coverage is claimed on `meter` while it is drawn.
 */
export function fillPath(
  raster: Raster,
  contours: readonly Contour[],
  mode: InkMode = 'black',
  meter: DecodeMeter = UNMETERED,
): void {
  // Only the part on the raster is rasterized: memory stays bounded by the label size.
  const mask = coverageMask(contours, { x0: 0, y0: 0, x1: raster.width, y1: raster.height }, 'shape', meter);
  if (!mask) return;
  raster.blitCoverage(mask.cov, mask.w, mask.h, mask.x, mask.y, mode);
  meter.release?.(mask.cov.byteLength);
}

export interface CoverageMask {
  x: number;
  y: number;
  w: number;
  h: number;
  cov: Uint8Array;
}

/** Which of the legacy service's rasterizers a mask copies: its shape filler's or its font scaler's. */
export type Rasterizer = 'shape' | 'glyph';

/** Largest unclipped mask (a glyph far bigger than any label is not drawn). */
const MAX_UNCLIPPED = 16e6;

/** Integer rectangle [x0, x1) x [y0, y1). */
export interface Clip {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Rasterizes contours into a coverage mask positioned at integer (x, y), or null when empty. With `clip`, only the
 * part inside it is computed. The mask is claimed on `meter`: the caller gives it back when it drops it.
 */
export function coverageMask(
  contours: readonly Contour[],
  clip: Clip | undefined,
  rasterizer: Rasterizer,
  meter: DecodeMeter = UNMETERED,
): CoverageMask | null {
  const { minX, minY, maxX, maxY } = extentOf(contours);
  if (!(minX < maxX) || !(minY < maxY)) return null;
  let x0 = Math.floor(minX),
    y0 = Math.floor(minY);
  let x1 = Math.ceil(maxX) + 1,
    y1 = Math.ceil(maxY);
  if (clip) {
    x0 = Math.max(x0, clip.x0);
    y0 = Math.max(y0, clip.y0);
    x1 = Math.min(x1, clip.x1);
    y1 = Math.min(y1, clip.y1);
  }
  const w = x1 - x0,
    h = y1 - y0;
  if (w <= 0 || h <= 0 || (!clip && w * h > MAX_UNCLIPPED)) return null;
  // Claimed here, not inside the rasterizers (their loops are the hot path): their tables, given back once the
  // coverage is made, and the coverage itself.
  let tables: number;
  if (rasterizer === 'glyph') tables = CELL_GRID_BYTES * w * h;
  else {
    let points = 0;
    for (const c of contours) points += c.length >> 1;
    tables = SAMPLE_COUNT_BYTES * (w + 1) * h + EDGE_TABLE_BYTES * points;
  }
  meter.claim(tables + w * h, rasterizer === 'glyph' ? 'A glyph cell grid' : 'A filled shape (its coverage tables)');
  const cov = rasterizer === 'glyph' ? cellCoverage(contours, x0, y0, w, h) : sampledCoverage(contours, x0, y0, w, h);
  meter.release?.(tables);
  return { x: x0, y: y0, w, h, cov };
}

/** cellCoverage's two Int32 grids a pixel. */
const CELL_GRID_BYTES = 8;
/** sampledCoverage's Int32 sample counts a pixel (and one more column a row). */
const SAMPLE_COUNT_BYTES = 4;
/** sampledCoverage's tables a contour point: an edge record (6 Float64), its order, active and crossing slots. */
const EDGE_TABLE_BYTES = 6 * 8 + 4 + 4 + 4 + 1;
