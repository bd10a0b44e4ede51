// One line of text: pen positions along the line, and drawing it in any orientation.

import type { Orientation } from '../model.js';
import type { Canvas } from '../display/canvas.js';
import type { Contour, Extent, InkMode, PathData, PlacedGlyph } from '../display/display-list.js';
import type { Face } from '../fonts/face.js';

/** Code points of `text` after the font's own substitutions. */
export function codePoints(text: string, face: Face): number[] {
  // Indexed into an array of the text's length, not `for...of` and push: a 60 KB field is laid out 3-4 times faster.
  const map = face.mapChar;
  const n = text.length;
  const out = new Array<number>(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    out[k++] = map ? map(cp) : cp;
  }
  if (k < n) out.length = k; // pairs of surrogates made one code point each
  return out;
}

/** Advance of a run of code points in dots (inter-character gap `gap` after every character), to the nearest dot. */
export function runWidth(face: Face, cps: readonly number[], gap = 0): number {
  return Math.round(runAdvance(face, cps, gap));
}

/** The same advance unrounded: font 0's advances are fractions of a dot. */
export function runAdvance(face: Face, cps: readonly number[], gap = 0): number {
  let w = 0;
  for (const cp of cps) w += face.advance(cp) + gap;
  return w;
}

/**
 * Maps the text frame (u along the line, v down the cell, both in dots, N orientation) to label dots:
 * label = anchor + rotation(u, v).
 */
export interface Frame {
  ax: number;
  ay: number;
  orientation: Orientation;
}

export function toLabel(f: Frame, u: number, v: number): [number, number] {
  switch (f.orientation) {
    case 'R':
      return [f.ax - v, f.ay + u];
    case 'I':
      return [f.ax - u, f.ay - v];
    case 'B':
      return [f.ax + v, f.ay - u];
    default:
      return [f.ax + u, f.ay + v];
  }
}

/**
 * Frame whose (0, 0) is the top-left corner of a w x h box (in text frame terms) placed at (x, y).
 * The legacy renderer turns I and B lines about a point one dot short of the line's length.
 */
export function boxFrame(x: number, y: number, w: number, h: number, o: Orientation): Frame {
  switch (o) {
    case 'R':
      return { ax: x + h, ay: y, orientation: o };
    case 'I':
      return { ax: x + w - 1, ay: y + h, orientation: o };
    case 'B':
      return { ax: x, ay: y + w - 1, orientation: o };
    default:
      return { ax: x, ay: y, orientation: o };
  }
}

/** Frame whose point (0, v) lands on (x, y): ^FT places the baseline start there. */
export function pointFrame(x: number, y: number, v: number, o: Orientation): Frame {
  const [dx, dy] = toLabel({ ax: 0, ay: 0, orientation: o }, 0, v);
  return { ax: x - dx, ay: y - dy, orientation: o };
}

export interface RunStyle {
  mode: InkMode;
  /** Pure black/white glyphs (reverse-printed fields). */
  crisp: boolean;
  /** Extra dots after every character (^FP gap). */
  gap: number;
  /** ^FP V: characters stacked down the cell instead of along the line. */
  vertical?: boolean;
  /** ^FP R: characters right to left. */
  reverse?: boolean;
}

/** Lays out `text` as one glyph run with the pen starting at frame point (u, v) on the baseline. */
export function drawRun(
  c: Canvas,
  face: Face,
  text: string,
  frame: Frame,
  u: number,
  v: number,
  style: RunStyle,
): void {
  const cps = codePoints(text, face);
  const glyphs: PlacedGlyph[] = [];
  const outlines: Record<string, Contour[]> = {};
  const curves: Record<string, PathData[]> = {};
  const vector = c.output === 'vector';
  /** Each glyph (code point) met so far: its outline's extent, null when it has no outline. */
  const extents = new Map<number, Extent | null>();
  let pen = 0;
  const total = style.reverse ? runWidth(face, cps, style.gap) : 0;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    const adv = face.advance(cp) + style.gap;
    // Pens on whole dots, every font: the legacy renderer draws every copy of a glyph alike.
    let pu: number, pv: number;
    if (style.vertical) {
      pu = u;
      pv = v + i * (face.height + style.gap);
    } else if (style.reverse) {
      pu = u + Math.round(total - pen - adv);
      pv = v;
    } else {
      pu = u + Math.round(pen);
      pv = v;
    }
    pen += adv;
    const [px, py] = toLabel(frame, pu, pv);
    // Glyphs wholly off the label are not laid out (huge fonts, far-away fields).
    const reach = 2 * face.height + adv;
    if (px < -reach || py < -reach || px > c.width + reach || py > c.height + reach) continue;
    // Each glyph's outline once per run, found by code point: no key string per glyph.
    const known = extents.get(cp);
    if (known === undefined) {
      const outline = face.outline(cp);
      extents.set(cp, outline);
      if (!outline) continue;
      outlines[cp] = outline.polygons;
      if (vector) curves[cp] = outline.curves;
    } else if (known === null) continue;
    glyphs.push({ cp, x: Math.round(px), y: Math.round(py) });
  }
  const kept = vector ? { curves } : {};
  c.glyphRun(
    { text, font: face.key, orientation: frame.orientation, crisp: style.crisp, glyphs, outlines, ...kept },
    style.mode,
    extents,
  );
}
