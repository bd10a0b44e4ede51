// Tiny 8-bit greyscale PNG encoder for the fake legacy service: images whose ink the tests choose exactly.

import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data, CRC. */
export function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A white `width` x `height` PNG, black where `ink(x, y)`. */
export function greyPng(width: number, height: number, ink: (x: number, y: number) => boolean): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 255);
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) if (ink(x, y)) rows[y * (width + 1) + 1 + x] = 0;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A white PNG with one black rectangle [x0, x0 + w) x [y0, y0 + h). */
export function boxPng(width: number, height: number, box: { x: number; y: number; w: number; h: number }): Buffer {
  return greyPng(width, height, (x, y) => x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h);
}
