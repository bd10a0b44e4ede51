// One candidate model of a glyph drawn as the raster draws it (the glyph rasterizer's coverage mask, blitted black at
// each pen point) into the region around the glyph, and compared with the reference pixel by pixel.

import { adjustOutline, type GlyphAdjustment } from '../../renderer/fonts/embolden.js';
import { coverageMask } from '../../renderer/raster/fill-path.js';
import { Raster } from '../../renderer/raster/raster.js';
import type { PlacedOutline } from '../../renderer/fonts/place.js';
import type { GlyphCase } from './cases.js';

export interface Candidate extends GlyphAdjustment {
  /** Pen advance in dots. */
  advance: number;
}

export interface Fit {
  /** Ink pixels in one image only (thresholded at mid-grey), and in both. */
  mismatched: number;
  /** Ink F1 with one pixel of tolerance (the 1-px line). */
  nearF1: number;
  both: number;
  /** Sum of absolute grey differences: what still keeps the label from being pixel-identical. */
  greyError: number;
  strictF1: number;
}

/** Scores a candidate over the rows and columns the glyph's copies can reach, and every reference pixel there. */
export function scoreCandidate(c: GlyphCase, cand: Candidate): Fit {
  const base = c.place();
  return scoreOutline(c, base && adjustOutline(base, cand), cand.advance);
}

/** Scores an outline placed for the case, its copies `advance` dots apart (pens rounded as the layout rounds them). */
export function scoreOutline(c: GlyphCase, outline: PlacedOutline | null, advance: number): Fit {
  const { width, height, grey } = c.reference;
  const margin = Math.ceil(c.h * 0.2) + 4;
  const rx0 = Math.max(0, c.x0 - margin),
    ry0 = Math.max(0, c.y - 2 * c.h);
  const rx1 = Math.min(width, c.x0 + Math.ceil(advance * c.copies) + c.h + margin),
    ry1 = Math.min(height, c.y + c.h);
  const r = new Raster(rx1 - rx0, ry1 - ry0);
  const m = outline && coverageMask(outline.polygons, undefined, 'glyph');
  if (m)
    for (let i = 0; i < c.copies; i++)
      r.blitCoverage(m.cov, m.w, m.h, c.x0 + Math.round(i * advance) + m.x - rx0, c.y + m.y - ry0);
  const rw = rx1 - rx0,
    rh = ry1 - ry0;
  const refMask = new Uint8Array(rw * rh),
    gotMask = new Uint8Array(rw * rh);
  let both = 0,
    refInk = 0,
    gotInk = 0,
    greyError = 0;
  for (let y = ry0; y < ry1; y++) {
    for (let x = rx0; x < rx1; x++) {
      const i = (y - ry0) * rw + (x - rx0);
      const ref = grey[y * width + x]!;
      const ours = 255 - r.ink[i]!;
      const a = ref < 128 ? 1 : 0,
        b = ours < 128 ? 1 : 0;
      refMask[i] = a;
      gotMask[i] = b;
      refInk += a;
      gotInk += b;
      both += a & b;
      greyError += Math.abs(ref - ours);
    }
  }
  let refFound = refInk,
    gotFound = gotInk;
  if (refInk + gotInk - 2 * both) {
    const near = (mask: Uint8Array, x: number, y: number): boolean => {
      for (let v = Math.max(0, y - 1); v <= Math.min(rh - 1, y + 1); v++) {
        for (let u = Math.max(0, x - 1); u <= Math.min(rw - 1, x + 1); u++) if (mask[v * rw + u]) return true;
      }
      return false;
    };
    for (let y = 0; y < rh; y++) {
      for (let x = 0; x < rw; x++) {
        const i = y * rw + x;
        if (refMask[i] && !gotMask[i] && !near(gotMask, x, y)) refFound--;
        if (gotMask[i] && !refMask[i] && !near(refMask, x, y)) gotFound--;
      }
    }
  }
  const recall = refInk ? refFound / refInk : 1,
    precision = gotInk ? gotFound / gotInk : 1;
  const nearF1 = recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
  return {
    mismatched: refInk + gotInk - 2 * both,
    nearF1,
    both,
    greyError,
    strictF1: refInk + gotInk ? (2 * both) / (refInk + gotInk) : 1,
  };
}

/** Whether `a` fits better than `b`: fewer mismatched ink pixels, then a smaller grey error. */
export function better(a: Fit, b: Fit): boolean {
  return a.mismatched < b.mismatched || (a.mismatched === b.mismatched && a.greyError < b.greyError - 1e-9);
}
