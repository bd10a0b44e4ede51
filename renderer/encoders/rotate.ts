// Clockwise rotation of a finished label (X-Rotation, PNG only).

import { Raster } from '../raster/raster.js';

export function rotateClockwise(src: Raster, degrees: 0 | 90 | 180 | 270): Raster {
  if (degrees === 0) return src;
  const { width: w, height: h, ink } = src;
  if (degrees === 180) {
    const out = new Raster(w, h);
    out.ink.set(ink);
    out.ink.reverse();
    return out;
  }
  const out = new Raster(h, w);
  const o = out.ink;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // 90 clockwise: (x, y) -> (h-1-y, x); 270: (x, y) -> (y, w-1-x)
      const v = ink[y * w + x];
      if (v === 0) continue;
      if (degrees === 90) o[x * h + (h - 1 - y)] = v;
      else o[(w - 1 - x) * h + y] = v;
    }
  }
  return out;
}
