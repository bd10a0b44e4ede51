// ^GB graphic box: a border of the given thickness, or a solid block when thickness fills it.

import type { DrawEnv, Field, LabelElement } from '../model.js';
import type { InkMode, Raster } from '../raster/raster.js';

export interface BoxSpec {
  x: number;
  y: number;
  width: number;
  height: number;
  thickness: number;
  mode: InkMode;
}

/** Box geometry as the printer computes it: width and height never below the thickness. */
export function boxFromField(f: Field): BoxSpec {
  const [w, h, t, color] = f.params as [number | undefined, number | undefined, number, string];
  const thickness = t ?? 1;
  const width = Math.max(w ?? thickness, thickness);
  const height = Math.max(h ?? thickness, thickness);
  const mode: InkMode = f.reverse ? 'xor' : color === 'W' ? 'white' : 'black';
  const y = f.origin === 'FT' ? f.y - height : f.y;
  return { x: f.x, y, width, height, thickness, mode };
}

export function drawBox(r: Raster, b: BoxSpec): void {
  const t = b.thickness;
  if (t * 2 >= b.width || t * 2 >= b.height) {
    r.fillRect(b.x, b.y, b.width, b.height, b.mode);
    return;
  }
  r.fillRect(b.x, b.y, b.width, t, b.mode);
  r.fillRect(b.x, b.y + b.height - t, b.width, t, b.mode);
  r.fillRect(b.x, b.y + t, t, b.height - 2 * t, b.mode);
  r.fillRect(b.x + b.width - t, b.y + t, t, b.height - 2 * t, b.mode);
}

export function renderBox(f: Field, _env: DrawEnv): LabelElement[] {
  const spec = boxFromField(f);
  return [{ draw: (r) => drawBox(r, spec) }];
}
