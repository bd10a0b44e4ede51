// ^GE ellipses and ^GC circles: an anti-aliased ring between the outer ellipse and the one `thickness` inside it.

import type { FieldOf } from '../model.js';
import type { Drawer } from '../display/drawer.js';
import type { Canvas } from '../display/canvas.js';
import type { Contour, InkMode } from '../display/display-list.js';
import { ellipseContour, reversed } from './shape-paths.js';

export function ringContours(x: number, y: number, w: number, h: number, t: number): Contour[] {
  const outer = ellipseContour(x, y, w, h);
  if (2 * t >= w || 2 * t >= h) return [outer];
  return [outer, reversed(ellipseContour(x + t, y + t, w - 2 * t, h - 2 * t))];
}

function drawRing(canvas: Canvas, f: FieldOf<'GE' | 'GC'>, w: number, h: number, t: number, color: 'B' | 'W'): void {
  const y = f.origin === 'FT' ? f.y - h : f.y;
  const contours = ringContours(f.x, y, w, h, t);
  const mode: InkMode = f.reverse ? 'xor' : color === 'W' ? 'white' : 'black';
  canvas.path(contours, mode);
}

/** ^GEw,h,t,c (sizes in dots) */
export const drawEllipse: Drawer<'GE'> = (f, _env, canvas) => {
  const { width: w, height: h, thickness: t, color: c } = f.args;
  const thickness = Math.max(1, t); // a thickness under one dot (^MU fractions) still draws
  drawRing(canvas, f, Math.max(w ?? thickness, thickness), Math.max(h ?? thickness, thickness), thickness, c);
};

/** ^GCd,t,c (sizes in dots) */
export const drawCircle: Drawer<'GC'> = (f, _env, canvas) => {
  const { diameter: d, thickness: t, color: c } = f.args;
  const thickness = Math.max(1, t); // a thickness under one dot (^MU fractions) still draws
  const diameter = Math.max(d, thickness);
  drawRing(canvas, f, diameter, diameter, thickness, c);
};
