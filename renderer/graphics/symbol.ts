// ^GS graphic symbols: A (R), B (C), C (TM), D (UL), E (CSA). Each symbol is an outline drawn on a
// 72-unit design grid (measured from the reference renderings at 72 dots) and scaled to ^GS height/width.

import type { DrawEnv, Field, LabelElement, Orientation } from '../model.js';
import { fillPath, type Contour } from '../raster/fill-path.js';
import type { InkMode } from '../raster/raster.js';
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

/** A band between radii `r - t` and `r` from angle a0 to a1 (degrees, y down, increasing clockwise). */
function arcBand(cx: number, cy: number, r: number, t: number, a0: number, a1: number): number[] {
  const pts: number[] = [];
  const steps = Math.max(4, Math.ceil((Math.abs(a1 - a0) / 360) * ARC_STEPS));
  for (let i = 0; i <= steps; i++) {
    const a = ((a0 + ((a1 - a0) * i) / steps) * Math.PI) / 180;
    pts.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  for (let i = steps; i >= 0; i--) {
    const a = ((a0 + ((a1 - a0) * i) / steps) * Math.PI) / 180;
    pts.push(cx + (r - t) * Math.cos(a), cy + (r - t) * Math.sin(a));
  }
  // Keep every band clockwise so overlapping parts add up under the non-zero rule.
  return a1 >= a0 ? pts : Array.from(reversed(pts));
}

/** The five symbols, by the field data letter. */
const SYMBOLS: Record<string, Shape> = {
  // (R): ring with a capital R.
  A: [
    ...ring(22.5, 22.5, 22.5, 4.6),
    rect(12, 9, 17.5, 35), rect(12, 9, 25, 13.5), rect(12, 20.5, 25, 25),
    arcBand(24.5, 17, 8, 4.5, -90, 90),
    [21, 24, 27, 24, 34, 35, 28, 35],
  ],
  // (C): ring with a capital C.
  B: [
    ...ring(22.5, 22.5, 22.5, 4.6),
    arcBand(22.5, 22.5, 13.5, 5, 45, 315),
  ],
  // TM
  C: [
    rect(0, 0, 22, 5), rect(8, 5, 14, 30),
    [26, 0, 35.5, 0, 41.75, 11, 48, 0, 57, 0, 57, 30, 51, 30, 51, 6, 41.75, 21.5, 32, 6, 32, 30, 26, 30],
  ],
  // UL in a circle, with a small registered mark.
  D: [
    ...ring(36, 36, 36, 5.5),
    rect(15, 14, 22, 39.5), rect(30, 14, 37, 39.5), arcBand(26, 39.5, 11, 7, 0, 180),
    rect(40, 21, 47, 55), rect(40, 49, 57, 55),
    ...ring(26.5, 57.5, 4.5, 1.2),
  ],
  // CSA: a thick C open on the right, an S and a block A with a small registered mark.
  E: [
    arcBand(36, 36, 36, 10, 40, 320),
    arcBand(24, 24, 10.5, 6.5, -270, -20),
    arcBand(24, 44.5, 10.5, 6.5, -90, 160),
    [39, 13, 45, 13, 57, 25, 57, 53, 51, 53, 51, 40, 46, 40, 46, 57, 39, 57],
    Array.from(reversed(rect(46, 27, 51, 32))),
    ...ring(65.5, 52, 5, 1.2),
  ],
};

/** A space advances 78 units; the symbols themselves do not advance (as the references draw `    EEEE`). */
const SPACE_ADVANCE = 78;

/** Maps design units of a symbol cell to label dots for an orientation. */
function transform(x: number, y: number, sx: number, sy: number, o: Orientation): (u: number, v: number) => [number, number] {
  const w = DESIGN * sx, h = DESIGN * sy;
  switch (o) {
    case 'R': return (u, v) => [x + h - v * sy, y + u * sx];
    case 'I': return (u, v) => [x + w - u * sx, y + h - v * sy];
    case 'B': return (u, v) => [x + v * sy, y + w - u * sx];
    default: return (u, v) => [x + u * sx, y + v * sy];
  }
}

/** ^GSo,h,w with the symbol letters as field data. */
export function renderSymbol(f: Field, _env: DrawEnv): LabelElement[] {
  const [o, h, w] = f.params as [Orientation | undefined, number | undefined, number | undefined];
  const height = h ?? f.font.height;
  const width = w ?? (f.font.width || height);
  const sx = width / DESIGN, sy = height / DESIGN;
  const orientation = o ?? f.defaultOrientation;
  const mode: InkMode = f.reverse ? 'xor' : 'black';
  const contours: Contour[] = [];
  let advance = 0;
  // ^FT gives the bottom-left of the symbol cell.
  const top = f.origin === 'FT' ? f.y - height : f.y;
  for (const byte of f.data ?? []) {
    const ch = String.fromCharCode(byte).toUpperCase();
    if (ch === ' ') { advance += SPACE_ADVANCE; continue; }
    const shape = SYMBOLS[ch];
    if (!shape) continue;
    const map = orientation === 'N' ? transform(f.x + advance * sx, top, sx, sy, 'N')
      : orientation === 'I' ? transform(f.x - advance * sx, top, sx, sy, 'I')
        : orientation === 'R' ? transform(f.x, top + advance * sx, sx, sy, 'R')
          : transform(f.x, top - advance * sx, sx, sy, 'B');
    for (const c of shape) {
      const out: number[] = [];
      for (let i = 0; i < c.length; i += 2) out.push(...map(c[i], c[i + 1]));
      contours.push(out);
    }
  }
  if (!contours.length) return [];
  return [{ draw: (r) => fillPath(r, contours, mode) }];
}
