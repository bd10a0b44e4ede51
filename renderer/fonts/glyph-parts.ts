// Glyphs made of separate parts (the rings and slash of %, the halves of ½, the marks of „): where the
// legacy font places its parts differently from our outline, each part is stretched into its own box
// measured from the reference (font0-metrics `parts`) instead of stretching the glyph as one piece.

import { extentOf } from '../display/display-list.js';
import { joinOutlines, nonEmpty, placeContours, verticalFit, type PlacedOutline } from './place.js';
import type { OutlineGlyph } from '../decode/outline-font.js';

/** [inkLeft, inkRight, inkTop, inkBottom] of one part in units of the font height; y up from the baseline. */
export type PartBox = readonly [number, number, number, number];

/** Even-odd point-in-polygon test. */
function inside(x: number, y: number, c: readonly number[]): boolean {
  let hit = false;
  for (let i = 0, j = c.length - 2; i < c.length; j = i, i += 2) {
    const yi = c[i + 1],
      yj = c[j + 1];
    if (yi > y !== yj > y && x < ((c[j] - c[i]) * (y - yi)) / (yj - yi) + c[i]) hit = !hit;
  }
  return hit;
}

/** A glyph's separate parts: each outer contour with the holes inside it, in contour order. */
export function glyphParts(g: OutlineGlyph): number[][][] {
  const ext = g.contours.map((c) => extentOf([c]));
  const holeOf = g.contours.map((c, i) =>
    g.contours.findIndex(
      (o, j) =>
        j !== i &&
        ext[i].minX >= ext[j].minX &&
        ext[i].maxX <= ext[j].maxX &&
        ext[i].minY >= ext[j].minY &&
        ext[i].maxY <= ext[j].maxY &&
        inside(c[0], c[1], o),
    ),
  );
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
export function matchParts(
  parts: readonly (readonly number[][])[],
  g: OutlineGlyph,
  glyphBox: PartBox,
  boxes: readonly PartBox[],
): PartBox[] | null {
  if (parts.length !== boxes.length || parts.length < 2) return null;
  const [left, right, top, bottom] = glyphBox;
  const u = (x: number) => left + ((x - g.minX) / Math.max(1, g.maxX - g.minX)) * (right - left);
  const v = (y: number) => bottom + ((y - g.minY) / Math.max(1, g.maxY - g.minY)) * (top - bottom);
  const pairs: { d: number; p: number; b: number }[] = [];
  parts.forEach((part, p) => {
    const e = extentOf(part);
    const cx = u((e.minX + e.maxX) / 2),
      cy = v((e.minY + e.maxY) / 2);
    boxes.forEach(
      (b, i) => void pairs.push({ p, b: i, d: Math.hypot(cx - (b[0] + b[1]) / 2, cy - (b[2] + b[3]) / 2) }),
    );
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

/**
 * Each part stretched into its matched box (units of the height `h`, width stretch `sx`), as one outline in dots;
 * `anchored` parts hung from the baseline as fitGlyph hangs them.
 */
export function fitParts(
  g: OutlineGlyph,
  glyphBox: PartBox,
  boxes: readonly PartBox[],
  h: number,
  sx: number,
  anchored = false,
): PlacedOutline | null {
  const parts = glyphParts(g);
  const matched = matchParts(parts, g, glyphBox, boxes);
  if (!matched) return null;
  return nonEmpty(
    joinOutlines(
      parts.map((part, i) => {
        const e = extentOf(part);
        const [left, right, top, bottom] = matched[i];
        const gx = Math.max(0, (right - left) * h * sx) / Math.max(1, e.maxX - e.minX);
        return placeContours(
          g,
          part,
          gx,
          verticalFit(e.minY, e.maxY, bottom * h, top * h, anchored),
          left * h * sx - e.minX * gx,
        );
      }),
    ),
  );
}
