// ^GS graphic symbols: A (R), B (C), C (TM), D (UL), E (CSA). Each symbol is an outline drawn on a
// 72-unit design grid (measured from the reference renderings at 72 dots) and scaled to ^GS height/width.

import type { Orientation } from '../model.js';
import type { Drawer } from '../display/drawer.js';
import type { Contour, InkMode } from '../display/display-list.js';
import { ellipseContour, reversed } from './shape-paths.js';

type Shape = number[][]; // contours in design units

const DESIGN = 72;
const ARC_STEPS = 48;

function rect(x0: number, y0: number, x1: number, y1: number): number[] {
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

function circle(cx: number, cy: number, r: number): number[] {
  return Array.from(ellipseContour(cx - r, cy - r, 2 * r, 2 * r));
}

function ring(cx: number, cy: number, r: number, t: number): Shape {
  return [circle(cx, cy, r), Array.from(reversed(circle(cx, cy, r - t)))];
}

/**
 * A band between an outer ellipse (radii rx, ry) and the one `tx`/`ty` inside it, from angle a0 to a1
 * (degrees, y down, increasing clockwise). Equal radii and thicknesses make a circular arc.
 */
function arcBand(cx: number, cy: number, r: number, t: number, a0: number, a1: number, ry = r, ty = t): number[] {
  const pts: number[] = [];
  const steps = Math.max(4, Math.ceil((Math.abs(a1 - a0) / 360) * ARC_STEPS));
  for (let i = 0; i <= steps; i++) {
    const a = ((a0 + ((a1 - a0) * i) / steps) * Math.PI) / 180;
    pts.push(cx + r * Math.cos(a), cy + ry * Math.sin(a));
  }
  for (let i = steps; i >= 0; i--) {
    const a = ((a0 + ((a1 - a0) * i) / steps) * Math.PI) / 180;
    pts.push(cx + (r - t) * Math.cos(a), cy + (ry - ty) * Math.sin(a));
  }
  // Keep every band clockwise so overlapping parts add up under the non-zero rule.
  return a1 >= a0 ? pts : Array.from(reversed(pts));
}

/** The five symbols, by the field data letter. */
const SYMBOLS: Record<string, Shape> = {
  // (R): ring with a capital R.
  A: [
    ...ring(22.4, 22.2, 22.2, 3.6),
    rect(13, 9.7, 17.7, 34.9),
    rect(13, 9.7, 23.7, 13.2),
    rect(13, 21.2, 23.7, 24.9),
    arcBand(23.7, 17.3, 7.6, 3.8, -90, 90),
    [23.2, 24.9, 28.6, 24.9, 34.7, 34.9, 29.3, 34.9],
  ],
  // (C): ring with a capital C, its sides heavier than its top and bottom.
  B: [...ring(22.4, 22.2, 22.2, 3.6), arcBand(22.3, 22.85, 13.4, 4.9, 58, 302, 13.4, 3.7)],
  // TM
  C: [
    rect(0, 0, 22, 5),
    rect(8, 5, 14, 30),
    [26, 0, 35.5, 0, 41.75, 11, 48, 0, 57, 0, 57, 30, 51, 30, 51, 6, 41.75, 21.5, 32, 6, 32, 30, 26, 30],
  ],
  // UL in a circle, with a small registered mark.
  D: [
    ...ring(36, 36, 36, 5.5),
    rect(15, 14, 22, 39.5),
    rect(30, 14, 37, 39.5),
    arcBand(26, 39.5, 11, 7, 0, 180),
    rect(40, 21, 47, 55),
    rect(40, 49, 57, 55),
    ...ring(26.5, 57.5, 4.5, 1.2),
  ],
  // CSA: a thick C open on the right, a slanted S and a block A, with a small registered mark.
  E: [
    arcBand(36, 36, 36, 10, 42, 318),
    [31, 13, 33.5, 13, 33.5, 27, 15, 27, 15.5, 24, 17, 22, 19, 20, 21, 18, 24.5, 16, 28, 14],
    [14, 27, 23.5, 27, 33.5, 38.5, 33.5, 40, 24.5, 40, 14, 29],
    [26, 40, 33.5, 40, 33.5, 58, 31, 58, 26, 56, 21, 53, 18, 50, 16, 47.5, 14, 41, 20.5, 41, 26, 48],
    [39, 13, 42.5, 13, 56, 24, 58.5, 30, 58.5, 58, 51, 58, 51, 40, 46, 40, 46, 58, 39, 58],
    [46.5, 24, 46, 31.5, 51, 31.5],
    ...ring(62, 49.5, 4.6, 1.1),
  ],
};

/** A space advances 78 units; the symbols themselves do not advance (as the references draw `    EEEE`). */
const SPACE_ADVANCE = 78;

/** The symbol font is a 24 x 24 dot bitmap font: it grows by whole magnifications only. */
const CELL = 24;

/** ^GS height and width in dots: each rounded to a whole multiple of the 24-dot cell; 0 takes the other's. */
export function symbolCell(height: number, width: number): { height: number; width: number } {
  const mag = (v: number) => Math.max(1, Math.round(v / CELL));
  if (!height && !width) return { height: CELL, width: CELL };
  const hm = height ? mag(height) : mag(width);
  const wm = width ? mag(width) : hm;
  return { height: hm * CELL, width: wm * CELL };
}

/** Maps design units of a symbol cell to label dots for an orientation. */
function transform(
  x: number,
  y: number,
  sx: number,
  sy: number,
  o: Orientation,
): (u: number, v: number) => [number, number] {
  const w = DESIGN * sx,
    h = DESIGN * sy;
  switch (o) {
    case 'R':
      return (u, v) => [x + h - v * sy, y + u * sx];
    case 'I':
      return (u, v) => [x + w - u * sx, y + h - v * sy];
    case 'B':
      return (u, v) => [x + v * sy, y + w - u * sx];
    default:
      return (u, v) => [x + u * sx, y + v * sy];
  }
}

/** Unit step along the writing direction of an orientation. */
const DIRECTION: Record<Orientation, [number, number]> = { N: [1, 0], R: [0, 1], I: [-1, 0], B: [0, -1] };

/**
 * ^GSo,h,w with the symbol letters as field data. Without a size the symbol takes the previous text
 * field's font size (the legacy renderer does; text_ft_auto_pos), else the ^CF default; ^FT without
 * coordinates continues where the previous field ended, and the next one continues after the symbol.
 */
export const drawSymbol: Drawer<'GS'> = (f, env, canvas) => {
  const { orientation: o, height: h, width: w } = f.args;
  const font = (h === undefined && w === undefined && env.state.lastTextFont()) || f.font;
  const cell = symbolCell(h ?? font.height, w ?? (h === undefined ? font.width : 0));
  const height = cell.height,
    width = cell.width;
  const sx = width / DESIGN,
    sy = height / DESIGN;
  const orientation = o ?? f.defaultOrientation;
  const mode: InkMode = f.reverse ? 'xor' : 'black';
  const contours: Contour[] = [];
  const start = env.state.startOf(f);
  let advance = 0,
    drawn = false;
  // ^FT gives the bottom-left of the symbol cell.
  const top = f.origin === 'FT' ? start.y - height : start.y;
  for (const byte of f.data ?? []) {
    const ch = String.fromCharCode(byte).toUpperCase();
    if (ch === ' ') {
      advance += SPACE_ADVANCE;
      continue;
    }
    const shape = SYMBOLS[ch];
    if (!shape) continue;
    drawn = true;
    const map =
      orientation === 'N'
        ? transform(start.x + advance * sx, top, sx, sy, 'N')
        : orientation === 'I'
          ? transform(start.x - advance * sx, top, sx, sy, 'I')
          : orientation === 'R'
            ? transform(start.x, top + advance * sx, sx, sy, 'R')
            : transform(start.x, top - advance * sx, sx, sy, 'B');
    for (const c of shape) {
      const out: number[] = [];
      for (let i = 0; i < c.length; i += 2) out.push(...map(c[i], c[i + 1]));
      contours.push(out);
    }
  }
  // The pen moves past the spaces and one cell for the (overprinted) symbols.
  const [dx, dy] = DIRECTION[orientation];
  const run = advance * sx + (drawn ? width : 0);
  env.state.endAt(Math.round(start.x + dx * run), Math.round(start.y + dy * run));
  if (contours.length) canvas.path(contours, mode);
};
