// ^GB graphic box: a border of the given thickness, or a solid block when thickness fills it.

import type { FieldOf } from '../model.js';
import type { Drawer } from '../display/drawer.js';
import type { Canvas } from '../display/canvas.js';
import type { Contour, InkMode } from '../display/display-list.js';
import { reversed, roundedRectContour } from './shape-paths.js';

export interface BoxSpec {
  x: number;
  y: number;
  width: number;
  height: number;
  thickness: number;
  mode: InkMode;
  /** ^GB corner rounding 0..8: the corner radius is rounding/8 of half the shorter side. */
  rounding: number;
}

/** Box geometry from the field's arguments (sizes in dots; the ^GB table keeps width and height at least the thickness). */
export function boxFromField(f: FieldOf<'GB'>): BoxSpec {
  const { width: w, height: h, thickness, color, rounding } = f.args;
  const width = w ?? thickness;
  const height = h ?? thickness;
  const mode: InkMode = f.reverse ? 'xor' : color === 'W' ? 'white' : 'black';
  const y = f.origin === 'FT' ? f.y - height : f.y;
  return { x: f.x, y, width, height, thickness, mode, rounding };
}

/** Outline of a rounded box: the outer rounded rectangle minus the inner one (anti-aliased like the printer's). */
export function roundedBoxContours(b: BoxSpec): Contour[] {
  const t = b.thickness;
  const outer = roundedRectContour(b.x, b.y, b.width, b.height, (b.rounding * Math.min(b.width, b.height)) / 16);
  const iw = b.width - 2 * t,
    ih = b.height - 2 * t;
  if (iw <= 0 || ih <= 0) return [outer];
  return [outer, reversed(roundedRectContour(b.x + t, b.y + t, iw, ih, (b.rounding * Math.min(iw, ih)) / 16))];
}

export function drawBox(r: Canvas, b: BoxSpec): void {
  const t = b.thickness;
  if (b.rounding > 0) {
    r.path(roundedBoxContours(b), b.mode);
    return;
  }
  if (t * 2 >= b.width || t * 2 >= b.height) {
    r.rect(b.x, b.y, b.width, b.height, b.mode);
    return;
  }
  r.rect(b.x, b.y, b.width, t, b.mode);
  r.rect(b.x, b.y + b.height - t, b.width, t, b.mode);
  r.rect(b.x, b.y + t, t, b.height - 2 * t, b.mode);
  r.rect(b.x + b.width - t, b.y + t, t, b.height - 2 * t, b.mode);
}

export const drawBoxField: Drawer<'GB'> = (f, env, canvas) => {
  const spec = boxFromField(f);
  // Legacy rule (one observation, issue 21): a ^FT without coordinates after a ^GB continues at the box's far
  // corner, x + width and y + height.
  env.state.endAt(spec.x + spec.width, spec.y + spec.height);
  drawBox(canvas, spec);
};
