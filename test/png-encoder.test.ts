// The row-aware PNG encoder: whatever the raster, its PNG decodes to the raster's grey levels (or 1-bit threshold)
// with two independent decoders (jimp's, and an inflate-based one that also checks the filtered rows and the zlib
// Adler-32), and its size stays close to zlib's run-length deflate of the same rows.

import { expect } from 'chai';
import fc from 'fast-check';
import { Jimp } from 'jimp';
import { constants, deflateSync, inflateSync } from 'node:zlib';
import { encodePng } from '../renderer/encoders/png.js';
import { bitonalRows, greyRows } from '../renderer/encoders/png-rows.js';
import { Raster } from '../renderer/raster/raster.js';
import { rowOrder, settle } from '../renderer/raster/row-order.js';
import { render } from '../renderer/index.js';
import { loadLabels } from '../bench/labels.js';
import { decodePng, idatOf } from './helpers/png.js';

/** A raster from a seed: blank rows, repeated rows, runs, noise and partial coverage, as labels have them. */
const rasterArb = fc
  .record({
    width: fc.integer({ min: 1, max: 300 }),
    height: fc.integer({ min: 1, max: 60 }),
    rows: fc.array(
      fc.record({
        kind: fc.constantFrom('blank', 'repeat', 'bars', 'noise', 'grey'),
        seed: fc.integer({ min: 0, max: 2 ** 30 }),
      }),
      { minLength: 60, maxLength: 60 },
    ),
  })
  .map(({ width, height, rows }) => {
    const r = new Raster(width, height);
    for (let y = 0; y < height; y++) {
      const { kind, seed } = rows[y];
      let s = seed;
      const next = (): number => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
      const row = r.ink.subarray(y * width, (y + 1) * width);
      if (kind === 'repeat' && y > 0) row.set(r.ink.subarray((y - 1) * width, y * width));
      else if (kind === 'bars') for (let x = 0; x < width; x++) row[x] = (Math.floor(x / (1 + (seed % 7))) & 1) * 255;
      else if (kind === 'noise') for (let x = 0; x < width; x++) row[x] = next() < 0.2 ? Math.floor(next() * 256) : 0;
      else if (kind === 'grey') row.fill(seed & 255, 0, Math.floor(next() * width));
    }
    return r;
  });

describe('PNG encoder', function () {
  this.timeout(120_000);

  it('inflates to the filtered rows, and decodes to the raster with an inflate-based decoder and with jimp', async () => {
    const samples = fc.sample(rasterArb, { numRuns: 150, seed: 30 });
    for (const r of samples) {
      for (const bitonal of [false, true]) {
        const png = encodePng(r, bitonal);
        const rows = inflateSync(idatOf(png)); // zlib checks the Adler-32 too
        expect(
          Buffer.compare(rows, Buffer.from(bitonal ? bitonalRows(r) : greyRows(r))),
          `${r.width}x${r.height} bitonal ${bitonal}`,
        ).to.equal(0);
        const ours = decodePng(png);
        const image = await Jimp.read(Buffer.from(png));
        expect([ours.width, ours.height, image.bitmap.width, image.bitmap.height]).to.deep.equal([
          r.width,
          r.height,
          r.width,
          r.height,
        ]);
        for (let i = 0; i < r.width * r.height; i++) {
          const want = bitonal ? (r.ink[i] >= 128 ? 0 : 255) : 255 - r.ink[i];
          if (ours.gray[i] !== want || image.bitmap.data[i * 4] !== want) {
            expect.fail(
              `pixel ${i} of ${r.width}x${r.height} (bitonal ${bitonal}): want ${want}, ours ${ours.gray[i]}, jimp ${image.bitmap.data[i * 4]}`,
            );
          }
        }
      }
    }
  });

  it('reads mirrored and turned rows (^PM Y, ^PO I) as the raster turned in place would give them', () => {
    const orders = [rowOrder(true, false), rowOrder(false, true), rowOrder(true, true)];
    for (const r of fc.sample(rasterArb, { numRuns: 80, seed: 31 })) {
      for (const order of orders) {
        const turned = settle(new Raster(r.width, r.height, Uint8Array.from(r.ink)), order);
        const got = decodePng(encodePng(r, false, order)).gray;
        const want = Uint8Array.from(turned.ink, (v) => 255 - v);
        expect(Buffer.compare(got, want), `${r.width}x${r.height} ${JSON.stringify(order)}`).to.equal(0);
        expect(
          Buffer.from(encodePng(r, false, order)).equals(Buffer.from(encodePng(turned))),
          'same bytes as the turned raster',
        ).to.equal(true);
      }
    }
  });

  /** `n` coverage levels from a seed: paper, full ink and partial levels mixed. */
  const levels = (n: number, seed: number): Uint8Array => {
    let s = seed;
    return Uint8Array.from({ length: n }, () => {
      s = (s * 1103515245 + 12345) >>> 0;
      const k = s >>> 24;
      return k < 80 ? 0 : k < 160 ? 255 : k;
    });
  };

  it('blits coverage over ink drawn earlier in the row as a raster keeping no columns does, whichever side the ink is on', () => {
    for (const mode of ['black', 'white', 'xor'] as const) {
      for (const [rx, mx] of [
        [0, 10],
        [20, 10],
        [12, 10],
        [0, 30],
        [40, 10],
      ]) {
        const tracked = new Raster(64, 4, undefined, true),
          untracked = new Raster(64, 4);
        for (const r of [tracked, untracked]) {
          r.fillRect(rx, 0, 20, 3, 'black');
          r.span(3, rx, rx + 20, 90, 'black');
          r.blitCoverage(levels(20 * 4, rx * 64 + mx), 20, 4, mx, 0, mode);
        }
        expect(Buffer.compare(tracked.ink, untracked.ink), `${mode} ink at ${rx}, mask at ${mx}`).to.equal(0);
      }
    }
  });

  it("paints alike keeping rows' drawn columns, and writes the same bytes from them, upright, read turned, and settled", () => {
    const shapes = fc.array(
      fc.record({
        kind: fc.constantFrom('rect', 'span', 'plot', 'mask', 'bits'),
        x: fc.integer({ min: -20, max: 120 }),
        y: fc.integer({ min: -10, max: 50 }),
        w: fc.integer({ min: 0, max: 60 }),
        h: fc.integer({ min: 0, max: 20 }),
        mode: fc.constantFrom('black', 'white', 'xor'),
        seed: fc.integer({ min: 0, max: 2 ** 30 }),
      }),
      { maxLength: 25 },
    );
    const cases = fc.sample(
      fc.record({ width: fc.constantFrom(1, 7, 64, 100), height: fc.integer({ min: 1, max: 40 }), shapes }),
      { numRuns: 150, seed: 32 },
    );
    const orders = [rowOrder(false, false), rowOrder(true, false), rowOrder(false, true), rowOrder(true, true)];
    for (const { width, height, shapes: drawn } of cases) {
      // The same drawing on a raster that keeps no columns (and so takes no shortcut over paper) must match.
      const tracked = new Raster(width, height, undefined, true),
        untracked = new Raster(width, height);
      for (const r of [tracked, untracked]) {
        for (const { kind, x, y, w, h, mode, seed } of drawn) {
          const m = mode as 'black' | 'white' | 'xor';
          if (kind === 'rect') r.fillRect(x, y, w, h, m);
          else if (kind === 'span') r.span(y, x, x + w, 1 + (seed % 255), m);
          else if (kind === 'plot') r.plot(x, y, 1 + (seed % 255), m);
          else if (kind === 'mask') r.blitCoverage(levels(w * h, seed), w, h, x, y, m);
          else
            r.blitBits(
              Uint8Array.from({ length: ((w + 7) >> 3) * h }, (_, i) => (seed >> (i % 23)) & 255),
              (w + 7) >> 3,
              w,
              h,
              x,
              y,
              m,
            );
        }
      }
      expect(Buffer.compare(tracked.ink, untracked.ink), `${width}x${height} painted alike`).to.equal(0);
      for (const order of orders) {
        const plain = (): Raster => new Raster(width, height, Uint8Array.from(tracked.ink));
        const want = Buffer.from(encodePng(plain(), false, order));
        expect(
          Buffer.from(encodePng(tracked, false, order)).equals(want),
          `${width}x${height} ${JSON.stringify(order)}`,
        ).to.equal(true);
        // The same pixels and drawn columns, turned in place: its columns turn with it.
        const copy = new Raster(width, height, Uint8Array.from(tracked.ink));
        copy.painted = Int32Array.from(tracked.painted!);
        const turned = settle(copy, order);
        expect(
          Buffer.from(encodePng(turned)).equals(Buffer.from(encodePng(settle(plain(), order)))),
          `settled ${JSON.stringify(order)}`,
        ).to.equal(true);
      }
    }
  });

  it('writes the same bytes for a raster whatever was encoded before it (buffers are reused)', () => {
    const [a, b] = fc.sample(rasterArb, { numRuns: 2, seed: 7 });
    const first = Buffer.from(encodePng(a));
    encodePng(b);
    encodePng(b, true);
    expect(Buffer.from(encodePng(a)).equals(first)).to.equal(true);
  });

  it('stays within 10 % of zlib run-length deflate on the carrier labels', async () => {
    let ours = 0,
      zlib = 0;
    for (const label of loadLabels('carrier')) {
      const png = (await render(label.zpl, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 })).body;
      const rows = inflateSync(idatOf(png));
      ours += idatOf(png).length;
      zlib += deflateSync(rows, { strategy: constants.Z_RLE }).length;
    }
    expect(ours / zlib).to.be.below(1.1);
  });
});
