// Hostile ZPL for the fuzz suites: the 600 corpus documents (corpus/manifest.json) mutated
// (truncated, spliced, numbers blown up, bytes injected) plus hand-shaped attacks on the parts of ZPL
// that carry lengths, recursion or encodings. `npm test` runs them with a fixed seed and few runs;
// `npm run fuzz:suites` sets FUZZ_RUNS and FUZZ_SEED for a longer, differently seeded run.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { isBarcodeKind } from '../../renderer/commands/field-kinds.js';
import { commandTable } from '../../renderer/commands/index.js';
import type { Dpmm, RenderRequest } from '../../renderer/index.js';
import type { ParamSpec } from '../../renderer/zpl/params.js';
import { loadCorpus, readCorpusFile } from '../../bench/corpus.js';
import { bmpSamples } from './decoder-samples.js';

/** Runs per property: small under `npm test`, FUZZ_RUNS under `npm run fuzz:suites`. */
export function fuzzRuns(defaultRuns: number): number {
  const n = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : defaultRuns;
}

let randomSeed: number | undefined;

/** FUZZ_SEED=<n> replays a run; FUZZ_SEED=random draws one (printed, so a failure can be replayed). */
export function fuzzSeed(fixed: number): number {
  const env = process.env.FUZZ_SEED;
  if (env === 'random') {
    if (randomSeed === undefined) {
      randomSeed = Math.floor(Math.random() * 0x7fffffff);
      process.stdout.write(`      fuzz seed: FUZZ_SEED=${randomSeed}\n`);
    }
    return randomSeed + fixed;
  }
  const s = Number(env);
  return env !== undefined && env !== '' && Number.isInteger(s) ? s + fixed : fixed;
}

/** fast-check parameters: seeded, bounded, and with the failing seed/path printed for a replay. */
export function fuzzParams(fixedSeed: number, defaultRuns: number): fc.Parameters<unknown> {
  return { seed: fuzzSeed(fixedSeed), numRuns: fuzzRuns(defaultRuns), endOnFailure: process.env.FUZZ_SHRINK !== '1' };
}

export interface Fixture {
  id: string;
  group: string;
  zpl: Uint8Array;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index: number;
}

let fixtures: Fixture[] | undefined;

/** Every document in the manifest, read once. */
export function loadFixtures(): Fixture[] {
  if (fixtures) return fixtures;
  const corpus = loadCorpus();
  fixtures = corpus.cases.map((e) => ({
    id: e.id,
    group: e.group,
    dpmm: e.dpmm,
    widthIn: e.widthIn,
    heightIn: e.heightIn,
    index: e.index ?? 0,
    zpl: new Uint8Array(readCorpusFile(corpus, e.zpl)),
  }));
  return fixtures;
}

export interface FuzzCase {
  /** How the document was made (shown when a property fails). */
  how: string;
  zpl: Uint8Array;
  req: RenderRequest;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const fromLatin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

let fontBytes: Uint8Array | undefined;
/** DejaVu Sans Mono (installed with the package), the seed of the broken-font attacks. */
function fuzzFont(): Uint8Array {
  fontBytes ??= new Uint8Array(
    readFileSync(fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'))),
  );
  return fontBytes;
}

/** Numbers that break naive parameter handling. */
export const hostileNumber = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '-99999',
    '99999999',
    '2147483648',
    '4294967296',
    '9007199254740993',
    '1e308',
    '1e-308',
    '-0',
    '0x10',
    'NaN',
    'Infinity',
    '+5',
    '.5',
    '5.',
    '1,2',
    '',
    ' ',
    '00000000000000000000000000001',
    '9'.repeat(400),
  ),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
);

/** A fixture, picked by index so fast-check can shrink toward the first ones. */
function fixtureArb(): fc.Arbitrary<Fixture> {
  const all = loadFixtures();
  return fc.nat({ max: all.length - 1 }).map((i) => all[i]);
}

const requestShape = fc.record({
  format: fc.constantFrom<'png' | 'pdf'>('png', 'png', 'png', 'pdf'),
  index: fc.oneof(fc.constant(0), fc.constant(0), fc.nat({ max: 3 })),
  allPages: fc.boolean(),
  rotation: fc.constantFrom<0 | 90 | 180 | 270>(0, 0, 90, 180, 270),
  quality: fc.constantFrom<'grayscale' | 'bitonal'>('grayscale', 'grayscale', 'bitonal'),
});

function requestFor(f: Fixture, shape: typeof requestShape extends fc.Arbitrary<infer T> ? T : never): RenderRequest {
  const { format } = shape;
  const index = format === 'pdf' && shape.allPages ? undefined : shape.index;
  return {
    dpmm: f.dpmm,
    widthIn: f.widthIn,
    heightIn: f.heightIn,
    format,
    ...(index !== undefined && { index }),
    ...(format === 'png' && { rotation: shape.rotation, quality: shape.quality }),
  };
}

type Mutation = (doc: Uint8Array, other: Uint8Array) => fc.Arbitrary<{ how: string; zpl: Uint8Array }>;

/** Ways to break a real document. */
const mutations: Record<string, Mutation> = {
  truncate: (d) => fc.nat({ max: d.length }).map((n) => ({ how: `truncated at ${n}`, zpl: d.subarray(0, n) })),
  splice: (d, o) =>
    fc.tuple(fc.nat({ max: d.length }), fc.nat({ max: o.length })).map(([a, b]) => ({
      how: `first ${a} bytes + another fixture from ${b}`,
      zpl: concat(d.subarray(0, a), o.subarray(b)),
    })),
  inject: (d) =>
    fc.tuple(fc.nat({ max: d.length }), fc.uint8Array({ minLength: 1, maxLength: 64 })).map(([at, junk]) => ({
      how: `${junk.length} random bytes at ${at}`,
      zpl: concat(d.subarray(0, at), junk, d.subarray(at)),
    })),
  flip: (d) =>
    fc
      .array(fc.tuple(fc.nat({ max: Math.max(0, d.length - 1) }), fc.integer({ min: 0, max: 255 })), {
        minLength: 1,
        maxLength: 16,
      })
      .map((edits) => {
        const z = d.slice();
        for (const [at, v] of edits) if (at < z.length) z[at] = v;
        return { how: `${edits.length} bytes overwritten`, zpl: z };
      }),
  numbers: (d) =>
    fc.array(hostileNumber, { minLength: 1, maxLength: 8 }).chain((nums) =>
      fc.nat().map((start) => {
        // Replace the k-th, k+1-th... digit runs (parameters) with hostile values.
        let k = 0;
        const text = latin1(d).replace(/-?\d+(\.\d+)?/g, (m) => {
          const i = k++ - (start % 50);
          return i >= 0 && i < nums.length ? nums[i] : m;
        });
        return { how: `numbers replaced with ${JSON.stringify(nums).slice(0, 120)}`, zpl: fromLatin1(text) };
      }),
    ),
  unterminated: (d) => fc.constant({ how: 'every ^XZ removed', zpl: fromLatin1(latin1(d).replace(/\^XZ/gi, '')) }),
  repeatCommand: (d) =>
    fc.tuple(fc.nat({ max: d.length }), fc.integer({ min: 2, max: 40 })).map(([at, times]) => {
      // Repeats the command starting at the first prefix after `at`.
      const text = latin1(d);
      const s = text.indexOf('^', at);
      if (s < 0) return { how: 'nothing to repeat', zpl: d };
      const e = text.indexOf('^', s + 1);
      const cmd = text.slice(s, e < 0 ? text.length : e);
      return {
        how: `${cmd.slice(0, 40)} repeated ${times} times`,
        zpl: fromLatin1(text.slice(0, s) + cmd.repeat(times) + text.slice(s)),
      };
    }),
};

/** A fixture document broken in one or two ways, with a request around it. */
export function mutatedFixture(): fc.Arbitrary<FuzzCase> {
  const names = Object.keys(mutations);
  return fc
    .tuple(
      fixtureArb(),
      fixtureArb(),
      fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 2 }),
      requestShape,
    )
    .chain(([f, other, chosen, shape]) => {
      let arb: fc.Arbitrary<{ how: string; zpl: Uint8Array }> = fc.constant({ how: f.id, zpl: f.zpl });
      for (const name of chosen) {
        arb = arb.chain((acc) =>
          mutations[name](acc.zpl, other.zpl).map((m) => ({ how: `${acc.how}; ${m.how}`, zpl: m.zpl })),
        );
      }
      return arb.map(({ how, zpl }) => ({
        how,
        zpl,
        req: requestFor(f, shape),
      }));
    });
}

const small = (format: 'png' | 'pdf' = 'png'): RenderRequest => ({
  dpmm: 8,
  widthIn: 2,
  heightIn: 2,
  format,
  ...(format === 'png' && { index: 0 }),
});

const bombs = new Map<string, Buffer>();
/** `mb` megabytes of one byte value, deflated (made once: deflating them takes a while). */
function zlibBomb(mb: number, fill: number): Buffer {
  const key = `${mb}/${fill}`;
  let b = bombs.get(key);
  if (!b) {
    b = deflateSync(Buffer.alloc(mb * 1024 * 1024, fill), { level: 9 });
    bombs.set(key, b);
  }
  return b;
}

interface PngForgery {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  interlace: number;
  idat: string;
  chunkLength?: number;
}

/** A PNG whose header says what the fuzzer likes, with real, bomb, junk or missing image data. */
function forgedPng(p: PngForgery): Uint8Array {
  const chunk = (type: string, data: Buffer, length = data.length): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(length >>> 0, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(p.width >>> 0, 0);
  ihdr.writeUInt32BE(p.height >>> 0, 4);
  ihdr[8] = p.depth;
  ihdr[9] = p.colorType;
  ihdr[12] = p.interlace;
  // Real rows for a small grey image; the header may disagree with them.
  const rows = Buffer.alloc((Math.min(p.width, 64) + 1) * Math.min(p.height, 64) * 2, 0x55);
  const idat = {
    real: deflateSync(rows),
    bomb: zlibBomb(48, 0),
    junk: Buffer.from('not zlib data at all'),
    none: undefined,
    cut: deflateSync(rows).subarray(0, 10),
  }[p.idat];
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]), p.chunkLength),
      ...(idat ? [chunk('IDAT', idat)] : []),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** Hand-shaped attacks on lengths, recursion, encodings and counts. */
export function craftedAttack(): fc.Arbitrary<FuzzCase> {
  const lyingGf = fc
    .tuple(
      fc.constantFrom('A', 'B', 'C'),
      hostileNumber,
      hostileNumber,
      hostileNumber,
      fc.uint8Array({ maxLength: 300 }),
      fc.boolean(),
    )
    .map(([fmt, total, field, row, data, hex]) => {
      const body = fmt === 'A' && hex ? enc(Buffer.from(data).toString('hex').toUpperCase()) : data;
      return {
        how: `^GF${fmt},${total},${field},${row} with ${body.length} data bytes`,
        zpl: concat(enc(`^XA^FO10,10^GF${fmt},${total},${field},${row},`), body, enc('^FS^FO5,5^GB50,50,2^FS^XZ')),
        req: small(),
      };
    });
  const lyingDownload = fc
    .tuple(
      fc.constantFrom('~DG', '~DY', '~DU', '~DT', '~DB'),
      hostileNumber,
      hostileNumber,
      fc.uint8Array({ maxLength: 200 }),
    )
    .map(([cmd, size, row, data]) => {
      const head =
        cmd === '~DY'
          ? `${cmd}R:X.GRF,A,G,${size},${row},`
          : cmd === '~DG'
            ? `${cmd}R:X.GRF,${size},${row},`
            : `${cmd}R:X.FNT,${size},`;
      return {
        how: `${head} + ${data.length} bytes`,
        zpl: concat(enc(head), data, enc('^XA^FO10,10^XGR:X.GRF,1,1^FS^FO10,10^IMR:X.GRF^FS^XZ')),
        req: small(),
      };
    });
  const nestedDf = fc.integer({ min: 1, max: 12 }).map((depth) => {
    let s = '';
    for (let i = 0; i < depth; i++) s += `^XA^DFR:F${i}.ZPL^FS^FO${i * 5},${i * 5}^GB20,20,1^FS`;
    s += '^XZ'.repeat(depth);
    for (let i = 0; i < depth; i++) s += `^XA^XFR:F${i}.ZPL^FS^XZ`;
    return { how: `${depth} nested ^DF`, zpl: enc(s), req: small('pdf') };
  });
  const recursiveXf = fc
    .tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 3 }))
    .map(([width, formats]) => {
      // Each format recalls itself and the others `width` times: exponential if replay is not bounded.
      let s = '';
      const names = Array.from({ length: formats }, (_, i) => `R:LOOP${i}.ZPL`);
      for (const n of names)
        s += `^XA^DF${n}^FS^FO10,10^GB30,30,2^FS${names
          .map((m) => `^XF${m}^FS`)
          .join('')
          .repeat(width)}^XZ`;
      s += `^XA^XF${names[0]}^FS^XZ`;
      return { how: `${formats} formats recalling each other ${width} times`, zpl: enc(s), req: small() };
    });
  const badUtf8 = fc
    .tuple(
      fc.constantFrom(28, 29, 30, 27, 0, 13, 99),
      fc.uint8Array({ minLength: 1, maxLength: 80 }),
      fc.boolean(),
      fc.constantFrom('0', 'A', 'D'),
    )
    .map(([ci, bytes, fh, font]) => ({
      how: `^CI${ci} ${fh ? 'with ^FH ' : ''}font ${font} and ${bytes.length} raw bytes`,
      zpl: concat(
        enc(`^XA^CI${ci}^FO10,10^A${font}N,30,30${fh ? '^FH' : ''}^FD`),
        fh ? enc('_' + Buffer.from(bytes).toString('hex').replace(/(..)/g, '$1_').slice(0, -1)) : bytes,
        enc('^FS^FB200,3,0,C^FO10,60^A0N,20^FD'),
        bytes,
        enc('^FS^XZ'),
      ),
      req: small(),
    }));
  const counts = fc
    .tuple(hostileNumber, hostileNumber, hostileNumber, fc.constantFrom('png', 'pdf') as fc.Arbitrary<'png' | 'pdf'>)
    .map(([pq, fb, sn, format]) => ({
      how: `^PQ${pq} ^FB${fb} ^SN${sn}`,
      zpl: enc(`^XA^FO10,10^FB${fb},${fb},${fb},L,${fb}^FDtext text text^FS^FO10,50^SN${sn},1,Y^FS^PQ${pq}^XZ`),
      req: small(format),
    }));
  const shapes = fc
    .tuple(
      fc.constantFrom(
        '^GB',
        '^GC',
        '^GE',
        '^GD',
        '^FO',
        '^FT',
        '^LH',
        '^LS',
        '^LT',
        '^PW',
        '^LL',
        '^MU',
        '^FW',
        '^BY',
        '^A0N',
        '^CF',
      ),
      fc.array(hostileNumber, { maxLength: 5 }),
    )
    .map(([cmd, nums]) => ({
      how: `${cmd}${nums.join(',')}`,
      zpl: enc(
        `^XA^FO20,20${cmd}${nums.join(',')}^FS^FO20,20^GB${nums.slice(0, 3).join(',')}^FS^FO30,30^A0N,${nums[0] ?? 10}^FDX^FS^XZ`,
      ),
      req: small(),
    }));
  const randomBytes = fc
    .uint8Array({ maxLength: 2000 })
    .map((b) => ({ how: `${b.length} random bytes`, zpl: b, req: small() }));
  const randomCommands = fc
    .array(
      fc.tuple(
        fc.constantFrom('^', '~'),
        fc.stringMatching(/^[A-Z0-9@]{1,2}$/),
        fc.array(hostileNumber, { maxLength: 4 }),
      ),
      { maxLength: 40 },
    )
    .map((cmds) => {
      const s = '^XA' + cmds.map(([p, n, a]) => `${p}${n}${a.join(',')}`).join('') + '^XZ';
      return { how: s.slice(0, 200), zpl: enc(s), req: small() };
    });
  const hostileFont = fc
    .tuple(
      fc.constantFrom('flip', 'truncate', 'both'),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), { minLength: 1, maxLength: 24 }),
      fc.nat(),
      fc.constantFrom('T', 'E', 'O'),
    )
    .map(([how, flips, cut, ext]) => {
      // A real TrueType font, broken: header and table bytes overwritten and/or cut short.
      let font = fuzzFont().slice();
      if (how !== 'truncate') for (const [at, v, early] of flips) font[early ? at % 4096 : at % font.length] = v;
      if (how !== 'flip') font = font.subarray(0, cut % font.length);
      return {
        how: `~DY font (${how}, ${flips.length} bytes changed, ${font.length} bytes)`,
        zpl: concat(
          enc(`~DYR:FUZZ,B,${ext},${font.length},,`),
          font,
          enc(
            '^XA^A@N,40,40,R:FUZZ^FO10,10^FDHello \u00c5\u00df 123^FS^CI28^A@R,60,30,R:FUZZ^FO10,80^FDW\u20ac@^FS^CWQ,R:FUZZ^AQN,20^FO10,150^FB300,3,0,C^FDwrap me please, friend^FS^XZ',
          ),
        ),
        req: small(),
      };
    });
  const hostilePng = fc
    .record({
      width: fc.constantFrom(0, 1, 7, 64, 2000, 2001, 65535, 0x7fffffff, 0xffffffff),
      height: fc.constantFrom(0, 1, 9, 64, 2000, 2001, 65535, 0x7fffffff),
      depth: fc.constantFrom(1, 2, 4, 8, 16, 0, 3, 255),
      colorType: fc.constantFrom(0, 2, 3, 4, 6, 1, 7),
      interlace: fc.constantFrom(0, 0, 1),
      idat: fc.constantFrom('real', 'bomb', 'junk', 'none', 'cut'),
      chunkLength: fc.constantFrom(undefined, 0, 0xffffffff, 5),
      binary: fc.boolean(),
    })
    .map((p) => {
      const png = forgedPng(p);
      const head = p.binary ? `~DYR:IMG,B,P,${png.length},,` : `~DYR:IMG,P,P,${png.length},,`;
      return {
        how: `~DY PNG ${JSON.stringify(p)}`,
        zpl: concat(
          enc(head),
          p.binary ? png : enc(Buffer.from(png).toString('hex').toUpperCase()),
          enc('^XA^FO10,10^XGR:IMG.PNG,2,2^FS^FO50,50^IMR:IMG.PNG^FS^XZ'),
        ),
        req: small(),
      };
    });
  const hostileBmp = fc
    .tuple(
      fc.constantFrom(...bmpSamples()),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 0x20, 0xff, 0x80000000, 0xffffffff), fc.boolean()), {
        minLength: 1,
        maxLength: 4,
      }),
    )
    .map(([sample, edits]) => {
      // A real BMP whose header fields (sizes, bit counts, masks, palette sizes) are overwritten.
      const bmp = Buffer.from(sample);
      for (const [at, v, wide] of edits) {
        const i = at % Math.min(70, bmp.length - 4);
        if (wide) bmp.writeUInt32LE(v >>> 0, i);
        else bmp[i] = v & 0xff;
      }
      return {
        how: `~DY BMP with ${edits.length} header fields changed`,
        zpl: concat(
          enc(`~DYR:IMG,A,B,${bmp.length},,${bmp.toString('hex').toUpperCase()}`),
          enc('^XA^FO10,10^IMR:IMG.BMP^FS^FO50,50^XGR:IMG.BMP,2,2^FS^FO5,5^GB50,50,2^FS^XZ'),
        ),
        req: small(),
      };
    });
  const grfCodes = fc
    .tuple(
      fc.array(fc.constantFrom(...'0F,!:GYgz'.split(''), 'zzzzzzzzzz', '::::::::'), { maxLength: 200 }),
      fc.integer({ min: 0, max: 2000 }),
      fc.constantFrom(1, 7, 400, 99999),
    )
    .map(([codes, total, row]) => ({
      how: `^GFA,${total},${total},${row} with ${codes.length} run-length codes`,
      zpl: enc(`^XA^FO10,10^GFA,${total},${total},${row},${codes.join('')}^FS^FO5,5^GB50,50,2^FS^XZ`),
      req: small(),
    }));
  const z64Bomb = fc
    .tuple(fc.constantFrom(1, 4, 64), fc.constantFrom('Z64', 'B64'), fc.boolean())
    .map(([mb, kind, asGf]) => {
      // A few KB of base64 that inflates to megabytes.
      const n = mb * 1024 * 1024;
      const data = kind === 'Z64' ? zlibBomb(mb, 0xff) : Buffer.alloc(4096, 0xff);
      const payload = `:${kind}:${data.toString('base64')}:0000`;
      return {
        how: `${asGf ? '^GF' : '~DG'} ${kind} payload of ${mb} MB`,
        zpl: enc(
          asGf
            ? `^XA^FO0,0^GFA,${n},${n},100,${payload}^FS^XZ`
            : `~DGR:BOMB.GRF,${n},100,${payload}^XA^FO0,0^XGR:BOMB.GRF,1,1^FS^XZ`,
        ),
        req: small(),
      };
    });
  const textField = fc
    .record({
      font: fc.constantFrom('0', 'A', 'B', 'D', 'E', 'F', 'G', 'H', 'P', 'V', '1', 'Z', '@'),
      orientation: fc.constantFrom('N', 'R', 'I', 'B', 'X', ''),
      height: fc.oneof(fc.integer({ min: 0, max: 400 }).map(String), hostileNumber),
      width: fc.oneof(fc.integer({ min: 0, max: 400 }).map(String), hostileNumber),
      block: fc.constantFrom('', '^FB', '^TB'),
      blockArgs: fc.array(
        fc.oneof(
          fc.integer({ min: -5, max: 2000 }).map(String),
          fc.constantFrom('L', 'C', 'R', 'J', 'N', 'B', '\\&'),
          hostileNumber,
        ),
        { maxLength: 5 },
      ),
      direction: fc.constantFrom('', '^FPH', '^FPV', '^FPR,5', '^FPV,-9'),
      charset: fc.constantFrom('', '^CI0', '^CI13', '^CI27', '^CI28', '^CI29', '^CI30', '^CI31', '^CI36'),
      fh: fc.constantFrom('', '^FH', '^FH\\', '^FH_'),
      data: fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.constantFrom('_', '__', '_4', '_zz', '_C3_A9', '\\&\\&', 'a\\&b', ' '.repeat(300)),
        fc.stringMatching(/^[ _0-9A-Fa-f&\\]{0,80}$/),
      ),
      reverse: fc.boolean(),
      origin: fc.constantFrom('^FO', '^FT'),
    })
    .map((t) => {
      const data = t.data.replace(/[\^~]/g, '');
      const zpl = `^XA${t.charset}${t.origin}20,40${t.reverse ? '^FR' : ''}^A${t.font}${t.orientation},${t.height},${t.width}${t.block ? `${t.block}${t.blockArgs.join(',')}` : ''}${t.direction}${t.fh}^FD${data}^FS^XZ`;
      return { how: zpl.slice(0, 300), zpl: enc(zpl), req: small() };
    });
  return fc.oneof(
    lyingGf,
    lyingDownload,
    nestedDf,
    recursiveXf,
    badUtf8,
    counts,
    shapes,
    randomBytes,
    randomCommands,
    hostileFont,
    hostilePng,
    hostileBmp,
    grfCodes,
    z64Bomb,
    textField,
  );
}

/** The cases of one property: drawn up front from a fixed seed so they can run on every worker at once. */
export function drawCases<T>(arb: fc.Arbitrary<T>, fixedSeed: number, defaultRuns: number): T[] {
  return fc.sample(arb, { seed: fuzzSeed(fixedSeed), numRuns: fuzzRuns(defaultRuns) });
}

/** Runs `check` over the cases, `concurrency` at a time; returns every failure (not just the first). */
export async function runAll<T>(cases: T[], concurrency: number, check: (c: T) => Promise<unknown>): Promise<Error[]> {
  const failures: Error[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < cases.length) {
      const c = cases[next++];
      try {
        await check(c);
      } catch (e) {
        failures.push(e as Error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return failures;
}

/** One assertion message for all failures of a batch. */
export function reportFailures(failures: Error[]): string {
  return (
    `${failures.length} failing case(s):\n` +
    failures
      .slice(0, 5)
      .map((f) => f.message.slice(0, 3000))
      .join('\n---\n')
  );
}

// ---- barcodes ------------------------------------------------------------------------------

/** Every command that makes a barcode field (aliases such as ^B0 included). */
export const BARCODE_COMMANDS = Object.keys(commandTable)
  .filter((k) => isBarcodeKind(commandTable[k]!.makes ?? ''))
  .sort();

/** A value for one parameter: what the table allows (edges included), or, when `hostile`, sometimes garbage. */
export function paramValue(spec: ParamSpec, hostile: boolean): fc.Arbitrary<string> {
  const valid: fc.Arbitrary<string>[] = [];
  if (spec.kind === 'enum' && spec.values?.length) valid.push(fc.constantFrom(...spec.values));
  if (spec.kind === 'bool') valid.push(fc.constantFrom('Y', 'N'));
  if (spec.kind === 'int' || spec.kind === 'float') {
    const min = spec.min ?? 0,
      max = Math.min(spec.max ?? 100, 400);
    valid.push(
      fc.integer({ min, max: Math.max(min, max) }).map(String),
      fc.constantFrom(String(min), String(spec.max ?? max)),
    );
  }
  if (spec.kind === 'text') valid.push(fc.string({ maxLength: 6 }).map((s) => s.replace(/[\^~,]/g, '')));
  const sane = fc.oneof(...(valid.length ? valid : [fc.constant('')]), fc.constant(''));
  if (!hostile) return sane;
  return fc.oneof(
    { weight: 3, arbitrary: sane },
    { weight: 1, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom('Z', 'R', 'I', 'B') },
  );
}

/** Field data: digits and text the symbologies expect, control and high bytes they do not. */
export const fieldData = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(/^[0-9]{1,20}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9A-Z\-. $/+%]{1,30}$/) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 120 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '>;123456>6ABC>5',
      '>:>8(01)09501101530003',
      '_1',
      'MM,A123',
      'HA,Hello',
      'QA,0123',
      '>0>1>2',
      '@@@',
      '>',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b).toString('latin1')) },
);

const saneBy = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.constantFrom('2.0', '2.5', '3.0', '3'), fc.integer({ min: 10, max: 150 }))
  .map((a) => a.map(String));
const hostileBy = fc.tuple(
  fc.integer({ min: -2, max: 12 }).map(String),
  fc.oneof(fc.constantFrom('2.0', '1.5', '9', '-1'), hostileNumber),
  hostileNumber,
);

/** One ^B* field: mostly well-formed parameters with random data, a third of the time hostile ones. */
export function barcodeCase(): fc.Arbitrary<FuzzCase> {
  return fc
    .tuple(fc.constantFrom(...BARCODE_COMMANDS), fc.nat({ max: 2 }))
    .chain(([cmd, h]) => {
      const hostile = h === 0;
      const specs = commandTable[cmd].params ?? [];
      return fc.record({
        cmd: fc.constant(cmd),
        params: fc.tuple(...specs.map((p) => paramValue(p, hostile))),
        extra: hostile ? fc.array(hostileNumber, { maxLength: 2 }) : fc.constant([] as string[]),
        by: hostile ? hostileBy : saneBy,
        data: fieldData,
        hex: fc.boolean(),
        dpmm: fc.constantFrom(6, 8, 12, 24) as fc.Arbitrary<6 | 8 | 12 | 24>,
        format: fc.constantFrom('png', 'png', 'pdf') as fc.Arbitrary<'png' | 'pdf'>,
      });
    })
    .map(({ cmd, params, extra, by, data, hex, dpmm, format }) => {
      const args = [...params, ...extra].join(',').replace(/,+$/, '');
      const payload = hex
        ? data.replace(/[\^~_]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)
        : data.replace(/[\^~]/g, '');
      const zpl = `^XA^BY${by.join(',')}^FO20,20${cmd}${args}${hex ? '^FH' : ''}^FD${payload}^FS^XZ`;
      return {
        how: zpl.slice(0, 300),
        zpl: new Uint8Array(Buffer.from(zpl, 'latin1')),
        req: { dpmm, widthIn: 3, heightIn: 2, format, ...(format === 'png' && { index: 0 }) },
      };
    });
}
