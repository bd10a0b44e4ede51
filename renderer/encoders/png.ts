// PNG encoding through node:zlib: 8-bit greyscale (colour type 0) or 1-bit for bitonal output.
// Output is byte-identical between runs (fixed filter and zlib level).

import { crc32, deflateSync } from 'node:zlib';
import type { Raster } from '../raster/raster.js';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Ink at or above this level is black in 1-bit output (the legacy service thresholds at mid-grey). */
export const BITONAL_THRESHOLD = 128;

export function encodePng(r: Raster, bitonal = false): Uint8Array {
  const { width, height, ink } = r;
  const stride = bitonal ? (width + 7) >> 3 : width;
  const rows = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    rows[o] = 0; // filter: none (labels are mostly flat; zlib does the rest)
    const src = y * width;
    if (bitonal) {
      rows.fill(0, o + 1, o + 1 + stride);
      for (let x = 0; x < width; x++) {
        if (ink[src + x] < BITONAL_THRESHOLD) rows[o + 1 + (x >> 3)] |= 0x80 >> (x & 7);
      }
    } else {
      for (let x = 0; x < width; x++) rows[o + 1 + x] = 255 - ink[src + x];
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitonal ? 1 : 8; // bit depth
  ihdr[9] = 0; // colour type: greyscale
  const idat = deflateSync(rows, { level: 6 });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
