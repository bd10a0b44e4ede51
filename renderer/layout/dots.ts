// Label size in dots, as the legacy service computes it: read by layout and by the render pool's lane choice, which
// must not load the renderer to make it.

import { dotsPerInch, type Dpmm } from '../api.js';

export { dotsPerInch };

/** Label size in dots: trunc(inches x dpi) per axis (4x6 at 8 dpmm = 812x1218). */
export function labelDots(inches: number, dpmm: Dpmm): number {
  return Math.floor(inches * dotsPerInch(dpmm) + 1e-9);
}
