// A small synchronous PNG reader for ~DY images: the interpreter runs synchronously, so the stored
// image is decoded right there with node:zlib and turned into a 1-bit bitmap (dark pixels are ink).

import { inflateSync } from 'node:zlib';
import { RenderError } from '../errors.js';
import { darkOnWhite, type Bitmap } from './grf.js';
import { claimBytes, type DecodeMeter } from './meter.js';
import { readImageHeader } from './image-header.js';

/** The legacy service refuses embedded images wider or taller than this. */
export const MAX_IMAGE_SIDE = 2000;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && SIGNATURE.every((v, i) => b[i] === v);
}

/** Channels per colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bit depths the PNG specification allows for each colour type. */
const DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * Decodes a PNG into ink bits: a pixel is ink when its luminance, composited on white, is below half. The header is
 * checked against the specification and the object limits before anything is inflated; the pixels are claimed from
 * `meter` (for `what`) first, the inflated data stops at the size the header declares, and each row is charged.
 */
export function decodePngToBitmap(png: Uint8Array, meter: DecodeMeter, what = 'Image'): Bitmap {
  if (!isPng(png)) throw new Error('not a PNG image');
  // Every IHDR is read before anything is inflated: a second, larger one must not reach the decoder.
  const over = readImageHeader(png)?.sizes.find((size) => size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE);
  if (over)
    throw new RenderError(
      'too-large',
      `Image is ${over.width}x${over.height} pixels; the maximum is ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE}`,
    );
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let header: Uint8Array | undefined;
  let palette: Uint8Array | undefined;
  let alphaTable: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  for (let p = 8; p + 8 <= png.length; ) {
    const len = view.getUint32(p);
    const type = String.fromCharCode(png[p + 4], png[p + 5], png[p + 6], png[p + 7]);
    const body = png.subarray(p + 8, Math.min(png.length, p + 8 + len));
    if (type === 'IHDR') header = body;
    else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') alphaTable = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    p += 12 + len;
  }
  meter.charge(png.length);
  if (!header || header.length < 13) throw new Error('PNG header (IHDR) is missing or truncated');
  const hv = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const width = hv.getUint32(0);
  const height = hv.getUint32(4);
  const [depth, colorType, compression, filter, interlace] = header.subarray(8, 13);
  const channels = CHANNELS[colorType];
  if (!width || !height || !channels) throw new Error('unsupported PNG header');
  if (!DEPTHS[colorType].includes(depth))
    throw new Error(`PNG images of colour type ${colorType} cannot have ${depth} bits a sample`);
  if (compression !== 0 || filter !== 0) throw new Error('PNG header names an unknown compression or filter method');
  if (interlace) throw new Error('interlaced PNG images are not supported');
  const bpp = Math.max(1, (channels * depth) >> 3);
  const rowBytes = Math.ceil((width * channels * depth) / 8);
  const stride = Math.ceil(width / 8);
  // All claimed before inflating; the inflated data and the two rows unfiltered from it are given back at the end.
  meter.claim((rowBytes + 1) * height, what);
  const out = claimBytes(meter, stride * height, what);
  const rows = claimBytes(meter, 2 * rowBytes, what);
  try {
    const raw = inflateImageData(Buffer.concat(idat), (rowBytes + 1) * height);
    let prev = rows.subarray(0, rowBytes);
    let cur = rows.subarray(rowBytes);
    for (let y = 0; y < height; y++) {
      meter.charge(rowBytes + width);
      const off = y * (rowBytes + 1);
      unfilter(raw[off], raw.subarray(off + 1, off + 1 + rowBytes), prev, cur, bpp);
      for (let x = 0; x < width; x++) {
        if (inkAt(cur, x, colorType, depth, palette, alphaTable)) out[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
      }
      [prev, cur] = [cur, prev];
    }
  } finally {
    meter.release?.((rowBytes + 1) * height + rows.length);
  }
  return { data: out, stride, width, height };
}

/** The image data inflated, never past the `size` its header declares (more is a malformed file). */
function inflateImageData(data: Buffer, size: number): Buffer {
  try {
    return inflateSync(data, { maxOutputLength: Math.max(1, size) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`PNG image data is longer than the ${size} bytes its header declares`);
    throw e;
  }
}

function unfilter(filter: number, src: Uint8Array, prev: Uint8Array, cur: Uint8Array, bpp: number): void {
  for (let i = 0; i < cur.length; i++) {
    const x = src[i] ?? 0;
    const a = i >= bpp ? cur[i - bpp] : 0;
    const b = prev[i];
    const c = i >= bpp ? prev[i - bpp] : 0;
    let v: number;
    switch (filter) {
      case 1:
        v = x + a;
        break;
      case 2:
        v = x + b;
        break;
      case 3:
        v = x + ((a + b) >> 1);
        break;
      case 4: {
        const p = a + b - c,
          pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        break;
      }
      default:
        v = x;
    }
    cur[i] = v & 0xff;
  }
}

/** Sample `k` (0-based, of width `depth` bits) of a row, scaled to 0..255. */
function sample(row: Uint8Array, k: number, depth: number): number {
  if (depth === 8) return row[k];
  if (depth === 16) return row[2 * k];
  const bit = k * depth;
  const v = (row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  return Math.round((v * 255) / ((1 << depth) - 1));
}

function inkAt(
  row: Uint8Array,
  x: number,
  colorType: number,
  depth: number,
  palette: Uint8Array | undefined,
  trns: Uint8Array | undefined,
): boolean {
  let r: number,
    g: number,
    b: number,
    a = 255;
  switch (colorType) {
    case 0:
      r = g = b = sample(row, x, depth);
      break;
    case 2:
      r = sample(row, 3 * x, depth);
      g = sample(row, 3 * x + 1, depth);
      b = sample(row, 3 * x + 2, depth);
      break;
    case 3: {
      const bit = x * depth;
      const idx = depth === 8 ? row[x] : (row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
      r = palette?.[3 * idx] ?? 0;
      g = palette?.[3 * idx + 1] ?? 0;
      b = palette?.[3 * idx + 2] ?? 0;
      a = trns?.[idx] ?? 255;
      break;
    }
    case 4:
      r = g = b = sample(row, 2 * x, depth);
      a = sample(row, 2 * x + 1, depth);
      break;
    default:
      r = sample(row, 4 * x, depth);
      g = sample(row, 4 * x + 1, depth);
      b = sample(row, 4 * x + 2, depth);
      a = sample(row, 4 * x + 3, depth);
  }
  return darkOnWhite(r, g, b, a);
}
