// Glyphs made of separate parts (the rings and slash of %, the halves of ½, the marks of „): where the
// legacy font places its parts differently from our outline, each part is stretched into its own box
// measured from the reference (font0-metrics `parts`) instead of stretching the glyph as one piece.

import type { GlyphMask } from '../text/glyph-mask.js';
import { coverageMask } from '../raster/fill-path.js';
import type { OutlineGlyph } from './outline-font.js';

/** [inkLeft, inkRight, inkTop, inkBottom] of one part in units of the font height; y up from the baseline. */
export type PartBox = readonly [number, number, number, number];

interface Extent { minX: number; maxX: number; minY: number; maxY: number }

function extentOf(cs: readonly (readonly number[])[]): Extent {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const c of cs) {
    for (let i = 0; i < c.length; i += 2) {
      minX = Math.min(minX, c[i]); maxX = Math.max(maxX, c[i]); minY = Math.min(minY, c[i + 1]); maxY = Math.max(maxY, c[i + 1]);
    }
  }
  return { minX, maxX, minY, maxY };
}

/** Even-odd point-in-polygon test. */
function inside(x: number, y: number, c: readonly number[]): boolean {
  let hit = false;
  for (let i = 0, j = c.length - 2; i < c.length; j = i, i += 2) {
    const yi = c[i + 1], yj = c[j + 1];
    if ((yi > y) !== (yj > y) && x < ((c[j] - c[i]) * (y - yi)) / (yj - yi) + c[i]) hit = !hit;
  }
  return hit;
}

/** A glyph's separate parts: each outer contour with the holes inside it, in contour order. */
export function glyphParts(g: OutlineGlyph): number[][][] {
  const ext = g.contours.map((c) => extentOf([c]));
  const holeOf = g.contours.map((c, i) => g.contours.findIndex((o, j) => j !== i
    && ext[i].minX >= ext[j].minX && ext[i].maxX <= ext[j].maxX && ext[i].minY >= ext[j].minY && ext[i].maxY <= ext[j].maxY
    && inside(c[0], c[1], o)));
  const parts = new Map<number, number[][]>();
  g.contours.forEach((c, i) => {
    let root = i;
    for (let k = 0; k < 4 && holeOf[root] >= 0; k++) root = holeOf[root];
    const list = parts.get(root) ?? [];
    list.push(c);
    parts.set(root, list);
  });
  return [...parts.values()];
}

/**
 * Pairs each outline part with a measured box: the part's centre where a single stretch into the glyph box
 * would put it, matched to the nearest box centre (closest pairs first). Null unless the counts agree.
 */
export function matchParts(parts: readonly (readonly number[][])[], g: OutlineGlyph, glyphBox: PartBox, boxes: readonly PartBox[]): PartBox[] | null {
  if (parts.length !== boxes.length || parts.length < 2) return null;
  const [left, right, top, bottom] = glyphBox;
  const u = (x: number) => left + ((x - g.minX) / Math.max(1, g.maxX - g.minX)) * (right - left);
  const v = (y: number) => bottom + ((y - g.minY) / Math.max(1, g.maxY - g.minY)) * (top - bottom);
  const pairs: { d: number; p: number; b: number }[] = [];
  parts.forEach((part, p) => {
    const e = extentOf(part);
    const cx = u((e.minX + e.maxX) / 2), cy = v((e.minY + e.maxY) / 2);
    boxes.forEach((b, i) => pairs.push({ p, b: i, d: Math.hypot(cx - (b[0] + b[1]) / 2, cy - (b[2] + b[3]) / 2) }));
  });
  pairs.sort((a, b) => a.d - b.d || a.p - b.p || a.b - b.b);
  const out: (PartBox | undefined)[] = new Array(parts.length);
  const used = new Set<number>();
  for (const { p, b } of pairs) {
    if (out[p] || used.has(b)) continue;
    out[p] = boxes[b];
    used.add(b);
  }
  return out as PartBox[];
}

/** Each part stretched into its matched box (units of the height `h`, width stretch `sx`), as one mask. */
export function fitParts(g: OutlineGlyph, glyphBox: PartBox, boxes: readonly PartBox[], h: number, sx: number, shift = 0, widen = 0): GlyphMask | null {
  const parts = glyphParts(g);
  const matched = matchParts(parts, g, glyphBox, boxes);
  if (!matched) return null;
  const placed: Float64Array[] = [];
  parts.forEach((part, i) => {
    const e = extentOf(part);
    const [left, right, top, bottom] = matched[i];
    const gx = Math.max(0, (right - left) * h * sx - widen) / Math.max(1, e.maxX - e.minX);
    const gy = ((top - bottom) * h) / Math.max(1, e.maxY - e.minY);
    const ox = shift + left * h * sx + widen / 2 - e.minX * gx, oy = -(bottom * h - e.minY * gy);
    for (const c of part) {
      const out = new Float64Array(c.length);
      for (let k = 0; k < c.length; k += 2) { out[k] = ox + c[k] * gx; out[k + 1] = oy - c[k + 1] * gy; }
      placed.push(out);
    }
  });
  const m = coverageMask(placed, undefined, widen);
  return m ? { x: m.x, y: m.y, w: m.w, h: m.h, cov: m.cov } : null;
}
