// Valid images and graphics for the decoder tests, written byte by byte (PNG, BMP, GRF hex, ~DB glyph data), and a
// meter that counts what a decoder claims and charges.

import { crc32, deflateSync } from 'node:zlib';
import type { DecodeMeter } from '../../renderer/decode/meter.js';

/** A meter that allows everything and counts: bytes claimed, units charged, and how often each was called. */
export interface CountingMeter extends DecodeMeter {
  claimed: number;
  charged: number;
  claims: number;
  charges: number;
}

export function countingMeter(): CountingMeter {
  const m: CountingMeter = {
    claimed: 0,
    charged: 0,
    claims: 0,
    charges: 0,
    claim(bytes) {
      m.claimed += bytes;
      m.claims++;
    },
    charge(units) {
      m.charged += units;
      m.charges++;
    },
  };
  return m;
}

export interface PngSample {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  /** Filtered rows (a filter byte, then the row's bytes), before compression. */
  rows: Buffer;
  palette?: Buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function pngFile(s: PngSample): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(s.width, 0);
  ihdr.writeUInt32BE(s.height, 4);
  ihdr[8] = s.depth;
  ihdr[9] = s.colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...(s.palette ? [pngChunk('PLTE', s.palette)] : []),
    pngChunk('IDAT', deflateSync(s.rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Valid PNGs of a diagonal stripe: 8-bit grey, 1-bit palette, 16-bit RGBA, every filter type used. */
export function pngSamples(): Buffer[] {
  const w = 19,
    h = 11;
  const grey = Buffer.alloc((w + 1) * h);
  const bits = Math.ceil(w / 8);
  const pal = Buffer.alloc((bits + 1) * h);
  const rgba = Buffer.alloc((8 * w + 1) * h);
  for (let y = 0; y < h; y++) {
    grey[y * (w + 1)] = y % 5;
    rgba[y * (8 * w + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const dark = Math.abs(x - y) < 3;
      grey[y * (w + 1) + 1 + x] = y % 5 === 0 ? (dark ? 0 : 255) : (x * 37 + y * 11) & 0xff;
      if (dark) pal[y * (bits + 1) + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
      const px = y * (8 * w + 1) + 1 + 8 * x;
      rgba.fill(dark ? 0x10 : 0xf0, px, px + 6);
      rgba.fill(0xff, px + 6, px + 8);
    }
  }
  return [
    pngFile({ width: w, height: h, depth: 8, colorType: 0, rows: grey }),
    pngFile({ width: w, height: h, depth: 1, colorType: 3, rows: pal, palette: Buffer.from([255, 255, 255, 0, 0, 0]) }),
    pngFile({ width: w, height: h, depth: 16, colorType: 6, rows: rgba }),
  ];
}

/** A BMP with a 40-byte header (or a 12-byte core one), bottom-up rows, and the masks or palette given. */
export function bmpFile(opts: {
  width: number;
  height: number;
  bpp: number;
  pixels: (x: number, y: number) => number;
  palette?: number[];
  masks?: [number, number, number];
  core?: boolean;
}): Buffer {
  const { width, height, bpp } = opts;
  const dib = opts.core ? 12 : 40;
  const masks = opts.masks ? 12 : 0;
  const entry = opts.core ? 3 : 4;
  const paletteBytes = (opts.palette?.length ?? 0) * entry;
  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  const pixelsAt = 14 + dib + masks + paletteBytes;
  const b = Buffer.alloc(pixelsAt + rowBytes * height);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(pixelsAt, 10);
  b.writeUInt32LE(dib, 14);
  if (opts.core) {
    b.writeUInt16LE(width, 18);
    b.writeUInt16LE(height, 20);
    b.writeUInt16LE(1, 22);
    b.writeUInt16LE(bpp, 24);
  } else {
    b.writeInt32LE(width, 18);
    b.writeInt32LE(height, 22);
    b.writeUInt16LE(1, 26);
    b.writeUInt16LE(bpp, 28);
    b.writeUInt32LE(opts.masks ? 3 : 0, 30);
    b.writeUInt32LE(opts.palette?.length ?? 0, 46);
  }
  opts.masks?.forEach((m, i) => {
    b.writeUInt32LE(m >>> 0, 14 + dib + 4 * i);
  });
  opts.palette?.forEach((rgb, i) => {
    const at = 14 + dib + masks + i * entry;
    b[at] = rgb & 0xff;
    b[at + 1] = (rgb >> 8) & 0xff;
    b[at + 2] = (rgb >> 16) & 0xff;
  });
  for (let y = 0; y < height; y++) {
    const row = pixelsAt + (height - 1 - y) * rowBytes;
    for (let x = 0; x < width; x++) {
      const v = opts.pixels(x, y);
      if (bpp === 1) b[row + (x >> 3)]! |= (v & 1) << (7 - (x & 7));
      else if (bpp === 8) b[row + x] = v;
      else if (bpp === 16) b.writeUInt16LE(v, row + 2 * x);
      else if (bpp === 24) b.writeUIntLE(v, row + 3 * x, 3);
      else b.writeUInt32LE(v >>> 0, row + 4 * x);
    }
  }
  return b;
}

/** Valid BMPs of a diagonal stripe: 1-bit palette, 8-bit palette, 24-bit, 32-bit bit fields, and a core header. */
export function bmpSamples(): Buffer[] {
  const width = 13,
    height = 9;
  const dark = (x: number, y: number): boolean => Math.abs(x - y) < 2;
  return [
    bmpFile({ width, height, bpp: 1, pixels: (x, y) => (dark(x, y) ? 1 : 0), palette: [0xffffff, 0] }),
    bmpFile({ width, height, bpp: 8, pixels: (x, y) => (dark(x, y) ? 2 : 1), palette: [0x808080, 0xffffff, 0] }),
    bmpFile({ width, height, bpp: 24, pixels: (x, y) => (dark(x, y) ? 0x102030 : 0xf0f0f0) }),
    bmpFile({
      width,
      height,
      bpp: 32,
      pixels: (x, y) => (dark(x, y) ? 0x00000000 : 0x00ffffff),
      masks: [0xff0000, 0xff00, 0xff],
    }),
    bmpFile({ width, height, bpp: 24, pixels: (x, y) => (dark(x, y) ? 0 : 0xffffff), core: true }),
  ];
}

/** Valid ZPL ASCII hex graphic data using every compression code (G..Y and g..z counts, `,` `!` `:`). */
export function grfSamples(): { data: string; totalBytes: number; rowBytes: number }[] {
  return [
    { data: 'FFFF\nF0F0\n', totalBytes: 4, rowBytes: 2 },
    { data: 'gF,\n:\nI0!\nH0F,\n', totalBytes: 40, rowBytes: 10 },
    { data: 'zzF\n:\n:\n', totalBytes: 1200, rowBytes: 400 },
    { data: 'MFF0,!,:J0', totalBytes: 24, rowBytes: 4 },
  ];
}

/** ~DB glyph data: three characters, one with a negative offset. */
export function bitmapFontSample(): string {
  return '#0041.4.8.0.0.9.\n81\n42\n24\n18\n#0042.2.12.-1.2.13.\nFFF0\n8010\n#0020.1.1.0.0.6.00\n';
}
