// A finished label as 1-bit rows (1 = black, MSB first), thresholded exactly as the bitonal PNG: what every
// printer-language encoder reads, so a print job holds the same dots as `X-Quality: Bitonal`.

import type { Dpmm } from '../../api.js';
import type { Raster } from '../../raster/raster.js';
import { packBitonalRow } from '../png-rows.js';

export interface LabelDots {
  width: number;
  height: number;
  /** Bytes per row: ceil(width / 8). Padding bits past `width` are 0 (white). */
  stride: number;
  /** `height` rows of `stride` bytes; bit 7 of a row's first byte is its leftmost dot; 1 prints. */
  bits: Uint8Array;
}

/** What a job's set-up commands describe: the printed label's size (turned with it) and density. */
export interface PrintJobSetup {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
}

/** Labels in print order, each consumed before the next is asked for (drawn as asked: a sliced render pauses between). */
export type PrintJobEncoder = (
  labels: AsyncIterable<LabelDots> | Iterable<LabelDots>,
  setup: PrintJobSetup,
) => Promise<Uint8Array>;

/** The label's dots, 1 = black: the bitonal PNG's threshold (packBitonalRow, 1 = white) inverted. */
export function bitonalDots(r: Raster): LabelDots {
  const { width, height } = r;
  const stride = (width + 7) >> 3;
  const bits = new Uint8Array(stride * height);
  const tail = width & 7 ? (0xff00 >> (width & 7)) & 0xff : 0xff;
  for (let y = 0; y < height; y++) {
    const row = bits.subarray(y * stride, (y + 1) * stride);
    packBitonalRow(r.ink, y * width, width, row);
    for (let i = 0; i < stride; i++) row[i] ^= 0xff;
    row[stride - 1] &= tail;
  }
  return { width, height, stride, bits };
}

/** True when row y has no black dot. */
export function blankRow(l: LabelDots, y: number): boolean {
  const { bits, stride } = l;
  for (let i = y * stride, end = i + stride; i < end; i++) if (bits[i] !== 0) return false;
  return true;
}

/** The first and one past the last row with ink ([0, 0) for a blank label). */
export function inkedRows(l: LabelDots): { top: number; bottom: number } {
  let top = 0;
  while (top < l.height && blankRow(l, top)) top++;
  if (top === l.height) return { top: 0, bottom: 0 };
  let bottom = l.height;
  while (blankRow(l, bottom - 1)) bottom--;
  return { top, bottom };
}
