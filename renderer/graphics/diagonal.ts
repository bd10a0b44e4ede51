// ^GD diagonal lines: a parallelogram `thickness` dots wide along the top and bottom edges of its box.

import type { Field } from '../model.js';
import type { DrawEnv, LabelElement } from '../display/drawer.js';
import type { InkMode } from '../display/display-list.js';

/** `R` leans right (`/`, bottom-left to top-right), `L` leans left (`\`). */
export function diagonalContour(x: number, y: number, w: number, h: number, t: number, lean: 'L' | 'R'): number[] {
  return lean === 'L'
    ? [x, y, x + t, y, x + t + w, y + h, x + w, y + h]
    : [x, y + h, x + w, y, x + w + t, y, x + t, y + h];
}

/** ^GD parameters, named as in its parameter table (sizes already in dots). */
interface DiagonalArgs { width?: number; height?: number; thickness?: number; color?: string; orientation?: string }

/** ^GDw,h,t,c,o */
export function renderDiagonal(f: Field, _env: DrawEnv): LabelElement[] {
  const { width: w, height: h, thickness: t, color: c, orientation: o } = f.args as DiagonalArgs;
  const thickness = Math.max(1, t ?? 1); // a thickness under one dot (^MU fractions) still draws
  const width = w ?? thickness;
  const height = h ?? thickness;
  const y = f.origin === 'FT' ? f.y - height : f.y;
  const mode: InkMode = f.reverse ? 'xor' : c === 'W' ? 'white' : 'black';
  const contour = diagonalContour(f.x, y, width, height, thickness, o === 'L' || o === '\\' ? 'L' : 'R');
  return [{ draw: (r) => r.path([contour], mode) }];
}
