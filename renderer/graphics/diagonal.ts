// ^GD diagonal lines: a parallelogram `thickness` dots wide along the top and bottom edges of its box.

import type { Drawer } from '../display/drawer.js';
import type { InkMode } from '../display/display-list.js';

/** `R` leans right (`/`, bottom-left to top-right), `L` leans left (`\`). */
export function diagonalContour(x: number, y: number, w: number, h: number, t: number, lean: 'L' | 'R'): number[] {
  return lean === 'L'
    ? [x, y, x + t, y, x + t + w, y + h, x + w, y + h]
    : [x, y + h, x + w, y, x + w + t, y, x + t, y + h];
}

/** ^GDw,h,t,c,o (sizes in dots) */
export const drawDiagonal: Drawer<'GD'> = (f, _env, canvas) => {
  const { width: w, height: h, thickness: t, color: c, orientation: o } = f.args;
  const thickness = Math.max(1, t); // a thickness under one dot (^MU fractions) still draws
  const width = w ?? thickness;
  const height = h ?? thickness;
  const y = f.origin === 'FT' ? f.y - height : f.y;
  const mode: InkMode = f.reverse ? 'xor' : c === 'W' ? 'white' : 'black';
  const contour = diagonalContour(f.x, y, width, height, thickness, o === 'L' || o === '\\' ? 'L' : 'R');
  canvas.path([contour], mode);
};
