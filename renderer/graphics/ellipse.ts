// ^GE ellipses and ^GC circles: an anti-aliased ring between the outer ellipse and the one `thickness` inside it.

import type { Field } from '../model.js';
import type { DrawEnv, LabelElement } from '../display/drawer.js';
import type { Contour, InkMode } from '../display/display-list.js';
import { ellipseContour, reversed } from './shape-paths.js';

export function ringContours(x: number, y: number, w: number, h: number, t: number): Contour[] {
  const outer = ellipseContour(x, y, w, h);
  if (2 * t >= w || 2 * t >= h) return [outer];
  return [outer, reversed(ellipseContour(x + t, y + t, w - 2 * t, h - 2 * t))];
}

function inkMode(f: Field, color: unknown): InkMode {
  return f.reverse ? 'xor' : color === 'W' ? 'white' : 'black';
}

function drawRing(f: Field, w: number, h: number, t: number, color: unknown): LabelElement[] {
  const y = f.origin === 'FT' ? f.y - h : f.y;
  const contours = ringContours(f.x, y, w, h, t);
  const mode = inkMode(f, color);
  return [{ draw: (r) => r.path(contours, mode) }];
}

/** ^GE and ^GC parameters, named as in their parameter tables (sizes already in dots). */
interface EllipseArgs { width?: number; height?: number; thickness?: number; color?: string }
interface CircleArgs { diameter?: number; thickness?: number; color?: string }

/** ^GEw,h,t,c */
export function renderEllipse(f: Field, _env: DrawEnv): LabelElement[] {
  const { width: w, height: h, thickness: t, color: c } = f.args as EllipseArgs;
  const thickness = Math.max(1, t ?? 1); // a thickness under one dot (^MU fractions) still draws
  return drawRing(f, Math.max(w ?? thickness, thickness), Math.max(h ?? thickness, thickness), thickness, c);
}

/** ^GCd,t,c */
export function renderCircle(f: Field, _env: DrawEnv): LabelElement[] {
  const { diameter: d, thickness: t, color: c } = f.args as CircleArgs;
  const thickness = Math.max(1, t ?? 1); // a thickness under one dot (^MU fractions) still draws
  const diameter = Math.max(d ?? thickness, thickness);
  return drawRing(f, diameter, diameter, thickness, c);
}
