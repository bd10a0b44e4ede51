// A label's PNG rows, Up-filtered, as one buffer for zlib: the 1-bit rows the raster PDF deflates, and the 8-bit rows
// the benchmark's zlib floor deflates (the PNG encoder itself filters as it compresses, png.ts).

import { constants } from 'node:zlib';
import type { Raster } from '../raster/raster.js';

/**
 * Ink at or above this level is black in 1-bit output (the legacy service thresholds at mid-grey).
 * packBitonalRow tests the ink's top bit, which is this comparison only for 128.
 */
export const BITONAL_THRESHOLD = 128;

/** PNG filter type "Up": each byte minus the byte above it. */
export const FILTER_UP = 2;

/**
 * With the Up filter a label is mostly runs of zeros (blank and repeated rows). Run-length deflate
 * packs them about a quarter larger than level 6 did unfiltered (carrier labels at 8 dpmm: 45 KB
 * against 36 KB) in a fifth of the time or less. The raster PDF's image uses it.
 */
export const DEFLATE_OPTIONS = { strategy: constants.Z_RLE } as const;

/** True when row y of the ink is the same as row y - 1 in columns [from, to) (one memcmp, no per-pixel work). */
export function sameAsRowAbove(ink: Buffer, width: number, y: number, from = 0, to = width): boolean {
  const start = y * width;
  return ink.compare(ink, start - width + from, start - width + to, start + from, start + to) === 0;
}

/** Filtered rows are rebuilt for every label; small ones reuse one buffer (encoding is synchronous). */
export const MAX_REUSED_ROWS_BYTES = 16 << 20;
let reusable = new Uint8Array(0);

/** A buffer for `size` bytes of filtered rows, valid until the next call; contents are garbage. */
function rowsBuffer(size: number): Uint8Array {
  if (size > MAX_REUSED_ROWS_BYTES) return new Uint8Array(size);
  if (reusable.length < size)
    reusable = new Uint8Array(Math.min(MAX_REUSED_ROWS_BYTES, Math.max(size, reusable.length * 2)));
  return reusable.subarray(0, size);
}

const HIGH_BITS = 0x80808080 | 0;
const LOW_BITS = 0x7f7f7f7f;

/**
 * 8-bit grey rows (255 - ink), Up-filtered; rows equal to the one above are zeros: the bytes the PNG's IDAT inflates
 * to, valid until the next call (the buffer is reused). The Up difference
 * (255 - ink) - (255 - inkAbove) = inkAbove - ink is taken four bytes at a time on aligned copies.
 */
export function greyRows(r: Raster): Uint8Array {
  const { width, height } = r;
  const ink = Buffer.from(r.ink.buffer, r.ink.byteOffset, r.ink.byteLength);
  const stride = width + 1;
  const out = rowsBuffer(stride * height);
  const words = (width + 3) >> 2;
  let above = new Int32Array(words);
  let cur = new Int32Array(words);
  const diff = new Int32Array(words);
  const diffBytes = new Uint8Array(diff.buffer, 0, width);
  const whole =
    width % 4 === 0 && r.ink.byteOffset % 4 === 0
      ? new Int32Array(r.ink.buffer, r.ink.byteOffset, (width * height) >> 2)
      : undefined;
  for (let y = 0; y < height; y++) {
    const o = y * stride;
    out[o] = FILTER_UP;
    const src = y * width;
    if (y === 0) {
      for (let x = 0; x < width; x++) out[1 + x] = 255 - ink[x];
      new Uint8Array(above.buffer).set(ink.subarray(0, width));
      continue;
    }
    if (sameAsRowAbove(ink, width, y)) {
      out.fill(0, o + 1, o + 1 + width);
      continue;
    }
    if (whole) {
      // Rows already 4-byte aligned (most label widths): the words are read in place, nothing copied.
      const a0 = (y - 1) * words,
        b0 = y * words;
      for (let i = 0; i < words; i++) {
        const a = whole[a0 + i],
          b = whole[b0 + i];
        diff[i] = (((a | HIGH_BITS) - (b & LOW_BITS)) | 0) ^ ((a ^ ~b) & HIGH_BITS);
      }
      out.set(diffBytes, o + 1);
      continue;
    }
    new Uint8Array(cur.buffer).set(ink.subarray(src, src + width));
    for (let i = 0; i < words; i++) {
      // bytewise (a - b) mod 256 without borrows crossing bytes
      const a = above[i],
        b = cur[i];
      diff[i] = (((a | HIGH_BITS) - (b & LOW_BITS)) | 0) ^ ((a ^ ~b) & HIGH_BITS);
    }
    out.set(diffBytes, o + 1);
    const t = above;
    above = cur;
    cur = t;
  }
  return out;
}

/**
 * 1-bit rows (1 = white, ink below BITONAL_THRESHOLD), each prefixed with the Up filter byte and
 * filtered: the same bytes serve the bitonal PNG and the PDF image (PNG predictor 12). The result is
 * only valid until the next call (the buffer is reused): deflate it right away.
 */
export function bitonalRows(r: Raster): Uint8Array {
  const { width, height } = r;
  const ink = Buffer.from(r.ink.buffer, r.ink.byteOffset, r.ink.byteLength);
  const bytes = (width + 7) >> 3;
  const stride = bytes + 1;
  const out = rowsBuffer(stride * height);
  let prev = new Uint8Array(bytes);
  let cur = new Uint8Array(bytes);
  for (let y = 0; y < height; y++) {
    const o = y * stride;
    out[o] = FILTER_UP;
    if (y > 0 && sameAsRowAbove(ink, width, y)) {
      // packed row equals the one above: zeros
      out.fill(0, o + 1, o + 1 + bytes);
      continue;
    }
    packBitonalRow(ink, y * width, width, cur);
    for (let i = 0; i < bytes; i++) out[o + 1 + i] = cur[i] - prev[i];
    const t = prev;
    prev = cur;
    cur = t;
  }
  return out;
}

/**
 * The bitonal threshold: packs one row of ink MSB first, 1 = white (ink < 128, i.e. its top bit clear); padding bits
 * 0. The bitonal PNG, the raster PDF and the printer-language jobs all see a dot as this decides.
 */
export function packBitonalRow(ink: Uint8Array, src: number, width: number, dst: Uint8Array): void {
  const whole = width >> 3;
  for (let i = 0; i < whole; i++) {
    const p = src + (i << 3);
    const black =
      (ink[p] & 0x80) |
      ((ink[p + 1] & 0x80) >> 1) |
      ((ink[p + 2] & 0x80) >> 2) |
      ((ink[p + 3] & 0x80) >> 3) |
      ((ink[p + 4] & 0x80) >> 4) |
      ((ink[p + 5] & 0x80) >> 5) |
      ((ink[p + 6] & 0x80) >> 6) |
      (ink[p + 7] >> 7);
    dst[i] = black ^ 0xff;
  }
  if (whole < dst.length) {
    let v = 0;
    for (let x = whole << 3; x < width; x++) if (ink[src + x] < BITONAL_THRESHOLD) v |= 0x80 >> (x & 7);
    dst[whole] = v;
  }
}
