// Property tests of every decoder of bytes arriving in ZPL (GRF hex and Z64/B64, BMP, PNG, ~DB bitmap fonts,
// TrueType/OpenType, image headers) on random input and on valid samples with their headers mutated: each either
// decodes within the bounds its header declares or refuses with an Error (a RenderError for the object limit),
// and the work it charges to its meter is proportional to its input and declared size. `npm test` runs few
// cases from fixed seeds; `npm run fuzz:suites` sets FUZZ_RUNS and FUZZ_SEED.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { decodeBitmapFont } from '../renderer/decode/bitmap-font.js';
import { decodeBmpToBitmap } from '../renderer/decode/bmp-decode.js';
import { decodeGraphic, MAX_OBJECT_BYTES, type Bitmap } from '../renderer/decode/grf.js';
import { MAX_GLYPH_STEPS } from '../renderer/decode/font-tables.js';
import { readImageHeader } from '../renderer/decode/image-header.js';
import { MAX_FONT_READS, readDownloadedFont } from '../renderer/decode/outline-font.js';
import { decodePngToBitmap, MAX_IMAGE_SIDE } from '../renderer/decode/png-decode.js';
import { RenderError } from '../renderer/errors.js';
import {
  bitmapFontSample,
  bmpSamples,
  countingMeter,
  grfSamples,
  pngSamples,
  type CountingMeter,
} from './helpers/decoder-samples.js';
import { fuzzParams } from './helpers/fuzz-cases.js';
import {
  cffSquareFont,
  doublingCompositeFont,
  doublingSubrFont,
  manyContourFont,
  selfCompositeFont,
  squareFont,
} from './helpers/hostile-fonts.js';

/** Plain comparisons (chai per case would dominate the run time); the first broken invariant throws. */
function invariant(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** Runs a decoder: its result, or the Error it refused with (anything else thrown fails the property). */
function refusedOr<T>(decode: () => T, allowed: (e: RenderError) => boolean = () => false): T | Error {
  try {
    return decode();
  } catch (e) {
    if (e instanceof RenderError && !allowed(e)) throw e;
    if (!(e instanceof Error) || e instanceof TypeError || e instanceof RangeError) throw e;
    return e;
  }
}

/** Header-sized integers: small, at the limits, and past them. */
const extreme = fc.oneof(
  fc.integer({ min: 0, max: 300 }),
  fc.constantFrom(0, 1, 2, 31, 32, 33, 1999, 2000, 2001, 0x7fff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff),
  fc.nat(),
);

/** Byte edits of a sample: a byte at an offset, or a 32-bit value written little- or big-endian. */
const edits = fc.array(fc.tuple(fc.nat(), extreme, fc.constantFrom('byte', 'le32', 'be32', 'be16')), {
  minLength: 1,
  maxLength: 6,
});

function edited(sample: Uint8Array, changes: [number, number, string][], within: number): Buffer {
  const b = Buffer.from(sample);
  for (const [at, v, how] of changes) {
    const i = at % Math.min(within, b.length);
    if (how === 'byte') b[i] = v & 0xff;
    else if (how === 'be16' && i + 2 <= b.length) b.writeUInt16BE(v & 0xffff, i);
    else if (i + 4 <= b.length) how === 'le32' ? b.writeUInt32LE(v >>> 0, i) : b.writeUInt32BE(v >>> 0, i);
  }
  return b;
}

/** Charges stay proportional to the units charged: at most one call per row or chunk is checked by each property. */
function checkBitmap(bmp: Bitmap, m: CountingMeter, what: string): void {
  invariant(bmp.data.length === bmp.stride * bmp.height, `${what}: ${bmp.data.length} bytes for its size`);
  invariant(m.claimed >= bmp.data.length, `${what}: ${bmp.data.length} bytes made, ${m.claimed} claimed`);
}

describe('fuzz: decoders of bytes arriving in ZPL', function () {
  this.timeout(600_000);

  it('GRF ASCII hex and binary data: a bitmap of the declared size, work = input + declared nibbles', () => {
    const code = fc.constantFrom(...'0123456789ABCDEFabcdef,!: \nGHIJKLMNOPQRSTUVWXYghijklmnopqrstuvwxyz%'.split(''));
    const data = fc.oneof(
      fc.array(fc.oneof(code, fc.constantFrom('zzzzzzzzzz', ':::::::', ',,,,,', '!!!!!')), { maxLength: 300 }),
      fc
        .tuple(fc.constantFrom(...grfSamples()), fc.array(fc.tuple(fc.nat(), code), { maxLength: 8 }))
        .map(([s, ins]) => {
          const chars = s.data.split('');
          for (const [at, c] of ins) chars.splice(at % (chars.length + 1), 0, c);
          return chars;
        }),
    );
    const spec = fc.record({
      totalBytes: fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: 0, max: 20_000 })),
      rowBytes: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.constantFrom(400, 99_999)),
      binary: fc.boolean(),
    });
    fc.assert(
      fc.property(data, spec, (chars, s) => {
        const bytes = Buffer.from(chars.join(''), 'latin1');
        const m = countingMeter();
        const bmp = decodeGraphic(bytes, { ...s, what: 'G' }, m, () => {});
        const stride = Math.max(1, s.rowBytes);
        const size = stride * Math.ceil(s.totalBytes / stride);
        invariant(bmp.data.length === size && m.claimed === size, `bitmap ${bmp.data.length}, claimed ${m.claimed}`);
        const bound = bytes.length + (s.binary ? 0 : 2 * s.totalBytes);
        invariant(m.charged <= bound, `charged ${m.charged} for ${bytes.length} bytes, ${s.totalBytes} declared`);
        invariant(m.charges <= Math.ceil(bound / 4096) + 2, `${m.charges} charges for ${m.charged} units`);
      }),
      fuzzParams(0xd1, 300),
    );
  });

  it('Z64 and B64 payloads: inflated to the declared size, or to the object limit only after claiming it', () => {
    const payload = fc.record({
      bytes: fc.oneof(
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 0, max: 200_000 }).map((n) => new Uint8Array(n)),
      ),
      declared: fc.integer({ min: 0, max: 5000 }),
      zlib: fc.boolean(),
      flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 32, max: 126 })), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(payload, (p) => {
        const body = (p.zlib ? deflateSync(p.bytes) : Buffer.from(p.bytes)).toString('base64');
        const text = Buffer.from(`:${p.zlib ? 'Z64' : 'B64'}:${body}:0000`, 'latin1');
        for (const [at, c] of p.flips) text[5 + (at % Math.max(1, body.length))] = c;
        const m = countingMeter();
        const bmp = decodeGraphic(
          text,
          { totalBytes: p.declared, rowBytes: 10, binary: false, what: 'G' },
          m,
          () => {},
        );
        const retried = m.claimed > bmp.data.length;
        invariant(
          m.claimed === bmp.data.length + (retried ? MAX_OBJECT_BYTES + 1 : 0),
          `claimed ${m.claimed} for a ${bmp.data.length}-byte bitmap`,
        );
        invariant(!retried || p.zlib, 'only inflating is retried');
        const inflated = retried ? MAX_OBJECT_BYTES + 1 : p.declared + 1;
        invariant(m.charged <= text.length + inflated, `charged ${m.charged} for ${text.length} bytes`);
      }),
      fuzzParams(0xd2, 200),
    );
  });

  it('BMP: headers mutated decode within 2,000 pixels a side and the bytes there are, or are refused', () => {
    const evil = Buffer.from(
      '424D460000000000000042000000280000000100000001000000010020000300000004000000130B0000130B00000000000000000000FFFFFFFF00FF0000FF00000000000000',
      'hex',
    );
    const samples = [...bmpSamples(), evil];
    fc.assert(
      fc.property(fc.constantFrom(...samples.keys()), edits, (k, changes) => {
        const bytes = edited(samples[k]!, changes, 70);
        const m = countingMeter();
        const bmp = refusedOr(
          () => decodeBmpToBitmap(bytes, m),
          (e) => e.code === 'too-large',
        );
        if (bmp instanceof Error) return invariant(m.claimed === 0, `refused after claiming ${m.claimed}`);
        checkBitmap(bmp, m, 'BMP');
        invariant(bmp.width <= MAX_IMAGE_SIDE && bmp.height <= MAX_IMAGE_SIDE, `${bmp.width}x${bmp.height}`);
        invariant(m.claimed <= bytes.length, `claimed ${m.claimed} from ${bytes.length} bytes`);
        invariant(m.charges === bmp.height, `${m.charges} charges for ${bmp.height} rows`);
        invariant(m.charged <= 9 * bytes.length, `charged ${m.charged} for ${bytes.length} bytes`);
      }),
      fuzzParams(0xd3, 400),
    );
  });

  it('PNG: headers, chunk lengths and data mutated decode within their header, or are refused', () => {
    const samples = pngSamples();
    const bomb = deflateSync(Buffer.alloc(4 * 1024 * 1024));
    const ihdr = fc.record({
      width: extreme,
      height: extreme,
      depth: fc.integer({ min: 0, max: 255 }),
      colorType: fc.integer({ min: 0, max: 7 }),
      method: fc.constantFrom(0, 0, 0, 1),
      interlace: fc.constantFrom(0, 0, 1, 2),
    });
    const png = fc.oneof(
      fc.tuple(fc.constantFrom(...samples.keys()), edits).map(([k, c]) => edited(samples[k]!, c, samples[k]!.length)),
      fc.tuple(fc.constantFrom(...samples.keys()), ihdr, fc.boolean()).map(([k, h, withBomb]) => {
        const b = Buffer.from(samples[k]!);
        b.writeUInt32BE(h.width >>> 0, 16);
        b.writeUInt32BE(h.height >>> 0, 20);
        b[24] = h.depth;
        b[25] = h.colorType;
        b[26] = h.method;
        b[28] = h.interlace;
        if (!withBomb) return b;
        const idat = Buffer.alloc(12 + bomb.length);
        idat.writeUInt32BE(bomb.length, 0);
        idat.write('IDAT', 4, 'latin1');
        bomb.copy(idat, 8);
        return Buffer.concat([b.subarray(0, 33), idat, b.subarray(b.length - 12)]);
      }),
    );
    const side = (MAX_IMAGE_SIDE * 8 + 1) * MAX_IMAGE_SIDE + (MAX_IMAGE_SIDE / 8) * MAX_IMAGE_SIDE;
    fc.assert(
      fc.property(png, (bytes) => {
        const m = countingMeter();
        const bmp = refusedOr(
          () => decodePngToBitmap(bytes, m),
          (e) => e.code === 'too-large',
        );
        invariant(m.claimed <= side, `claimed ${m.claimed}`);
        if (bmp instanceof Error) return;
        checkBitmap(bmp, m, 'PNG');
        invariant(m.charges === bmp.height + 1, `${m.charges} charges for ${bmp.height} rows`);
        invariant(m.charged <= bytes.length + 9 * m.claimed, `charged ${m.charged}, claimed ${m.claimed}`);
      }),
      fuzzParams(0xd4, 300),
    );
  });

  it('~DB bitmap fonts: glyphs with hostile headers are skipped or claimed, work = input + bitmaps', () => {
    const field = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map(String),
      fc.constantFrom('32000', '32001', '-5', '99999', '', 'x', '0041', '1e3', ' 7 '),
    );
    const glyph = fc
      .tuple(fc.array(field, { minLength: 4, maxLength: 8 }), fc.stringMatching(/^[0-9A-Fa-fO \n]{0,40}$/))
      .map(([fields, rows]) => `#${fields.join('.')}.${rows}`);
    const data = fc.oneof(
      fc.array(glyph, { maxLength: 12 }).map((g) => g.join('\n')),
      fc
        .tuple(
          fc.constant(bitmapFontSample()),
          fc.array(fc.tuple(fc.nat(), fc.constantFrom('#', '.', '-', '9')), { maxLength: 6 }),
        )
        .map(([s, ins]) => {
          const chars = s.split('');
          for (const [at, c] of ins) chars.splice(at % (chars.length + 1), 0, c);
          return chars.join('');
        }),
    );
    fc.assert(
      fc.property(data, (text) => {
        const bytes = Buffer.from(text, 'latin1');
        const m = countingMeter();
        // The object limit, as ~DB applies it.
        const meter = {
          ...m,
          claim(n: number, what: string) {
            if (m.claimed + n > MAX_OBJECT_BYTES) throw new RenderError('too-large', what);
            m.claim(n, what);
          },
          charge: (n: number) => m.charge(n),
        };
        const font = refusedOr(
          () => decodeBitmapFont({ cellHeight: 9, cellWidth: 8, baseline: 7, space: 4 }, bytes, () => {}, meter),
          (e) => e.code === 'too-large',
        );
        const glyphs = text.split('#').length - 1;
        invariant(m.charged <= bytes.length + m.claimed + 32_001 * glyphs, `charged ${m.charged} for ${bytes.length}`);
        if (font instanceof Error) return;
        let made = 0;
        for (const g of font.glyphs.values()) made += g.bits.data.length;
        // A character sent twice keeps its last bitmap; each was claimed.
        invariant(made <= m.claimed, `${made} bytes of glyphs, ${m.claimed} claimed`);
      }),
      fuzzParams(0xd5, 300),
    );
  });

  it('TrueType/OpenType: mutated and hostile fonts are refused, or open and make each glyph within its read limit', () => {
    const dejavu = readFileSync(fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf')));
    const valid = [squareFont(), cffSquareFont(), dejavu];
    const hostile = fc.oneof(
      fc.integer({ min: 1, max: 40 }).map(doublingCompositeFont),
      fc.constant(selfCompositeFont()),
      fc.integer({ min: 1, max: 32767 }).map(manyContourFont),
      fc.integer({ min: 1, max: 60 }).map(doublingSubrFont),
    );
    const mutated = fc
      .tuple(fc.constantFrom(...valid.keys()), edits, fc.boolean(), fc.nat())
      .map(([k, changes, early, cut]) => {
        const font = edited(valid[k]!, changes, early ? 512 : valid[k]!.length);
        return cut % 4 === 0 ? font.subarray(0, cut % font.length) : font;
      });
    const points = [0x41, 0x42, 0x43, 0x20, 0x61, 0xe9, 0x20ac];
    fc.assert(
      fc.property(fc.oneof(hostile, mutated), (bytes) => {
        const m = countingMeter();
        const font = readDownloadedFont(bytes, 'F', m);
        invariant(m.charged <= 2 * bytes.length + MAX_FONT_READS.open + 64, `opening charged ${m.charged}`);
        if (typeof font === 'string') return invariant(m.claimed === 0, `refused after claiming ${m.claimed}`);
        for (const cp of points) {
          const [charged, claimed] = [m.charged, m.claimed];
          const g = font.glyph(cp);
          const spent = m.charged - charged;
          const kept = m.claimed - claimed;
          // Its reads, what it kept, and the decoding steps checkFontTables priced it at (at most MAX_GLYPH_STEPS).
          invariant(
            spent <= MAX_FONT_READS.glyph + MAX_GLYPH_STEPS + kept,
            `U+${cp.toString(16)} charged ${spent}, claimed ${kept}`,
          );
          invariant(kept <= 256 * MAX_FONT_READS.glyph, `U+${cp.toString(16)} claimed ${kept}`);
          invariant(g === null || Array.isArray(g.contours), 'a glyph or none');
        }
      }),
      // 255 contours of 65,535 points: the dearest glyph the table check lets through (found at FUZZ_SEED=26277859).
      { ...fuzzParams(0xd6, 60), examples: [[manyContourFont(255)]] },
    );
  });

  it('image headers: any bytes give a header of their sizes or none, reading each size field once', () => {
    const starts = [
      Buffer.from('89504E470D0A1A0A', 'hex'),
      Buffer.from('GIF89a'),
      Buffer.from([0xff, 0xd8]),
      Buffer.from('BM'),
    ];
    const bytes = fc.oneof(
      fc.tuple(fc.constantFrom(...starts), fc.uint8Array({ maxLength: 400 })).map(([a, b]) => Buffer.concat([a, b])),
      fc.tuple(fc.constantFrom(...[...pngSamples(), ...bmpSamples()].keys()), edits).map(([k, c]) => {
        const s = [...pngSamples(), ...bmpSamples()][k]!;
        return edited(s, c, s.length);
      }),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const h = readImageHeader(b);
        invariant(!h || h.sizes.length <= b.length / 4, `${h?.sizes.length} sizes in ${b.length} bytes`);
      }),
      fuzzParams(0xd7, 300),
    );
  });
});
