// How a painted raster's rows make the label. ^PM Y mirrors each row and ^PO I turns the whole label 180 degrees
// after drawing; rather than a pass over the raster for each, an encoder that can reads the rows in that order.

import type { Raster } from './raster.js';

export interface RowOrder {
  /** Each row right to left. */
  readonly flipX: boolean;
  /** The rows bottom to top. */
  readonly flipY: boolean;
}

export const UPRIGHT: RowOrder = { flipX: false, flipY: false };

/** ^PM Y mirrors; ^PO I, applied after it, turns 180 degrees (a mirror in both directions). */
export function rowOrder(mirror: boolean, invert: boolean): RowOrder {
  return mirror === invert ? (invert ? { flipX: false, flipY: true } : UPRIGHT) : { flipX: true, flipY: invert };
}

/** Turns the raster in place so its rows read upright (for consumers that cannot read in another order). */
export function settle(r: Raster, order: RowOrder): Raster {
  const { width, height, ink } = r;
  if (order.flipX && order.flipY) ink.reverse();
  else if (order.flipX) for (let y = 0; y < height; y++) ink.subarray(y * width, (y + 1) * width).reverse();
  else if (order.flipY) {
    const row = new Uint8Array(width);
    for (let top = 0, bottom = height - 1; top < bottom; top++, bottom--) {
      row.set(ink.subarray(top * width, (top + 1) * width));
      ink.copyWithin(top * width, bottom * width, (bottom + 1) * width);
      ink.set(row, bottom * width);
    }
  }
  const painted = r.painted;
  if (painted && order.flipX) {
    for (let i = 0; i < painted.length; i += 2) {
      const first = painted[i];
      painted[i] = width - painted[i + 1];
      painted[i + 1] = width - first;
    }
  }
  if (painted && order.flipY) {
    for (let top = 0, bottom = painted.length - 2; top < bottom; top += 2, bottom -= 2) {
      const first = painted[top],
        end = painted[top + 1];
      painted[top] = painted[bottom];
      painted[top + 1] = painted[bottom + 1];
      painted[bottom] = first;
      painted[bottom + 1] = end;
    }
  }
  return r;
}
