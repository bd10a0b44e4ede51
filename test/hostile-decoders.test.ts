// Decoders that cannot loop (issue 50, item 3): each hole found in the decoders of bytes arriving in ZPL, with the
// bytes that opened it (hostile fonts: helpers/hostile-fonts.ts). A malformed object is refused with a warning and the rest of the label drawn; no decoder
// works or allocates past what the object's header and bytes justify (work counted by the meter, never timed).

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { decodeBmpToBitmap } from '../renderer/decode/bmp-decode.js';
import { decodeGraphic, MAX_OBJECT_BYTES } from '../renderer/decode/grf.js';
import {
  MAX_FONT_READS,
  MAX_FONT_WORK,
  readDownloadedFont,
  type OutlineFont,
} from '../renderer/decode/outline-font.js';
import { CHECKPOINT_UNITS, decodeMeter } from '../renderer/decode/meter.js';
import { RenderError } from '../renderer/errors.js';
import { render } from '../renderer/render.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { bmpFile, bmpSamples, countingMeter, pngFile } from './helpers/decoder-samples.js';
import {
  cffSquareFont,
  doublingCompositeFont,
  doublingSubrFont,
  manyContourFont,
  selfCompositeFont,
  squareFont,
} from './helpers/hostile-fonts.js';
import { decodePng, type DecodedPng } from './helpers/png.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, '../bin/zpl-render.js');
const LIBRARY = new URL('../renderer/index.js', import.meta.url).href;
const PNG = { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 } as const;
/** A safety net only: a decoder that loops again fails these tests instead of hanging the run. */
const HANG = 60_000;

/** The reported case, exactly: a 1x1 32-bit BI_BITFIELDS BMP whose red mask is FFFFFFFF, then a label showing it. */
const EVIL_BMP =
  '~DYR:EVIL,A,B,70,0,424D460000000000000042000000280000000100000001000000010020000300000004000000130B0000130B00000000000000000000FFFFFFFF00FF0000FF00000000000000';
const EVIL = `${EVIL_BMP}\n^XA^FO10,10^IMR:EVIL.BMP^FS^XZ`;

function inkAt(img: DecodedPng): [number, number][] {
  const ink: [number, number][] = [];
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) if (img.gray[y * img.width + x]! < 128) ink.push([x, y]);
  return ink;
}

/** The library's render() in a process of its own, so that a decoder looping again cannot hang this run. */
function renderInChild(zpl: string): { status: number | null; png: Buffer; stderr: string } {
  const script =
    `import { render } from ${JSON.stringify(LIBRARY)};` +
    `const chunks = []; for await (const c of process.stdin) chunks.push(c);` +
    `const r = await render(Buffer.concat(chunks), ${JSON.stringify(PNG)});` +
    `process.stdout.write(r.body);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: zpl, timeout: HANG });
  return { status: r.status, png: r.stdout, stderr: r.stderr.toString() };
}

describe('hostile decoders: a BMP whose colour mask is 32 bits wide (the reported case)', function () {
  this.timeout(2 * HANG);

  it('answers through render(): the one black pixel drawn at 10,10', () => {
    const r = renderInChild(EVIL);
    expect(r.status, r.stderr).to.equal(0);
    expect(inkAt(decodePng(r.png))).to.deep.equal([[10, 10]]);
  });

  it('answers through zpl-render', () => {
    const r = spawnSync(process.execPath, [CLI, '-', '--size', '4x6'], { input: EVIL, timeout: HANG });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(inkAt(decodePng(r.stdout))).to.deep.equal([[10, 10]]);
  });

  for (const renderThreads of [0, undefined]) {
    it(`answers over HTTP (${renderThreads === 0 ? 'RENDER_THREADS=0' : 'the render pool'}), and answers again`, async () => {
      const { app } = await buildApp(renderThreads === 0 ? { renderThreads } : {});
      for (let i = 0; i < 2; i++) {
        const res = await request(app)
          .post(labelsPath('8dpmm', '4x6', '0'))
          .set('X-API-Key', KEYS.all)
          .set('X-Linter', 'On')
          .type('form')
          .send(EVIL)
          .buffer(true)
          .parse(binaryBody);
        expect(res.status, String(res.body)).to.equal(200);
        expect(res.headers['x-warnings']).to.equal(undefined);
        expect(inkAt(decodePng(res.body as Buffer))).to.deep.equal([[10, 10]]);
      }
    });
  }

  it('reads every mask bit: a 32-bit mask is a channel of 32 bits, unsigned, scaled as any other', () => {
    const values = [0, 0xffffffff, 0x70000000, 0x90000000];
    const mask = 0xffffffff;
    const bmp = bmpFile({ width: 4, height: 1, bpp: 32, pixels: (x) => values[x]!, masks: [mask, mask, mask] });
    expect(decodeBmpToBitmap(bmp, countingMeter()).data[0], 'ink at 0 and 2 (under half)').to.equal(0xa0);
    const m = countingMeter();
    decodeBmpToBitmap(bmpFile({ width: 5, height: 7, bpp: 32, pixels: () => 0, masks: [0xffffffff, 0, 0] }), m);
    expect(m.charges, 'one charge a row').to.equal(7);
  });
});

describe('hostile decoders: GRF run-length codes past the declared size', () => {
  it('spends one step on each code once the declared bytes are full (a `:` no longer walks its whole row)', () => {
    // Before: every `:` after the first byte repeated 199,998 nibbles into nowhere; 20,000 of them took 14 s.
    const data = Buffer.from(':'.repeat(20_000));
    const m = countingMeter();
    const warnings: string[] = [];
    const bmp = decodeGraphic(
      data,
      { totalBytes: 1, rowBytes: 99_999, binary: false, what: 'Graphic' },
      m,
      (_a, _s, msg) => warnings.push(msg),
    );
    expect(bmp.data.length).to.equal(99_999);
    expect(m.claimed).to.equal(99_999);
    expect(m.charged).to.equal(data.length + 2);
    expect(warnings).to.deep.equal(['Graphic data is longer than the 1 bytes declared; the rest is ignored']);
  });

  it('stops repeat counts and row fills at the declared size too', () => {
    for (const text of [('z'.repeat(1000) + '0').repeat(100), ','.repeat(5000), '!'.repeat(5000)]) {
      const m = countingMeter();
      decodeGraphic(Buffer.from(text), { totalBytes: 3, rowBytes: 99_999, binary: false, what: 'Graphic' }, m);
      expect(m.charged, text.slice(0, 5)).to.equal(text.length + 6);
    }
  });

  it('draws the rest of the label and warns', async () => {
    const zpl = `^XA^FO0,0^GFA,1,1,99999,${':'.repeat(20_000)}^FS^FO100,100^GB50,50,50^FS^XZ`;
    const r = await render(zpl, PNG);
    expect(r.warnings.map((w) => [w.command, w.message])).to.deep.equal([
      ['^GF', 'Graphic data is longer than the 1 bytes declared; the rest is ignored'],
    ]);
    expect(decodePng(r.body).gray[120 * 812 + 120]).to.equal(0);
  });
});

describe('hostile decoders: Z64 data inflated within its declared size', () => {
  const z64 = (bytes: Buffer) => Buffer.from(`:Z64:${deflateSync(bytes).toString('base64')}:0000`);

  it('inflates data of the declared size without claiming more than the bitmap', () => {
    const m = countingMeter();
    const bmp = decodeGraphic(
      z64(Buffer.alloc(4000, 0xff)),
      { totalBytes: 4000, rowBytes: 40, binary: false, what: 'G' },
      m,
    );
    expect(bmp.data.every((b) => b === 0xff)).to.equal(true);
    expect(m.claimed).to.equal(4000);
  });

  it('inflates data longer than declared past it only after claiming the object limit, and says how long it was', () => {
    // Before: 2 MB were inflated, unclaimed, for a graphic declaring 1 byte.
    const m = countingMeter();
    const warnings: string[] = [];
    const bmp = decodeGraphic(
      z64(Buffer.alloc(2_000_000, 0xff)),
      { totalBytes: 1, rowBytes: 1, binary: false, what: 'G' },
      m,
      (_a, _s, msg) => warnings.push(msg),
    );
    expect([...bmp.data]).to.deep.equal([0xff]);
    expect(m.claimed).to.equal(1 + MAX_OBJECT_BYTES + 1);
    expect(warnings).to.include('Graphic data has 2000000 bytes, more than the 1 declared; the rest is ignored');
  });
});

describe('hostile decoders: PNG headers checked before inflating', () => {
  const label = (png: Buffer) =>
    `~DYR:IMG,P,P,${png.length},,${png.toString('hex')}^XA^FO10,10^IMR:IMG.PNG^FS^FO100,100^GB50,50,50^FS^XZ`;

  it('refuses a bit depth its colour type cannot have with a warning, and draws the rest', async () => {
    // Before: 2000x2000 RGBA at 255 bits a sample claimed 510 MB and failed the whole document (memory).
    const png = pngFile({ width: 2000, height: 2000, depth: 255, colorType: 6, rows: Buffer.alloc(10) });
    const r = await render(label(png), PNG);
    expect(r.warnings.map((w) => w.message)).to.include(
      'PNG image could not be decoded: PNG images of colour type 6 cannot have 255 bits a sample',
    );
    expect(decodePng(r.body).gray[120 * 812 + 120]).to.equal(0);
  });

  it('refuses image data that inflates past the size its header declares', async () => {
    // Before: inflated up to 2 MB for a 1x1 image.
    const png = pngFile({ width: 1, height: 1, depth: 8, colorType: 0, rows: Buffer.alloc(1_500_000) });
    const r = await render(label(png), PNG);
    expect(r.warnings.map((w) => w.message)).to.include(
      'PNG image could not be decoded: PNG image data is longer than the 2 bytes its header declares',
    );
  });
});

describe('hostile decoders: BMP headers', () => {
  it('reads the height of a BITMAPCOREHEADER where it is (before: the planes field, so one row)', () => {
    const [, , rgb, , core] = bmpSamples();
    const a = decodeBmpToBitmap(core!, countingMeter());
    const b = decodeBmpToBitmap(rgb!, countingMeter());
    expect([a.width, a.height]).to.deep.equal([13, 9]);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).to.equal(true);
  });
});

describe('hostile decoders: downloaded TrueType and OpenType fonts', () => {
  const download = (font: Buffer, ext = 'T') =>
    Buffer.concat([
      Buffer.from(`~DYR:F,B,${ext},${font.length},,`),
      font,
      Buffer.from(`^XA^A@N,60,60,R:F.${ext === 'O' ? 'OTF' : 'TTF'}^FO20,20^FDA^FS^FO300,300^GB40,40,40^FS^XZ`),
    ]);
  const inkIn = (png: Uint8Array, x0: number, y0: number, x1: number, y1: number): number => {
    const img = decodePng(png);
    let n = 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (img.gray[y * img.width + x]! < 128) n++;
    return n;
  };

  it('opens well-formed fonts (glyf with a composite, and CFF) and draws their glyphs with no warning', async () => {
    for (const [font, ext] of [
      [squareFont(), 'T'],
      [cffSquareFont(), 'O'],
    ] as const) {
      const m = countingMeter();
      const opened = readDownloadedFont(font, 'F', m);
      expect(typeof opened, String(opened)).to.equal('object');
      const outline = (opened as OutlineFont).glyph(0x41);
      expect(outline?.contours.length, ext).to.equal(1);
      expect(m.claimed).to.be.greaterThan(0);
      const r = await render(download(font, ext), PNG);
      expect(r.warnings, ext).to.deep.equal([]);
      expect(inkIn(r.body, 20, 20, 80, 80), ext).to.be.greaterThan(500);
    }
    const composite = readDownloadedFont(squareFont(), 'F', countingMeter()) as OutlineFont;
    expect(composite.glyph(0x43)?.contours.length).to.equal(2);
  });

  const refused: [string, () => Buffer, string][] = [
    // Before: 2^30 points; the render never answered (30 s and 900 MB when stopped).
    ['composites doubling 30 levels deep', () => doublingCompositeFont(30), 'glyph 16 has more than 65536 points'],
    ['a composite that uses itself', selfCompositeFont, 'glyph 1 nests components more than 16 deep'],
    // Before: 3.4 s for one 66 KB glyph (65,535 points, each looked up among 32,767 contour ends).
    ['32,767 contour ends over 65,535 points', () => manyContourFont(32767), 'glyph 1 needs more than 16777216 steps'],
    ['a WOFF file (fontkit allocates what its directory declares)', () => roboto(), 'it is a WOFF web font'],
  ];
  for (const [what, font, reason] of refused) {
    it(`refuses ${what} when it arrives, with a warning; the text is drawn in font 0`, async () => {
      const opened = readDownloadedFont(font(), 'F', countingMeter());
      expect(opened).to.be.a('string').that.contains(reason);
      const r = await render(download(font()), PNG);
      expect(r.warnings.map((w) => [w.command, w.message])).to.deep.equal([
        ['~DY', `Font R:F.TTF could not be read (${opened}); its text is drawn in font 0`],
      ]);
      expect(inkIn(r.body, 20, 20, 80, 80)).to.be.greaterThan(100);
      expect(inkIn(r.body, 300, 300, 340, 340)).to.equal(1600);
    });
  }

  it('stops CFF subroutines that call the next one twice at the glyph read limit: the glyph is missing', () => {
    // Before: 2^40 line segments; the process ran out of memory and aborted.
    const m = countingMeter();
    const font = readDownloadedFont(doublingSubrFont(40), 'F', m) as OutlineFont;
    const opened = m.charged;
    expect(font.glyph(0x41)).to.equal(null);
    expect(m.charged - opened).to.be.at.most(MAX_FONT_READS.glyph);
    expect(m.claimed).to.equal(0);
  });

  it('gives a font whose glyph spent its whole read limit no more glyphs: 60 such characters cost one', () => {
    const m = countingMeter();
    const font = readDownloadedFont(doublingSubrFont(40, 60), 'F', m) as OutlineFont;
    const opened = m.charged;
    for (let cp = 0x41; cp < 0x41 + 60; cp++) expect(font.glyph(cp)).to.equal(null);
    expect(m.charged - opened).to.be.at.most(MAX_FONT_READS.glyph + 60);
  });

  it('stops a font after MAX_FONT_WORK of glyphs each just within their own limit', () => {
    // Each glyph: 65,535 points looked up among 255 contour ends, 16.7 M steps (the limit is 16,777,216).
    const m = countingMeter();
    const font = readDownloadedFont(manyContourFont(255, 10), 'F', m) as OutlineFont;
    const made = Array.from({ length: 10 }, (_, i) => font.glyph(0x41 + i) !== null);
    const each = 65_535 * 256 + 255;
    const count = made.filter(Boolean).length;
    expect(made.slice(0, count).every(Boolean), 'the first glyphs asked for are made').to.equal(true);
    expect(count).to.be.within(Math.floor(MAX_FONT_WORK / each), Math.ceil(MAX_FONT_WORK / each));
    expect(count).to.be.lessThan(10);
  });
});

/** A WOFF font of the package's own (read without checks as a built-in; refused as a download). */
function roboto(): Buffer {
  return readFileSync(
    fileURLToPath(import.meta.resolve('@fontsource/roboto-condensed/files/roboto-condensed-latin-700-normal.woff')),
  );
}

describe('hostile decoders: the meter reaches the render checkpoint from inside decoder loops', () => {
  it('calls the checkpoint once per CHECKPOINT_UNITS units charged, and forwards claims', () => {
    let checkpoints = 0;
    const claims: [number, string][] = [];
    const meter = decodeMeter(
      (bytes, what) => claims.push([bytes, what]),
      () => checkpoints++,
    );
    for (let i = 0; i < 3 * CHECKPOINT_UNITS; i++) meter.charge(1);
    meter.claim(7, 'Image R:A.PNG');
    expect(checkpoints).to.equal(3);
    expect(claims).to.deep.equal([[7, 'Image R:A.PNG']]);
  });

  it('stops a render inside one large graphic when its checkpoint says so', async () => {
    // One ^GF of 2,000,000 bytes written as 20,000 rows of `,`: one command, so only the decoder can reach the checkpoint.
    const zpl = `^XA^FO0,0^GFA,2000000,2000000,100,${','.repeat(20_000)}^FS^XZ`;
    let calls = 0;
    await render(zpl, PNG, { checkpoint: () => calls++ });
    expect(calls).to.be.at.least((2 * 2_000_000) / CHECKPOINT_UNITS);
    let left = 10;
    const stopped = await render(zpl, PNG, {
      checkpoint: () => {
        if (--left < 0) throw new RenderError('timeout', 'stopped');
      },
    }).catch((e: RenderError) => e.code);
    expect(stopped).to.equal('timeout');
  });
});
