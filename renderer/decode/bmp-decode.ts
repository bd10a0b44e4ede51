// A small synchronous BMP reader for ~DY images with extension B: Windows bitmaps (BITMAPCOREHEADER to
// BITMAPV5HEADER) of 1, 4, 8, 16, 24 or 32 bits a pixel, uncompressed or with bit-field masks, rows bottom-up or
// top-down, turned into a 1-bit bitmap as PNG images are (dark pixels are ink). RLE-compressed files are refused.

import { RenderError } from '../errors.js';
import { darkOnWhite, type Bitmap } from './grf.js';
import { MAX_IMAGE_SIDE } from './png-decode.js';
import { claimBytes, type DecodeMeter } from './meter.js';

export function isBmp(b: Uint8Array): boolean {
  return b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d;
}

/** Palette entries a BMP of up to 8 bits a pixel can index. */
const MAX_PALETTE = 256;

const BI_RGB = 0,
  BI_BITFIELDS = 3,
  BI_ALPHABITFIELDS = 6;

/** A channel mask: where its bits are and how many (a mask may hold all 32). */
interface Mask {
  shift: number;
  bits: number;
}

/** The lowest run of set bits of a 32-bit mask (every loop stops at bit 32: `>>> 32` is `>>> 0` in JavaScript). */
function maskOf(m: number): Mask | null {
  if (!m) return null;
  let shift = 0;
  while (shift < 32 && !((m >>> shift) & 1)) shift++;
  let bits = 0;
  while (shift + bits < 32 && (m >>> (shift + bits)) & 1) bits++;
  return { shift, bits };
}

/** The channel of pixel value `v` under `m`, scaled to 0..255 (a missing mask is full). Unsigned throughout. */
function channel(v: number, m: Mask | null): number {
  if (!m) return 255;
  const max = 2 ** m.bits - 1;
  return Math.round((((v >>> m.shift) % 2 ** m.bits) * 255) / max);
}

/**
 * Decodes a BMP into ink bits. Every header field is checked against the bytes there are before a loop uses it; the
 * bitmap is claimed from `meter` (for `what`) before it is made, and each row is charged. Throws an Error naming what
 * is wrong with a file it cannot read; a RenderError ('too-large') for one over 2,000 pixels a side.
 */
export function decodeBmpToBitmap(bmp: Uint8Array, meter: DecodeMeter, what = 'Image'): Bitmap {
  if (!isBmp(bmp)) throw new Error('not a BMP image');
  if (bmp.length < 26) throw new Error('BMP header is truncated');
  const view = new DataView(bmp.buffer, bmp.byteOffset, bmp.byteLength);
  const pixelsAt = view.getUint32(10, true);
  const dib = view.getUint32(14, true);
  if (dib !== 12 && dib < 40) throw new Error(`BMP header of ${dib} bytes is not a known kind`);
  if (14 + dib > bmp.length) throw new Error('BMP header is truncated');
  // BITMAPCOREHEADER: 16-bit unsigned width and height at 18 and 20, bits a pixel at 24; later headers: 32-bit signed
  // sizes at 18 and 22 (a negative height is top-down), bits a pixel at 28.
  const core = dib === 12;
  const width = core ? view.getUint16(18, true) : view.getInt32(18, true);
  const rawHeight = core ? view.getUint16(20, true) : view.getInt32(22, true);
  const bpp = view.getUint16(core ? 24 : 28, true);
  const compression = core ? BI_RGB : view.getUint32(30, true);
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (width <= 0 || height <= 0) throw new Error(`BMP image is ${width}x${rawHeight} pixels`);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new RenderError(
      'too-large',
      `Image is ${width}x${height} pixels; the maximum is ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE}`,
    );
  }
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) throw new Error(`BMP images of ${bpp} bits a pixel are not supported`);
  if (compression !== BI_RGB && compression !== BI_BITFIELDS && compression !== BI_ALPHABITFIELDS) {
    throw new Error(`compressed BMP images (compression ${compression}) are not supported`);
  }

  // Palette (up to 8 bits a pixel): BGR entries, 3 bytes each after a core header, else 4.
  let palette: Uint8Array | undefined;
  if (bpp <= 8) {
    const entry = core ? 3 : 4;
    const used = core ? 0 : view.getUint32(46, true);
    const count = Math.min(used || 2 ** bpp, 2 ** bpp);
    const at = 14 + dib;
    if (at + count * entry > bmp.length) throw new Error('BMP palette is truncated');
    palette = new Uint8Array(3 * MAX_PALETTE); // entries past `count` stay black, as a missing one reads
    for (let i = 0; i < count; i++) {
      palette[3 * i] = bmp[at + i * entry + 2];
      palette[3 * i + 1] = bmp[at + i * entry + 1];
      palette[3 * i + 2] = bmp[at + i * entry];
    }
  }

  // Masks for 16 and 32 bits: in the header (V2 and later) or right after a 40-byte one; else the defaults.
  let masks: [number, number, number, number] = bpp === 16 ? [0x7c00, 0x3e0, 0x1f, 0] : [0xff0000, 0xff00, 0xff, 0];
  if (compression !== BI_RGB) {
    const at = dib >= 52 ? 40 + 14 : 14 + dib;
    const n = compression === BI_ALPHABITFIELDS || dib >= 56 ? 4 : 3;
    if (at + 4 * n > bmp.length) throw new Error('BMP colour masks are truncated');
    masks = [
      view.getUint32(at, true),
      view.getUint32(at + 4, true),
      view.getUint32(at + 8, true),
      n === 4 ? view.getUint32(at + 12, true) : 0,
    ];
  } else if (bpp === 32 && dib >= 56) {
    // An uncompressed 32-bit V3+ header still names its alpha mask; alpha is ignored otherwise.
    masks[3] = view.getUint32(14 + 52, true);
  }
  const [r, g, b, a] = masks.map(maskOf);

  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  if (pixelsAt + rowBytes * height > bmp.length) {
    throw new Error(`BMP pixel data is truncated: ${Math.max(0, bmp.length - pixelsAt)} of ${rowBytes * height} bytes`);
  }
  const stride = Math.ceil(width / 8);
  const out = claimBytes(meter, stride * height, what);
  for (let row = 0; row < height; row++) {
    meter.charge(rowBytes + width);
    const y = topDown ? row : height - 1 - row;
    const base = pixelsAt + row * rowBytes;
    for (let x = 0; x < width; x++) {
      let ink: boolean;
      if (palette) {
        const bit = x * bpp;
        const idx = bpp === 8 ? bmp[base + x] : (bmp[base + (bit >> 3)] >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        ink = darkOnWhite(palette[3 * idx] ?? 0, palette[3 * idx + 1] ?? 0, palette[3 * idx + 2] ?? 0, 255);
      } else if (bpp === 24) {
        const p = base + 3 * x;
        ink = darkOnWhite(bmp[p + 2], bmp[p + 1], bmp[p], 255);
      } else {
        const v = bpp === 16 ? view.getUint16(base + 2 * x, true) : view.getUint32(base + 4 * x, true);
        ink = darkOnWhite(channel(v, r), channel(v, g), channel(v, b), a ? channel(v, a) : 255);
      }
      if (ink) out[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return { data: out, stride, width, height };
}
