// Every input surface of the service, each with the fast-check arbitrary of its hostile requests: the command
// families (from the renderer's command table, so a new command is fuzzed unedited), the decoders, the outputs
// (OUTPUT_TYPES), the request headers (REQUEST_HEADERS) and the /graphics and /fonts endpoints. Named seeds (issue
// 50's attacks, byte for byte) run first in every run. Read by test/fuzz-surfaces.test.ts and bench/fuzz.ts.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { API_KEY_HEADER, type RequestHeaderSpec, REQUEST_HEADERS } from '../../middleware/api-table/request-headers.js';
import { OUTPUT_TYPES, type RenderFormat } from '../../renderer/api.js';
import type { CommandDef, CommandTable } from '../../renderer/commands/context.js';
import { commandFamilies, opensField } from '../../renderer/commands/index.js';
import { bitmapFontSample, bmpSamples, grfSamples, pngSamples } from './decoder-samples.js';
import { craftedAttack, fieldData, hostileNumber, loadFixtures, mutatedFixture, paramValue } from './fuzz-cases.js';
import {
  cffSquareFont,
  doublingCompositeFont,
  doublingSubrFont,
  manyContourFont,
  selfCompositeFont,
  squareFont,
} from './hostile-fonts.js';
import { twoHeaderPng } from './hostile-images.js';

/** One request of the fuzz, below the API's mount point; the runner adds the API key. */
export interface FuzzRequest {
  /** How it was made, shown with a failure. */
  how: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzSurface {
  /** `commands: text`, `decoder: BMP`, `output: zpl`, `header: X-Rotation`, `endpoint: /fonts`... */
  name: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
  /** Named inputs every run sends first, whatever the seed. */
  seeds: readonly NamedSeed[];
}

export interface NamedSeed {
  name: string;
  request: FuzzRequest;
}

const enc = (s: string): Buffer => Buffer.from(s, 'latin1');
const DPMMS = [6, 8, 12, 24] as const;
const MEDIA_TYPES = Object.values(OUTPUT_TYPES).map((o) => o.mediaType);
const FORMATS = Object.keys(OUTPUT_TYPES) as RenderFormat[];
/** Outputs with an all-labels answer (PNG is one label). */
const ALL_LABEL_FORMATS: readonly RenderFormat[] = FORMATS.filter((f) => f !== 'png');

interface LabelShape {
  dpmm?: number;
  widthIn?: number;
  heightIn?: number;
  format?: RenderFormat;
  /** The all-labels path (no index). */
  all?: boolean;
  headers?: Record<string, string>;
}

/** A label request as a client sends it: the ZPL as the raw body, the output by Accept. */
export function labelRequest(how: string, zpl: Uint8Array, shape: LabelShape = {}): FuzzRequest {
  const format = shape.format ?? 'png';
  const all = shape.all === true && format !== 'png';
  return {
    how: `${how} [${format}${all ? ', all labels' : ''}]`,
    method: 'POST',
    path: `/printers/${shape.dpmm ?? 8}dpmm/labels/${shape.widthIn ?? 4}x${shape.heightIn ?? 6}${all ? '' : '/0'}`,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: OUTPUT_TYPES[format].mediaType,
      // The diagnostics come back in X-Warnings, where an internal error swallowed by a field would show.
      'X-Linter': 'On',
      ...shape.headers,
    },
    body: Buffer.from(zpl),
  };
}

/** Mostly PNG, sometimes any other output, so every command also reaches JSON, ZPL and the print jobs. */
const anyFormat = fc.oneof(
  { weight: 4, arbitrary: fc.constant<RenderFormat>('png') },
  { weight: 3, arbitrary: fc.constantFrom<RenderFormat>(...FORMATS) },
);
const shapeArb: fc.Arbitrary<LabelShape> = fc.record({
  dpmm: fc.constantFrom(...DPMMS),
  format: anyFormat,
  all: fc.boolean(),
});

// ---- command families ----------------------------------------------------------------------------

/** Names stored objects go by, so ^XG, ^IM, ^XF, ^IL and ^A@ find what ~DG, ~DY, ^DF and ^IS stored. */
const OBJECT_NAMES = ['R:A.GRF', 'R:F.ZPL', 'R:LOGO.PNG', 'E:X.FNT', 'R:A', 'B:Z.TTF', 'R:*.*', '*:*.*'];
/** Objects stored before the label, for the storage commands to recall. */
const PRELUDE = '~DGR:A.GRF,8,2,F0F00F0FF0F00F0F^XA^DFR:F.ZPL^FS^FO5,5^GB20,20,2^FS^FN1^FDx^FS^XZ';

/** The parameter bytes of one command: by its table when it has one, free text when it reads text. */
function argsFor(def: CommandDef): fc.Arbitrary<string> {
  const text = fc.oneof(
    fc.string({ maxLength: 40 }).map((s) => s.replace(/[\^~]/g, '')),
    fc.constantFrom(...OBJECT_NAMES),
    hostileNumber,
  );
  if (def.syntax === 'text' || def.syntax === 'raw') return text;
  const params = def.params ?? [];
  const values = fc
    .boolean()
    .chain((hostile) =>
      fc.tuple(
        fc.tuple(
          ...params.map((p) => (p.kind === 'text' ? fc.oneof(paramValue(p, hostile), text) : paramValue(p, hostile))),
        ),
        hostile ? fc.array(hostileNumber, { maxLength: 2 }) : fc.constant([] as string[]),
      ),
    );
  const joined = values.map(([ps, extra]) => [...ps, ...extra].join(',').replace(/,+$/, ''));
  if (def.syntax !== 'font') return joined;
  // ^A: the font letter and orientation without a delimiter, then the table's parameters.
  return fc
    .tuple(fc.constantFrom(...'0ABDEFGHPQRSTUV@1Z'), fc.constantFrom('', 'N', 'R', 'I', 'B', 'X'), joined)
    .map(([font, orientation, rest]) => `${font}${orientation}${rest ? `,${rest}` : ''}`);
}

/** Generated cases that failed, kept as named seeds of their family (found: the surface, the seed, the case). */
const FOUND_BY_FUZZ: Record<string, NamedSeed[]> = {
  text: [
    {
      // commands: text, --seed=22, case 142: 30 glyphs each as wide as the label, one coverage mask of the whole
      // label width apiece (painting has no budget): 11.3 s as PCL XL, 500 at the deadline.
      name: 'found: ^CF,343,32000 glyphs in ^FB9999 blocks at 24 dpmm (painting)',
      request: labelRequest(
        'wide glyphs',
        enc(
          `^XA^FO20,20^CF,343,32000${'^FO20,20^FB9999,,R,,0,.5^FD}3z0FT!}D;^FS'.repeat(3)}^FO10,10^A0N,20^FDfuzz^FS^XZ`,
        ),
        { dpmm: 24, format: 'pcl6' },
      ),
    },
  ],
};

/** One family: labels of 1 to 4 of its commands (hostile parameters a half of the time) around a field. */
function commandFamilySurface(family: string, table: CommandTable): FuzzSurface {
  const names = Object.keys(table).sort();
  const command = fc
    .constantFrom(...names)
    .chain((name) => fc.tuple(fc.constant(name), argsFor(table[name]!), fc.integer({ min: 1, max: 3 })));
  const arbitrary = fc
    .record({
      commands: fc.array(command, { minLength: 1, maxLength: 4 }),
      data: fieldData,
      prelude: fc.boolean(),
      shape: shapeArb,
    })
    .map(({ commands, data, prelude, shape }) => {
      const payload = data.replace(/[\^~]/g, '');
      let before = prelude ? PRELUDE : '';
      let inside = '';
      for (const [name, args, times] of commands) {
        const def = table[name]!;
        const one = `${name}${args}${opensField(def) ? `^FD${payload}^FS` : ''}`.repeat(times);
        // Host and download commands (~) go before the label as a client sends them; format commands inside.
        if (name.startsWith('~')) before += one;
        else inside += `^FO20,20${one}`;
      }
      const zpl = `${before}^XA${inside}^FO10,10^A0N,20^FDfuzz^FS^XZ`;
      return labelRequest(`${family}: ${zpl.slice(0, 300)}`, enc(zpl), shape);
    });
  return { name: `commands: ${family}`, arbitrary, seeds: FOUND_BY_FUZZ[family] ?? [] };
}

// ---- decoders ------------------------------------------------------------------------------------

/** Header-sized numbers: small, at the limits and past them. */
const extreme = fc.oneof(
  fc.integer({ min: 0, max: 300 }),
  fc.constantFrom(0, 1, 31, 32, 33, 2000, 2001, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff),
);

/** Writes of extreme values into the first `span` bytes of a file (its header), or anywhere. */
function edited(file: Buffer, span: number): fc.Arbitrary<Buffer> {
  const broken = fc
    .array(fc.tuple(fc.nat(), extreme, fc.constantFrom('byte', 'le32', 'be32'), fc.boolean()), { maxLength: 5 })
    .chain((edits) =>
      fc.nat({ max: file.length }).map((cut) => {
        const b = Buffer.from(file);
        for (const [at, v, how, anywhere] of edits) {
          const i = at % Math.max(1, Math.min(anywhere ? b.length : span, b.length) - 4);
          if (how === 'byte') b[i] = v & 0xff;
          else if (how === 'le32') b.writeUInt32LE(v >>> 0, i);
          else b.writeUInt32BE(v >>> 0, i);
        }
        // A third of the files are cut short too.
        return cut % 3 === 0 ? b.subarray(0, cut) : b;
      }),
    );
  // A quarter as they are, so the decoders' whole way is fuzzed too.
  return fc.oneof({ weight: 1, arbitrary: fc.constant(file) }, { weight: 3, arbitrary: broken });
}

/** `~DY` of a file as hex (A) or binary (B), then drawn by ^IM and ^XG. */
function downloaded(kind: string, ext: string, file: Buffer, binary: boolean, draw: string): Buffer {
  const head = `~DYR:FUZZ,${binary ? 'B' : 'A'},${kind},${file.length},,`;
  return Buffer.concat([
    enc(head),
    binary ? file : enc(file.toString('hex').toUpperCase()),
    enc(draw.replaceAll('EXT', ext)),
  ]);
}

const DRAW_IMAGE = '^XA^FO10,10^IMR:FUZZ.EXT^FS^FO60,60^XGR:FUZZ.EXT,2,2^FS^FO5,5^GB50,50,2^FS^XZ';

function zlibText(kind: 'Z64' | 'B64', data: Buffer): string {
  return `:${kind}:${(kind === 'Z64' ? deflateSync(data) : data).toString('base64')}:0000`;
}

function grfSurface(): FuzzSurface {
  const samples = grfSamples();
  const declared = fc.oneof(extreme.map(String), hostileNumber);
  const hexSample = fc
    .tuple(
      fc.constantFrom(...samples),
      fc.array(fc.constantFrom(...'0F,!:GYgz\n'.split(''), 'zzzzzzzz'), { maxLength: 60 }),
    )
    .map(([s, junk]) => ({
      data: s.data + junk.join(''),
      totalBytes: String(s.totalBytes),
      rowBytes: String(s.rowBytes),
    }));
  const compressed = fc
    .tuple(
      fc.constantFrom<'Z64' | 'B64'>('Z64', 'B64'),
      fc.uint8Array({ maxLength: 400 }),
      fc.constantFrom(0, 0xff, -1),
    )
    .map(([kind, bytes, fill]) => {
      const data = fill < 0 ? Buffer.from(bytes) : Buffer.alloc(bytes.length * 64, fill);
      return {
        data: zlibText(kind, data),
        totalBytes: String(data.length),
        rowBytes: String(Math.max(1, bytes.length % 60)),
      };
    });
  const arbitrary = fc
    .record({
      body: fc.oneof(hexSample, compressed),
      lie: fc.option(fc.tuple(declared, declared), { nil: undefined }),
      how: fc.constantFrom('^GFA', '^GFB', '^GFC', '~DG'),
      scale: fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 })),
      shape: shapeArb,
    })
    .map(({ body, lie, how, scale, shape }) => {
      const [total, row] = lie ?? [body.totalBytes, body.rowBytes];
      const zpl =
        how === '~DG'
          ? `~DGR:G.GRF,${total},${row},${body.data}^XA^FO10,10^XGR:G.GRF,${scale[0]},${scale[1]}^FS^XZ`
          : `^XA^FO10,10${how},${total},${total},${row},${body.data}^FS^FO5,5^GB50,50,2^FS^XZ`;
      return labelRequest(`${zpl.slice(0, 300)}`, enc(zpl), shape);
    });
  return { name: 'decoder: GRF (hex, Z64, B64)', arbitrary, seeds: [] };
}

/** The 70-byte BMP of issue 50: 1x1, 32-bit BI_BITFIELDS, red mask FFFFFFFF (the mask scan shifted by 32). */
const ISSUE_50_BMP =
  '424D460000000000000042000000280000000100000001000000010020000300000004000000130B0000130B00000000000000000000FFFFFFFF00FF0000FF00000000000000';

function bmpSurface(): FuzzSurface {
  const arbitrary = fc
    .tuple(
      fc.constantFrom(...bmpSamples()).chain((b) => edited(b, 70)),
      fc.boolean(),
      shapeArb,
    )
    .map(([bmp, binary, shape]) =>
      labelRequest(
        `~DY BMP of ${bmp.length} bytes: ${bmp.subarray(0, 70).toString('hex')}`,
        downloaded('B', 'BMP', bmp, binary, DRAW_IMAGE),
        shape,
      ),
    );
  const evil = `~DYR:EVIL,A,B,70,0,${ISSUE_50_BMP}^XA^FO10,10^IMR:EVIL.BMP^FS^XZ`;
  return {
    name: 'decoder: BMP',
    arbitrary,
    seeds: [
      { name: 'issue 50: the 70-byte BMP whose mask is FFFFFFFF', request: labelRequest('70-byte BMP', enc(evil)) },
    ],
  };
}

function pngSurface(): FuzzSurface {
  const files = [...pngSamples(), twoHeaderPng(1, 1), twoHeaderPng(60_000, 60_000)];
  const arbitrary = fc
    .tuple(
      fc.constantFrom(...files).chain((p) => edited(p, 41)),
      fc.boolean(),
      shapeArb,
    )
    .map(([png, binary, shape]) =>
      labelRequest(
        `~DY PNG of ${png.length} bytes: ${png.subarray(0, 60).toString('hex')}`,
        downloaded('P', 'PNG', png, binary, DRAW_IMAGE),
        shape,
      ),
    );
  return { name: 'decoder: PNG', arbitrary, seeds: [] };
}

let dejaVu: Buffer | undefined;
/** DejaVu Sans Mono (installed with the package): a real font to break. */
function realFont(): Buffer {
  dejaVu ??= readFileSync(fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf')));
  return dejaVu;
}

/** Small fonts made to hurt (composites and subroutines that double, thousands of contours) and real ones. */
function fontFiles(): Buffer[] {
  return [
    squareFont(),
    cffSquareFont(),
    selfCompositeFont(),
    doublingCompositeFont(12),
    doublingSubrFont(12),
    manyContourFont(2000),
    realFont(),
  ];
}

const DRAW_FONT =
  '^XA^A@N,40,40,R:FUZZ.TTF^FO10,10^FDHello \u00c5 123^FS^CI28^A@R,60,30,R:FUZZ.TTF^FO10,80^FDW\u20ac@^FS^CWQ,R:FUZZ.TTF^AQN,20^FO10,150^FB300,3,0,C^FDwrap me please^FS^XZ';

function trueTypeSurface(): FuzzSurface {
  const arbitrary = fc
    .tuple(
      fc.constantFrom(...fontFiles()).chain((f) => edited(f, 512)),
      fc.boolean(),
      fc.boolean(),
      shapeArb,
    )
    .map(([font, binary, du, shape]) => {
      const zpl = du
        ? Buffer.concat([enc(`~DUR:FUZZ.TTF,${font.length},`), enc(font.toString('hex').toUpperCase()), enc(DRAW_FONT)])
        : downloaded('T', 'TTF', font, binary, DRAW_FONT);
      return labelRequest(`${du ? '~DU' : '~DY'} font of ${font.length} bytes`, zpl, shape);
    });
  return { name: 'decoder: TrueType', arbitrary, seeds: [] };
}

const DRAW_BITMAP_FONT = '^XA^FO10,10^A@N,16,16,R:F.FNT^FDAB A^FS^CWW,R:F.FNT^FO10,60^AWN^FDBAB^FS^XZ';

function bitmapFontSurface(): FuzzSurface {
  const glyph = fc
    .tuple(
      fc.array(fc.oneof(extreme.map(String), hostileNumber, fc.constant('')), { minLength: 6, maxLength: 6 }),
      fc.stringMatching(/^[0-9A-F\n]{0,40}$/),
    )
    .map(([h, bits]) => `#${h.join('.')}\n${bits}\n`);
  const arbitrary = fc
    .record({
      head: fc.array(fc.oneof(extreme.map(String), hostileNumber), { minLength: 5, maxLength: 5 }),
      glyphs: fc.array(fc.oneof(fc.constant(bitmapFontSample()), glyph), { maxLength: 8 }),
      shape: shapeArb,
    })
    .map(({ head, glyphs, shape }) => {
      const zpl = `~DBR:F.FNT,N,${head.join(',')},ME,${glyphs.join('')}${DRAW_BITMAP_FONT}`;
      return labelRequest(zpl.slice(0, 300), enc(zpl), shape);
    });
  const hashes = `~DBR:F.FNT,N,8,8,7,4,900000,ME,${'#'.repeat(900_000)}${DRAW_BITMAP_FONT}`;
  return {
    name: 'decoder: bitmap font (~DB)',
    arbitrary,
    seeds: [{ name: 'issue 50: a ~DB font of 900,000 #', request: labelRequest('~DB of 900,000 #', enc(hashes)) }],
  };
}

// ---- the lexer: any bytes ------------------------------------------------------------------------

function lexerSurface(): FuzzSurface {
  const alphabet = fc.constantFrom(
    ...'^~,XAZFODSGBCYQ0123456789-.:_ \r\n'.split('').map((c) => c.charCodeAt(0)),
    0,
    0xff,
    0xc3,
  );
  const arbitrary = fc
    .tuple(
      fc.oneof(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(alphabet, { maxLength: 2000 }).map((a) => Uint8Array.from(a)),
        mutatedFixture().map((c) => c.zpl),
        craftedAttack().map((c) => c.zpl),
      ),
      shapeArb,
    )
    .map(([zpl, shape]) =>
      labelRequest(
        `${zpl.length} bytes: ${JSON.stringify(Buffer.from(zpl.subarray(0, 200)).toString('latin1'))}`,
        zpl,
        shape,
      ),
    );
  const qq = `^XA${'^QQ'.repeat(300_000)}^FO10,10^FDx^FS^XZ`;
  return {
    name: 'lexer and diagnostics: any bytes',
    arbitrary,
    seeds: [{ name: 'issue 50: ^QQ x 300,000 (the diagnostics log)', request: labelRequest('^QQ x 300,000', enc(qq)) }],
  };
}

// ---- outputs -------------------------------------------------------------------------------------

/** Issue 50's conversion: 2,000,000 bytes of 0xFF as Z64 (2.6 KB), converted from 6 to 24 dpmm. */
function conversionSeed(): NamedSeed {
  const z64 = zlibText('Z64', Buffer.alloc(2_000_000, 0xff));
  const zpl = `^XA^FO0,0^GFA,2000000,2000000,250,${z64}^FS^XZ`;
  return {
    name: `issue 50: the ${(zpl.length / 1024).toFixed(1)} KB conversion to 24 dpmm`,
    request: labelRequest('Z64 of 2,000,000 0xFF to 24 dpmm', enc(zpl), {
      dpmm: 6,
      format: 'zpl',
      headers: { 'X-Target-Dpmm': '24' },
    }),
  };
}

/** Issue 50's ^IS/^IL doubling: each round stores the label and loads it twice over. */
function doublingSeed(fieldBytes: number, rounds: number): NamedSeed {
  const zpl = `^XA^FO10,10^A0,20^FD${'Q'.repeat(fieldBytes)}^FS^ISR:A.GRF${'^ILR:A.GRF^ISR:A.GRF'.repeat(rounds)}^XZ`;
  return {
    name: `issue 50: ^IS/^IL doubling, ${fieldBytes} bytes of field data, ${rounds} rounds (JSON)`,
    request: labelRequest(`^IS/^IL x ${rounds}`, enc(zpl), { format: 'json' }),
  };
}

/** Real labels, broken ones and crafted attacks, as any output, one label or all. */
function documents(): fc.Arbitrary<{ how: string; zpl: Uint8Array; dpmm: number; widthIn: number; heightIn: number }> {
  const fixtures = loadFixtures();
  const asIs = fc.nat({ max: fixtures.length - 1 }).map((i) => ({ ...fixtures[i]!, how: fixtures[i]!.id }));
  const broken = fc.oneof(mutatedFixture(), craftedAttack()).map((c) => ({
    how: c.how,
    zpl: c.zpl,
    dpmm: c.req.dpmm,
    widthIn: c.req.widthIn,
    heightIn: c.req.heightIn,
  }));
  return fc.oneof({ weight: 1, arbitrary: asIs }, { weight: 3, arbitrary: broken });
}

function outputSurface(format: RenderFormat): FuzzSurface {
  const extra: fc.Arbitrary<Record<string, string>> =
    format === 'zpl'
      ? fc.record(
          { 'X-Target-Dpmm': fc.constantFrom(...DPMMS.map(String)), 'X-Formatter': fc.constantFrom('On', 'Off') },
          { requiredKeys: [] },
        )
      : fc.constant({});
  const arbitrary = fc.tuple(documents(), fc.boolean(), extra).map(([d, all, headers]) =>
    labelRequest(d.how, d.zpl, {
      dpmm: d.dpmm,
      widthIn: d.widthIn,
      heightIn: d.heightIn,
      format,
      all: all && ALL_LABEL_FORMATS.includes(format),
      headers,
    }),
  );
  const seeds =
    format === 'zpl' ? [conversionSeed()] : format === 'json' ? [doublingSeed(1000, 10), doublingSeed(60_000, 9)] : [];
  return { name: `output: ${format}`, arbitrary, seeds };
}

// ---- request headers -----------------------------------------------------------------------------

/** Header values a client could send: printable latin1 (Node refuses the rest before sending). */
const garbage = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '0', '-1', 'NaN', 'on,off', '*/*;q=0', 'x'.repeat(4000), '%00', '\u00ff\u00fe'),
  hostileNumber,
);
const printable = (s: string): string =>
  s.replace(/[^\x20-\x7e\xa0-\xff]/g, '').trim() || s.replace(/[^\x21-\x7e]/g, '');

function headerValues(h: RequestHeaderSpec): fc.Arbitrary<string> {
  const listed = [...(h.values ?? []), ...(h.example ? [h.example] : []), ...(h.default ? [h.default] : [])];
  const cased = listed.length
    ? fc.constantFrom(...listed).chain((v) => fc.constantFrom(v, v.toUpperCase(), v.toLowerCase(), ` ${v} `))
    : garbage;
  const shaped =
    h.name === 'Accept'
      ? fc
          .array(
            fc.tuple(
              fc.constantFrom(...MEDIA_TYPES, '*/*', 'image/*', 'application/*', 'text/html'),
              fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
            ),
            {
              minLength: 1,
              maxLength: 4,
            },
          )
          .map((ts) => ts.map(([t, q]) => (q === null ? t : `${t};q=${q.toFixed(2)}`)).join(', '))
      : h.pattern
        ? fc
            .tuple(hostileNumber, hostileNumber, fc.constantFrom('x', 'X', 'dpmm', ''))
            .map(([a, b, sep]) => `${a}${sep}${b}`)
        : cased;
  return fc
    .oneof({ weight: 3, arbitrary: cased }, { weight: 2, arbitrary: shaped }, { weight: 2, arbitrary: garbage })
    .map(printable);
}

function headerSurface(h: RequestHeaderSpec): FuzzSurface {
  // The output that reads it, so the value gets past negotiation to where it is used.
  const format: fc.Arbitrary<RenderFormat> = h.pdfOnly
    ? fc.constant('pdf')
    : h.output
      ? fc.constant(h.output)
      : h.appliesTo
        ? fc.constantFrom(...h.appliesTo)
        : fc.constantFrom(...FORMATS);
  const fixtures = loadFixtures();
  const arbitrary = fc
    .tuple(headerValues(h), format, fc.nat({ max: fixtures.length - 1 }), fc.boolean())
    .map(([value, f, i, all]) => {
      const fx = fixtures[i]!;
      const req = labelRequest(`${h.name}: ${JSON.stringify(value.slice(0, 100))} on ${fx.id}`, fx.zpl, {
        dpmm: fx.dpmm,
        widthIn: fx.widthIn,
        heightIn: fx.heightIn,
        format: f,
        all: all && f !== 'png',
      });
      req.headers[h.name] = value;
      return req;
    });
  return { name: `header: ${h.name}`, arbitrary, seeds: [] };
}

// ---- endpoints -----------------------------------------------------------------------------------

/** A multipart body of files and fields, as browsers send it. */
export function multipart(
  parts: { name: string; value: Buffer; filename?: string }[],
  boundary = 'fuzzb0undary',
): Buffer {
  return Buffer.concat([
    ...parts.flatMap((p) => [
      enc(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n` +
          `${p.filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
      p.value,
      enc('\r\n'),
    ]),
    enc(`--${boundary}--\r\n`),
  ]);
}

/** Mostly a valid value, so most requests get past validation to the converter. */
const mostly = <T>(valid: fc.Arbitrary<T>, garbage: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: garbage });

const GIF_HEAD = enc(
  'GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
);
const JPEG_HEAD = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080001000101011100ffd9', 'hex');

function graphicsSurface(): FuzzSurface {
  const files = [...pngSamples(), ...bmpSamples(), GIF_HEAD, JPEG_HEAD, twoHeaderPng(60_000, 60_000)];
  const image = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...files) },
    { weight: 3, arbitrary: fc.constantFrom(...files).chain((f) => edited(f, 64)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)) },
  );
  const arbitrary = fc
    .record({
      image,
      field: mostly(fc.constant('file'), fc.constantFrom('image', '')),
      threshold: fc.option(mostly(fc.integer({ min: 0, max: 256 }).map(String), garbage), { nil: undefined }),
      dither: fc.option(fc.constantFrom('true', '1', 'yes', 'on', 'false', 'maybe'), { nil: undefined }),
      dpmm: fc.option(mostly(fc.constantFrom('6', '8dpmm', '12', '24', '7'), garbage), { nil: undefined }),
      accept: fc.option(fc.constantFrom(...MEDIA_TYPES, '*/*', 'text/plain'), { nil: undefined }),
    })
    .map((c) => {
      const query = new URLSearchParams();
      if (c.threshold !== undefined) query.set('threshold', c.threshold);
      if (c.dither !== undefined) query.set('dither', c.dither);
      if (c.dpmm !== undefined) query.set('dpmm', c.dpmm);
      const q = query.toString();
      return {
        how: `POST /graphics?${q.slice(0, 200)} ${c.field} of ${c.image.length} bytes ${c.image.subarray(0, 40).toString('hex')} Accept ${c.accept}`,
        method: 'POST' as const,
        path: `/graphics${q ? `?${q}` : ''}`,
        headers: {
          'Content-Type': 'multipart/form-data; boundary=fuzzb0undary',
          ...(c.accept !== undefined && { Accept: c.accept }),
        },
        body: multipart([{ name: c.field, value: c.image, filename: 'image.png' }]),
      };
    });
  return { name: 'endpoint: /graphics', arbitrary, seeds: [] };
}

function fontsSurface(): FuzzSurface {
  const field = (valid: string[], invalid: string[]): fc.Arbitrary<string | undefined> =>
    fc.option(mostly(fc.constantFrom(...valid), fc.oneof(fc.constantFrom(...invalid), garbage.map(printable))), {
      nil: undefined,
      freq: 2,
    });
  const arbitrary = fc
    .record({
      font: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(squareFont(), realFont()) },
        { weight: 3, arbitrary: fc.constantFrom(...fontFiles()).chain((f) => edited(f, 512)) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 500 }).map((b) => Buffer.from(b)) },
      ),
      path: field(['R:MYFONT.TTF', 'E:A.TTF', 'r:x.ttf'], ['R:../../ETC.TTF', 'R:.TTF']),
      name: field(['Z', 'I', 'x'], ['A', 'ZZ']),
      chars: field(['0123456789', 'Hello \u00c5\u20ac', 'A'], ['', '\ud83d\ude00']),
      unicodes: field(['0030-0039,0041-005A', '0-10FFFF', '41'], ['10FFFF0', 'FFFFFFF', '41-40']),
    })
    .map((c) => {
      const parts = [{ name: 'file', value: c.font, filename: 'font.ttf' }];
      for (const k of ['path', 'name', 'chars', 'unicodes'] as const)
        if (c[k] !== undefined) parts.push({ name: k, value: Buffer.from(c[k]!, 'utf8'), filename: '' });
      return {
        how: `POST /fonts ${c.font.length} bytes ${JSON.stringify({ path: c.path, name: c.name, chars: c.chars, unicodes: c.unicodes }).slice(0, 200)}`,
        method: 'POST' as const,
        path: '/fonts',
        headers: { 'Content-Type': 'multipart/form-data; boundary=fuzzb0undary' },
        body: multipart(parts),
      };
    });
  return { name: 'endpoint: /fonts', arbitrary, seeds: [] };
}

// ---- the list ------------------------------------------------------------------------------------

let surfaces: FuzzSurface[] | undefined;

/** Every surface, in a fixed order (a seed replays the same cases). */
export function fuzzSurfaces(): FuzzSurface[] {
  surfaces ??= [
    lexerSurface(),
    ...Object.entries(commandFamilies).map(([family, table]) => commandFamilySurface(family, table)),
    grfSurface(),
    bmpSurface(),
    pngSurface(),
    trueTypeSurface(),
    bitmapFontSurface(),
    ...FORMATS.map(outputSurface),
    ...REQUEST_HEADERS.map((h) => headerSurface(h)),
    // The key itself (a security scheme, not in the table): unknown, malformed and oversized keys.
    headerSurface({ name: API_KEY_HEADER, example: 'k_0123456789abcdef', description: 'the API key' }),
    graphicsSurface(),
    fontsSurface(),
  ];
  return surfaces;
}

/** Every named seed with the surface it belongs to. */
export function namedSeeds(): { surface: string; seed: NamedSeed }[] {
  return fuzzSurfaces().flatMap((s) => s.seeds.map((seed) => ({ surface: s.name, seed })));
}

const CANARY = '^XA^FO20,20^GB100,60,4^FS^FO30,100^A0N,30,30^FDcanary^FS^XZ';

/** A plain label in every output, twice (each render thread loads its drawing code): sent before RSS is measured. */
export function warmUpRequests(): FuzzRequest[] {
  return FORMATS.flatMap((format) => [1, 2].map(() => labelRequest('warm-up canary', enc(CANARY), { format })));
}
