// Images an attacker sends: headers that disagree with themselves (a second PNG IHDR, a GIF frame larger than its
// screen, a second JPEG frame), and decompression bombs. Shared by the hostile-input tests and `npm run attack`.

import { createDeflate } from 'node:zlib';
import { chunk } from './upstream-png.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** IHDR data: 1-bit greyscale unless told otherwise. */
function ihdr(width: number, height: number, depth = 1): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = depth;
  header[9] = 0;
  return chunk('IHDR', header);
}

/** A PNG whose first IHDR says 1x1 and whose second says `width` x `height` (the 92-byte attack of the issue). */
export function twoHeaderPng(width: number, height: number): Buffer {
  const oneWhitePixel = Buffer.from([0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]); // zlib of [0, 0]
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(1, 1),
    ihdr(width, height),
    chunk('IDAT', oneWhitePixel),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real decompression bomb: a 1-bit `width` x `height` PNG of white rows, deflated (about 1 KB per MB of pixels). */
export async function bombPng(width: number, height: number): Promise<Buffer> {
  const rowBytes = 1 + Math.ceil(width / 8);
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const rows = Buffer.alloc(rowBytes * 256, 0xff);
  for (let y = 0; y < rowBytes * 256; y += rowBytes) rows[y] = 0; // filter byte of each row
  for (let y = 0; y < height; y += 256) {
    const count = Math.min(256, height - y);
    if (!deflate.write(rows.subarray(0, count * rowBytes)))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height),
    chunk('IDAT', Buffer.concat(out)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF with a 1x1 screen and one `width` x `height` frame (the 35-byte attack of the issue). */
export function bigFrameGif(width: number, height: number): Buffer {
  const u16 = (n: number): number[] => [n & 0xff, n >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...u16(1),
    ...u16(1),
    0x00,
    0x00,
    0x00, // screen 1x1, no colour table
    0x2c,
    ...u16(0),
    ...u16(0),
    ...u16(width),
    ...u16(height),
    0x00, // image descriptor
    0x02,
    0x02,
    0x4c,
    0x01,
    0x00, // LZW code size 2, one sub-block, end
    0x3b,
  ]);
}

/** A JPEG with a 16x16 frame header, then a second start-of-frame of `width` x `height`. */
export function twoFrameJpeg(width: number, height: number): Buffer {
  const sof = (w: number, h: number): number[] => [
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    h >> 8,
    h & 0xff,
    w >> 8,
    w & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ];
  return Buffer.from([0xff, 0xd8, ...sof(16, 16), ...sof(width, height), 0xff, 0xd9]);
}

/** A BMP header (BITMAPINFOHEADER) declaring `width` x `height`, with no pixels. */
export function bmpHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(54);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(54, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(-height, 22); // top-down
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

/** A legal `side` x `side` 8-bit greyscale PNG of mid grey (slow to convert with dithering, small to send). */
export async function greyPngOfSide(side: number): Promise<Buffer> {
  const rowBytes = 1 + side;
  const rows = Buffer.alloc(rowBytes * side, 0x80);
  for (let y = 0; y < side; y++) rows[y * rowBytes] = 0;
  const { deflateSync } = await import('node:zlib');
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(side, side, 8),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
