// 1-bit images at another size, and their ^GF/~DG data form (Z64: zlib and base64 with its CRC).

import { deflateSync } from 'node:zlib';
import { crc16Xmodem } from '../../decode/grf.js';
import { claimBytes, UNMETERED, type DecodeMeter } from '../../decode/meter.js';
import type { Bits } from '../../model.js';

/**
 * A 1-bit image at `scale` times its size: each new pixel is ink when ink covers at least half of the area it
 * stands for in the source (a box filter; enlarging, that is the source pixel under its centre). Its bits are claimed
 * on `meter` for `what`, and its rows charged.
 */
export function resample(src: Bits, scale: number, meter: DecodeMeter = UNMETERED, what = 'A resampled bitmap'): Bits {
  const width = Math.max(1, Math.round(src.width * scale));
  const height = Math.max(1, Math.round(src.height * scale));
  const stride = Math.ceil(width / 8);
  const data = claimBytes(meter, stride * height, what);
  const ink = (x: number, y: number): number => (src.data[y * src.stride + (x >> 3)]! >> (7 - (x & 7))) & 1;
  const sx = src.width / width,
    sy = src.height / height;
  // Each target row reads about max(1, sx) x max(1, sy) source pixels per pixel: charged a row at a time.
  const rowUnits = Math.ceil(width * Math.max(1, sx) * Math.max(1, sy));
  for (let ty = 0; ty < height; ty++) {
    meter.charge(rowUnits);
    const y0 = ty * sy,
      y1 = y0 + sy;
    for (let tx = 0; tx < width; tx++) {
      const x0 = tx * sx,
        x1 = x0 + sx;
      let covered = 0;
      for (let y = Math.floor(y0); y < Math.min(src.height, Math.ceil(y1)); y++) {
        const h = Math.min(y1, y + 1) - Math.max(y0, y);
        for (let x = Math.floor(x0); x < Math.min(src.width, Math.ceil(x1)); x++) {
          if (ink(x, y)) covered += h * (Math.min(x1, x + 1) - Math.max(x0, x));
        }
      }
      if (covered * 2 >= sx * sy) data[ty * stride + (tx >> 3)]! |= 0x80 >> (tx & 7);
    }
  }
  return { data, stride, width, height };
}

/** A bitmap as ^GF/~DG data: `:Z64:` zlib and base64 with its CRC, the byte count and row width it declares. */
export function encodeBits(bits: Bits): { data: string; total: number; rowBytes: number } {
  const base64 = deflateSync(bits.data).toString('base64');
  const crc = crc16Xmodem(Buffer.from(base64, 'latin1')).toString(16).toUpperCase().padStart(4, '0');
  return { data: `:Z64:${base64}:${crc}`, total: bits.data.length, rowBytes: bits.stride };
}
