// Decodes the PNGs we produce (greyscale, 8-bit or 1-bit, filter 0..4) so tests can check real pixels.

import { expect } from 'chai';
import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** One grey byte per pixel, 0 black .. 255 white (1-bit images expanded). */
  gray: Uint8Array;
}

export function decodePng(buf: Uint8Array): DecodedPng {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let off = 8;
  let width = 0,
    height = 0,
    bitDepth = 0,
    colorType = 0;
  const idat: Buffer[] = [];
  while (off < b.length) {
    const len = b.readUInt32BE(off);
    const type = b.toString('latin1', off + 4, off + 8);
    const data = b.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      bitDepth = data[8];
      colorType = data[9];
    }
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  if (colorType !== 0) throw new Error(`unexpected colour type ${colorType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = Math.ceil((width * bitDepth) / 8);
  const bpp = Math.max(1, bitDepth / 8);
  const gray = new Uint8Array(width * height);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = Uint8Array.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? line[x - bpp] : 0,
        up = prev[x],
        c = x >= bpp ? prev[x - bpp] : 0;
      if (f === 1) line[x] = (line[x] + a) & 255;
      else if (f === 2) line[x] = (line[x] + up) & 255;
      else if (f === 3) line[x] = (line[x] + ((a + up) >> 1)) & 255;
      else if (f === 4) {
        const p = a + up - c,
          pa = Math.abs(p - a),
          pb = Math.abs(p - up),
          pc = Math.abs(p - c);
        line[x] = (line[x] + (pa <= pb && pa <= pc ? a : pb <= pc ? up : c)) & 255;
      }
    }
    for (let x = 0; x < width; x++) {
      gray[y * width + x] = bitDepth === 8 ? line[x] : line[x >> 3] & (0x80 >> (x & 7)) ? 255 : 0;
    }
    prev = line;
  }
  return { width, height, bitDepth, colorType, gray };
}

/** Grey value at (x, y). */
export function px(img: DecodedPng, x: number, y: number): number {
  return img.gray[y * img.width + x];
}

/** Number of pixels darker than mid-grey. */
export function inkCount(img: DecodedPng): number {
  let n = 0;
  for (const v of img.gray) if (v < 128) n++;
  return n;
}

/** The IDAT data of a PNG, checking every chunk's CRC on the way. */
export function idatOf(png: Uint8Array): Buffer {
  const b = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const parts: Buffer[] = [];
  for (let off = 8; off < b.length; ) {
    const len = b.readUInt32BE(off);
    const type = b.toString('latin1', off + 4, off + 8);
    expect(b.readUInt32BE(off + 8 + len), `${type} CRC`).to.equal(crc32(b.subarray(off + 4, off + 8 + len)) >>> 0);
    if (type === 'IDAT') parts.push(b.subarray(off + 8, off + 8 + len));
    off += 12 + len;
  }
  return Buffer.concat(parts);
}
