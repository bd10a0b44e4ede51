// The 8-bit PNG encoder's shortcuts, each against rows made to hit it: rows that differ from the row above only in
// their first or last byte or word (where the deflater's scan starts and stops), single changed bytes inside words
// of a repeated value (the per-word run split), runs crossing word boundaries and longer than one deflate match, a
// row too wide for the once-a-row Adler-32 reduction, and a stream long enough to grow the writer's buffers. Every
// PNG must inflate (zlib checks the Adler-32) to the Up-filtered rows png-rows.ts builds, and decode to the raster.

import { expect } from 'chai';
import { Jimp } from 'jimp';
import { inflateSync } from 'node:zlib';
import { encodePng } from '../renderer/encoders/png.js';
import { greyRows } from '../renderer/encoders/png-rows.js';
import { Raster } from '../renderer/raster/raster.js';
import { rowOrder, settle, type RowOrder } from '../renderer/raster/row-order.js';
import { decodePng, idatOf } from './helpers/png.js';

const ORDERS: RowOrder[] = [rowOrder(false, false), rowOrder(true, false), rowOrder(false, true), rowOrder(true, true)];

/** A seeded generator of 32-bit values. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
}

/** The raster with each row's drawn columns kept, as tight as its ink (outside them the row is paper). */
function tracked(width: number, height: number, ink: Uint8Array): Raster {
  const r = new Raster(width, height, Uint8Array.from(ink), true);
  for (let y = 0; y < height; y++) {
    let from = width,
      to = 0;
    for (let x = 0; x < width; x++)
      if (ink[y * width + x] !== 0) {
        from = Math.min(from, x);
        to = x + 1;
      }
    r.painted![2 * y] = from;
    r.painted![2 * y + 1] = to;
  }
  return r;
}

/** Encodes `ink` read in every order, with and without drawn columns, and checks the filtered rows and the pixels. */
function expectRoundTrip(width: number, height: number, ink: Uint8Array, what: string): void {
  for (const order of ORDERS) {
    const png = encodePng(new Raster(width, height, Uint8Array.from(ink)), false, order);
    const fromTracked = encodePng(tracked(width, height, ink), false, order);
    if (!Buffer.from(fromTracked).equals(Buffer.from(png)))
      expect.fail(`${what} ${width}x${height} ${JSON.stringify(order)}: drawn columns change the bytes`);
    const turned = settle(new Raster(width, height, Uint8Array.from(ink)), order);
    const rows = inflateSync(idatOf(png));
    if (Buffer.compare(rows, Buffer.from(greyRows(turned))) !== 0)
      expect.fail(`${what} ${width}x${height} ${JSON.stringify(order)}: filtered rows differ`);
    const got = decodePng(png).gray;
    for (let i = 0; i < got.length; i++) {
      if (got[i] !== 255 - turned.ink[i])
        expect.fail(
          `${what} ${width}x${height} ${JSON.stringify(order)}: pixel ${i} is ${got[i]}, want ${255 - turned.ink[i]}`,
        );
    }
  }
}

describe('PNG encoder: runs and row differences', function () {
  this.timeout(120_000);

  it('rows differing from the row above only in their first or last byte or word', () => {
    const next = lcg(1);
    for (const width of [4, 5, 8, 12, 13, 64, 66, 67, 200, 203]) {
      for (const fill of [0, 1, 127, 128, 255]) {
        const height = 24;
        const ink = new Uint8Array(width * height).fill(fill);
        for (let y = 1; y < height; y++) {
          const row = y * width;
          ink.copyWithin(row, row - width, row); // repeat the row above, then change one end
          const kind = y % 6;
          const value = next() & 255;
          if (kind === 0)
            ink[row] = value; // first byte
          else if (kind === 1)
            ink[row + width - 1] = value; // last byte
          else if (kind === 2)
            for (let x = 0; x < Math.min(4, width); x++) ink[row + x] = next() & 255; // first word
          else if (kind === 3)
            for (let x = Math.max(0, width - 4); x < width; x++) ink[row + x] = next() & 255; // last word
          else if (kind === 4) {
            ink[row] = value;
            ink[row + width - 1] = value ^ 0x80;
          } // both ends
          // kind 5: unchanged
        }
        expectRoundTrip(width, height, ink, `ends, fill ${fill}`);
      }
    }
  });

  it('one byte changed inside words of a repeated value, at every position of the word', () => {
    for (const width of [16, 17, 40, 43]) {
      for (const base of [0, 3, 200]) {
        const height = 1 + 4 * 4 * 3;
        const ink = new Uint8Array(width * height).fill(base);
        let y = 1;
        for (const delta of [1, 128, 255]) {
          for (let word = 0; word < 4 && 4 * word < width; word++) {
            for (let k = 0; k < 4; k++, y++) {
              const x = Math.min(width - 1, 4 * word + k);
              ink[y * width + x] = (base + delta) & 255;
            }
          }
        }
        expectRoundTrip(width, height, ink, `one byte, base ${base}`);
      }
    }
  });

  it('runs of every length from 1 to 600 crossing word boundaries, and random short runs', () => {
    const next = lcg(2);
    const width = 1200,
      height = 40;
    const ink = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      let x = y % 4; // shift the runs against word boundaries
      let len = 1 + y * 15;
      let v = next() & 255;
      while (x < width) {
        const n = y < 20 ? len : 1 + (next() % 6);
        ink.fill(v, y * width + x, y * width + Math.min(width, x + n));
        x += n;
        v = (v + 1 + (next() % 3)) & 255;
        len = len > 600 ? 1 : len + 1;
      }
    }
    expectRoundTrip(width, height, ink, 'runs');
  });

  it('rows of 65,536 bytes or more (sent a byte at a time, the Adler-32 reduced as it goes)', () => {
    const next = lcg(3);
    const width = 70_004,
      height = 4;
    const ink = new Uint8Array(width * height);
    for (let i = 0; i < ink.length; i++) ink[i] = next() >>> 24 < 64 ? next() & 255 : 255;
    ink.copyWithin(2 * width, width, 2 * width); // a repeated row
    expectRoundTrip(width, height, ink, 'wide');
    expectRoundTrip(width - 1, height, ink.subarray(0, (width - 1) * height), 'wide, not whole words');
  });

  it("a noisy raster whose stream outgrows the writer's buffers decodes with jimp too", async () => {
    const next = lcg(4);
    const width = 900,
      height = 700;
    const ink = new Uint8Array(width * height);
    for (let i = 0; i < ink.length; i++) ink[i] = next() >>> 24;
    const png = encodePng(new Raster(width, height, ink));
    expect(Buffer.compare(inflateSync(idatOf(png)), Buffer.from(greyRows(new Raster(width, height, ink))))).to.equal(0);
    const image = await Jimp.read(Buffer.from(png));
    for (let i = 0; i < ink.length; i++) if (image.bitmap.data[4 * i] !== 255 - ink[i]) expect.fail(`pixel ${i}`);
    // And a small one right after it: the buffers kept from the large one are reused.
    expectRoundTrip(
      7,
      3,
      Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9),
      'after a large one',
    );
  });

  it('blits a glyph over a row whose drawn columns lie inside, left of and right of the glyph as a raster keeping none does', () => {
    const next = lcg(5);
    const mask = Uint8Array.from({ length: 30 * 3 }, () => {
      const k = next() >>> 24;
      return k < 60 ? 0 : k < 120 ? 255 : k;
    });
    for (const mode of ['black', 'white', 'xor'] as const) {
      for (const [x0, x1] of [
        [15, 20],
        [0, 12],
        [35, 50],
        [10, 40],
        [39, 41],
        [10, 11],
      ]) {
        const tracked = new Raster(64, 3, undefined, true),
          untracked = new Raster(64, 3);
        for (const r of [tracked, untracked]) {
          r.span(0, x0, x1, 255, 'black');
          r.span(1, x0, x1, 77, 'black');
          r.blitCoverage(mask, 30, 3, 10, 0, mode);
        }
        expect(Buffer.compare(tracked.ink, untracked.ink), `${mode} ink at [${x0}, ${x1})`).to.equal(0);
      }
    }
  });
});
