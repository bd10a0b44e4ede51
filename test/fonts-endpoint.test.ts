// POST /fonts (router option fontsEndpoint): a TrueType font in, the ZPL that stores it out (~DU, ^CW with a name),
// cut down to `chars`/`unicodes` when asked. The ZPL it answers, sent before a label, draws that label as the whole
// font sent with ~DU does; a subset draws the characters it kept and no others; the font's embedding bits are honoured.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import express from 'express';
import { create } from 'fontkit';
import request from 'supertest';
import type { Express } from 'express';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { cffFont, doublingCompositeFont, manyContourFont, squareFont } from './helpers/hostile-fonts.js';
import { decodePng, inkCount } from './helpers/png.js';
import { fontsEndpoint } from '../middleware/fonts/endpoint.js';
import { cmapTable } from '../middleware/fonts/font-subset.js';
import { answerErrors } from '../middleware/router/router-errors.js';

const require = createRequire(import.meta.url);
const fontFile = (name: string): Buffer => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));
const MONO = fontFile('DejaVuSansMono.ttf');
const SANS = fontFile('DejaVuSans.ttf');
const WOFF = readFileSync(require.resolve('@fontsource/roboto-condensed/files/roboto-condensed-latin-400-normal.woff'));
const FONTS = '/compatibility/legacy/v1/fonts';

/** The whole font as ~DU stores it, written here from the ZPL guide's `~DUd:o.x,s,data` (size in bytes, ASCII hex). */
const wholeFontDu = (path: string, font: Buffer): string =>
  `~DU${path},${font.length},${font.toString('hex').toUpperCase()}`;

/** The font with its OS/2 fsType set to `bits`. */
function withFsType(font: Buffer, bits: number): Buffer {
  const out = Buffer.from(font);
  for (let i = 0; i < out.readUInt16BE(4); i++) {
    const at = 12 + 16 * i;
    if (out.toString('latin1', at, at + 4) === 'OS/2') out.writeUInt16BE(bits, out.readUInt32BE(at + 8) + 8);
  }
  return out;
}

/** The font of a `~DU` answer: its declared size and its bytes. */
function storedFont(zpl: string): { path: string; size: number; bytes: Buffer } {
  const m = /^\^XA~DU([^,]+),(\d+),([0-9A-F]+)(?:\^CW[A-Z],[^^]+)?\^XZ$/.exec(zpl);
  expect(m, zpl.slice(0, 80)).to.not.equal(null);
  return { path: m![1]!, size: Number(m![2]), bytes: Buffer.from(m![3]!, 'hex') };
}

/** The sum of big-endian 32-bit words, the last padded with zeros (the OpenType table checksum). */
function sumOf(bytes: Buffer): number {
  const padded = Buffer.alloc((bytes.length + 3) & ~3);
  bytes.copy(padded);
  let s = 0;
  for (let i = 0; i < padded.length; i += 4) s = (s + padded.readUInt32BE(i)) >>> 0;
  return s;
}

/** Each table's checksum and head's checkSumAdjustment hold, as the OpenType specification computes them. */
function checksumsHold(font: Buffer): boolean {
  const zeroed = Buffer.from(font);
  const tables = Array.from({ length: font.readUInt16BE(4) }, (_, i) => {
    const at = 12 + 16 * i;
    return {
      tag: font.toString('latin1', at, at + 4),
      checksum: font.readUInt32BE(at + 4),
      offset: font.readUInt32BE(at + 8),
      length: font.readUInt32BE(at + 12),
    };
  });
  const head = tables.find((t) => t.tag === 'head')!;
  zeroed.writeUInt32BE(0, head.offset + 8); // checkSumAdjustment counts as zero
  return (
    tables.every((t) => sumOf(zeroed.subarray(t.offset, t.offset + t.length)) === t.checksum) &&
    (0xb1b0afba - sumOf(zeroed)) >>> 0 === font.readUInt32BE(head.offset + 8)
  );
}

/** The OS/2 fsType of a font file. */
function fsTypeOf(font: Buffer): number {
  for (let i = 0; i < font.readUInt16BE(4); i++) {
    const at = 12 + 16 * i;
    if (font.toString('latin1', at, at + 4) === 'OS/2') return font.readUInt16BE(font.readUInt32BE(at + 8) + 8);
  }
  return -1;
}

describe('fontsEndpoint: POST /fonts answers the ZPL that stores a TrueType font', () => {
  let app: Express;
  before(async () => {
    // DejaVu Sans is 757 KB: its whole ~DU (1.5 MB of hex) and a label after it must fit in a request.
    ({ app } = await buildApp({ fontsEndpoint: true, maxBodyBytes: 4 * 1024 * 1024 }));
  });

  const postFont = (font: Buffer, fields: Record<string, string> = {}, key: string = KEYS.all) => {
    let req = request(app).post(FONTS).set('X-API-Key', key).attach('file', font, 'font.ttf');
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    return req;
  };
  /** The PNG of a 3x1 inch label at 8 dpmm, with its X-Warnings. */
  const label = async (zpl: string) => {
    const res = await request(app)
      .post(labelsPath('8dpmm', '3x1', '0'))
      .set('X-API-Key', KEYS.all)
      .set('X-Linter', 'On')
      .type('form')
      .buffer(true)
      .parse(binaryBody)
      .send(zpl);
    expect(res.status, String(res.body)).to.equal(200);
    return { png: res.body as Buffer, warnings: String(res.headers['x-warnings'] ?? '') };
  };
  const field = (text: string, font = '^A@N,60,60,R:MONO.TTF', at = '^FO20,40') => `^XA${at}${font}^FD${text}^FS^XZ`;

  it('stores the whole font with ~DU: a label after it draws as the TTF sent with ~DU does', async () => {
    const res = await postFont(MONO, { path: 'R:MONO.TTF' });
    expect(res.status, res.text.slice(0, 200)).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expect(res.text).to.equal(`^XA${wholeFontDu('R:MONO.TTF', MONO)}^XZ`);
    const fromEndpoint = await label(res.text + field('Hello 42'));
    const byHand = await label(`^XA${wholeFontDu('R:MONO.TTF', MONO)}^XZ${field('Hello 42')}`);
    expect(fromEndpoint.png.equals(byHand.png)).to.equal(true);
    expect(inkCount(decodePng(fromEndpoint.png))).to.be.greaterThan(500);
    expect(fromEndpoint.warnings).to.equal('');
  });

  it("names the path after the font's PostScript name when none is given, and takes one in any case", async () => {
    expect(storedFont((await postFont(MONO)).text).path).to.equal('R:DEJAVUSANSMONO.TTF');
    expect(storedFont((await postFont(MONO, { path: 'e:mono2.ttf' })).text).path).to.equal('E:MONO2.TTF');
  });

  it('assigns the name with ^CW: ^AZ draws as ^A@ with the path does', async () => {
    const res = await postFont(MONO, { path: 'R:MONO.TTF', name: 'Z' });
    expect(res.text.startsWith(`^XA${wholeFontDu('R:MONO.TTF', MONO)}^CWZ,R:MONO.TTF^XZ`)).to.equal(true);
    const byName = await label(res.text + field('Hello 42', '^AZN,60,60'));
    const byPath = await label(res.text + field('Hello 42'));
    expect(byName.png.equals(byPath.png)).to.equal(true);
    // Without the ^CW the letter is no font of ours: the label differs.
    const unnamed = await label(`^XA${wholeFontDu('R:MONO.TTF', MONO)}^XZ${field('Hello 42', '^AZN,60,60')}`);
    expect(unnamed.png.equals(byName.png)).to.equal(false);
  });

  describe('cut down to chars and unicodes', () => {
    let subset: { path: string; size: number; bytes: Buffer };
    let zpl: string;
    before(async () => {
      const res = await postFont(MONO, { path: 'R:MONO.TTF', chars: '0123456789é', unicodes: '0041-0043,0061' });
      expect(res.status, res.text).to.equal(200);
      zpl = res.text;
      subset = storedFont(zpl);
    });

    it('is a smaller TrueType font that maps exactly the characters kept, checksums right', () => {
      expect(subset.size).to.equal(subset.bytes.length);
      expect(subset.size).to.be.below(MONO.length / 10);
      expect(subset.bytes.readUInt32BE(0)).to.equal(0x00010000);
      expect(checksumsHold(subset.bytes)).to.equal(true);
      const font = create(subset.bytes);
      // Format 4 closes with a 0xFFFF segment that maps to glyph 0, the missing glyph.
      const mapped = font.characterSet.filter((cp) => font.glyphForCodePoint(cp).id !== 0);
      expect(mapped.sort((a, b) => a - b)).to.deep.equal(
        [...'0123456789ABCaé'].map((c) => c.codePointAt(0)!).sort((a, b) => a - b),
      );
      const whole = create(MONO);
      expect([font.unitsPerEm, font.ascent, font.descent]).to.deep.equal([
        whole.unitsPerEm,
        whole.ascent,
        whole.descent,
      ]);
    });

    it("draws each kept character's pixels as the whole font does, composites (é) included", async () => {
      const text = '^CI28^FO20,40^A@N,60,60,R:MONO.TTF^FD0189ABCaé^FS';
      const kept = await label(`${zpl}^XA${text}^XZ`);
      const whole = await label(`^XA${wholeFontDu('R:MONO.TTF', MONO)}^XZ^XA${text}^XZ`);
      expect(kept.png.equals(whole.png)).to.equal(true);
      expect(kept.warnings).to.equal('');
    });

    it('draws a dropped character as a missing glyph: blank, with its warning', async () => {
      const dropped = await label(zpl + field('XYZ'));
      expect(inkCount(decodePng(dropped.png))).to.equal(0);
      expect(dropped.warnings).to.include(
        'No font has a glyph for X (U+0058), Y (U+0059), Z (U+005A); they print as blank space',
      );
      // The whole font draws them.
      const whole = await label(`^XA${wholeFontDu('R:MONO.TTF', MONO)}^XZ${field('XYZ')}`);
      expect(inkCount(decodePng(whole.png))).to.be.greaterThan(300);
      // Beside a kept one, it is the blank space a missing glyph leaves: the kept 0 is drawn where it was.
      const mixed = await label(zpl + field('0X'));
      const zeroAlone = await label(zpl + field('0'));
      expect(mixed.png.equals(zeroAlone.png)).to.equal(true);
      expect(mixed.warnings).to.include('No font has a glyph for X (U+0058); it prints as blank space');
    });

    it('keeps characters beyond the BMP (a format 12 cmap) as the whole font draws them', async () => {
      const res = await postFont(SANS, { path: 'R:SANS.TTF', unicodes: '1D538-1D539,0041' });
      expect(res.status, res.text).to.equal(200);
      const font = create(storedFont(res.text).bytes);
      const mapped = font.characterSet.filter((cp) => font.glyphForCodePoint(cp).id !== 0);
      expect(mapped.sort((a, b) => a - b)).to.deep.equal([0x41, 0x1d538, 0x1d539]);
      const text = '^XA^CI28^FO20,40^A@N,60,60,R:SANS.TTF^FDA\u{1d538}\u{1d539}^FS^XZ';
      const kept = await label(res.text + text);
      const whole = await label(`^XA${wholeFontDu('R:SANS.TTF', SANS)}^XZ${text}`);
      expect(kept.png.equals(whole.png)).to.equal(true);
      expect(inkCount(decodePng(kept.png))).to.be.greaterThan(500);
    });
  });

  describe('refusals: 400 ERROR: ...', () => {
    const refused = async (res: request.Response, text: string | RegExp) => {
      expect(res.status, res.text).to.equal(400);
      expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
      if (typeof text === 'string') expect(res.text).to.equal(`ERROR: ${text}`);
      else expect(res.text).to.match(text);
    };

    it('a malformed field, naming it', async () => {
      await refused(
        await postFont(MONO, { path: 'R:FONT.OTF' }),
        'Invalid path R:FONT.OTF; expected a printer path like R:NAME.TTF (drive R, E, B or A; 1 to 16 letters or digits; .TTF)',
      );
      await refused(await postFont(MONO, { path: 'Q:FONT.TTF' }), /^ERROR: Invalid path Q:FONT\.TTF;/);
      await refused(await postFont(MONO, { path: 'R:ABCDEFGHIJKLMNOPQ.TTF' }), /^ERROR: Invalid path /);
      await refused(
        await postFont(MONO, { name: 'A' }),
        'Invalid name A; expected one letter of I, K, M, O, W, X, Y, Z',
      );
      for (const unicodes of ['0030-', 'G000', '0039-0030', '110000', '0030,,0031', '0030 - 0039'])
        await refused(
          await postFont(MONO, { unicodes }),
          `Invalid unicodes ${unicodes}; expected hexadecimal code points and ranges up to 10FFFF, like 0030-0039,0041-005A`,
        );
    });

    it('no font, or no multipart form', async () => {
      await refused(
        await request(app).post(FONTS).set('X-API-Key', KEYS.all).field('path', 'R:A.TTF'),
        "No font: send the TrueType file as the multipart field 'file'",
      );
      await refused(
        await request(app).post(FONTS).set('X-API-Key', KEYS.all).type('application/octet-stream').send(MONO),
        "Send the font as multipart/form-data, the file in the field 'file'",
      );
    });

    it('a file that is not a TrueType font: WOFF, CFF outlines, truncated, no font at all', async () => {
      await refused(await postFont(WOFF), 'The file is not a TrueType font: it is a WOFF web font');
      const cff = cffFont(Buffer.from([139, 139, 21, 14]), []);
      await refused(await postFont(cff), 'The file is not a TrueType font: it is an OpenType font with CFF outlines');
      await refused(
        await postFont(MONO.subarray(0, 4000)),
        /^ERROR: The file is not a TrueType font: its \S+ table lies outside the file$/,
      );
      await refused(
        await postFont(Buffer.from('^XA^FO10,10^GB100,100,100^FS^XZ')),
        'The file is not a TrueType font: it is not a TrueType or OpenType font',
      );
    });

    it('a font the renderer would not open: composites that double past its point limit', async () => {
      await refused(
        await postFont(doublingCompositeFont(40)),
        'The file is not a TrueType font: glyph 16 has more than 65536 points',
      );
    });

    it('embedding bits: restricted licence, bitmaps only, and no subsetting when a subset is asked', async () => {
      await refused(
        await postFont(withFsType(MONO, 0x0002)),
        "The font's licence forbids embedding it (OS/2 fsType 0x0002: restricted licence embedding)",
      );
      await refused(
        await postFont(withFsType(MONO, 0x0200)),
        "The font's licence allows embedding its bitmaps only (OS/2 fsType 0x0200), not its outlines",
      );
      const noSubsetting = withFsType(MONO, 0x0100);
      await refused(
        await postFont(noSubsetting, { chars: '0' }),
        "The font's licence forbids subsetting it (OS/2 fsType 0x0100: no subsetting); send it without chars or unicodes",
      );
      expect((await postFont(noSubsetting)).status).to.equal(200);
      // The least restrictive permission set wins (OpenType): restricted together with print and preview is embeddable.
      expect((await postFont(withFsType(MONO, 0x0006))).status).to.equal(200);
      // A subset keeps the font's embedding bits.
      const kept = storedFont((await postFont(withFsType(MONO, 0x0008), { chars: '0' })).text).bytes;
      expect(fsTypeOf(kept)).to.equal(0x0008);
    });

    it('a subset of characters the font has none of', async () => {
      await refused(await postFont(squareFont(), { chars: 'xyz' }), 'The font has none of the characters asked for');
      expect((await postFont(squareFont(), { chars: 'Cx' })).status).to.equal(200);
    });
  });

  it('is refused past the body limit, and needs a key of PNG scope like /graphics', async () => {
    const { app: small } = await buildApp({ fontsEndpoint: true, maxBodyBytes: 100_000 });
    const big = await request(small).post(FONTS).set('X-API-Key', KEYS.all).attach('file', MONO, 'mono.ttf');
    expect([big.status, big.text]).to.deep.equal([413, 'ERROR: Request body is larger than the limit of 100000 bytes']);
    expect((await request(app).post(FONTS).attach('file', MONO, 'mono.ttf')).status).to.equal(401);
    const pdfOnly = await postFont(MONO, {}, KEYS.pdf);
    expect([pdfOnly.status, pdfOnly.body.error]).to.deep.equal([403, 'scope_denied']);
    expect((await postFont(MONO, {}, KEYS.png)).status).to.equal(200);
  });

  it('off (the default), POST /fonts is the 404 of any unknown path, byte for byte', async () => {
    const { app: off } = await buildApp();
    const answer = async (path: string) => {
      const res = await request(off)
        .post(path)
        .set('X-API-Key', KEYS.all)
        .attach('file', MONO, 'mono.ttf')
        .buffer(true)
        .parse(binaryBody);
      const { 'x-request-id': _id, date: _date, ...headers } = res.headers;
      return { status: res.status, headers, body: (res.body as Buffer).toString('latin1') };
    };
    const fonts = await answer(FONTS);
    expect(fonts).to.deep.equal(await answer('/compatibility/legacy/v1/fontz'));
    expect([fonts.status, fonts.body]).to.deep.equal([404, 'ERROR: HTTP 404 Not Found']);
  });
});

describe('POST /fonts keeps the event loop free: a costly font is stopped in its worker', () => {
  it('answers other requests while a font works, and stops it at its time budget', async () => {
    const fonts = fontsEndpoint(4 * 1024 * 1024, 1500);
    const app = express();
    app.get('/ping', (_req, res) => {
      res.send('pong');
    });
    app.post('/fonts', (req, res, next) => {
      fonts.handle(req, res).catch(next);
    });
    app.use(answerErrors(() => {}));
    try {
      // 60 glyphs near the checker's step limit (16 million steps each): each costs fontkit a tenth of a second or more.
      const costly = manyContourFont(250, 60);
      const order: string[] = [];
      const slow = request(app)
        .post('/fonts')
        .attach('file', costly, 'costly.ttf')
        .field('unicodes', '0041-007C')
        .then((res) => {
          order.push('font');
          return res;
        });
      const ping = await request(app).get('/ping');
      order.push('ping');
      const res = await slow;
      expect(ping.text).to.equal('pong');
      expect(order).to.deep.equal(['ping', 'font']);
      expect([res.status, res.text]).to.deep.equal([500, 'ERROR: The font could not be converted within 1500 ms']);
    } finally {
      await fonts.close();
    }
  });
});

describe("POST /fonts' cmap writer", () => {
  /** A font of squareFont's glyphs whose cmap is `cmapTable(mappings)`. */
  const withCmap = (cmap: Uint8Array): Buffer => {
    const font = Buffer.from(squareFont());
    const tables = Array.from({ length: font.readUInt16BE(4) }, (_, i) => 12 + 16 * i);
    const entry = tables.find((at) => font.toString('latin1', at, at + 4) === 'cmap')!;
    // The new cmap goes at the end of the file; the directory entry points there.
    font.writeUInt32BE(font.length, entry + 8);
    font.writeUInt32BE(cmap.length, entry + 12);
    return Buffer.concat([font, cmap]);
  };

  it('maps every code point, BMP and beyond, to its glyph', () => {
    const mappings = [
      { codePoint: 0x41, glyph: 1 },
      { codePoint: 0x42, glyph: 2 },
      { codePoint: 0x44, glyph: 3 },
      { codePoint: 0x1f600, glyph: 1 },
    ];
    const font = create(withCmap(cmapTable(mappings)));
    for (const { codePoint, glyph } of mappings) expect(font.glyphForCodePoint(codePoint).id).to.equal(glyph);
    expect(font.glyphForCodePoint(0x43).id).to.equal(0);
  });

  it('writes format 12 alone when format 4 would pass its 64 KB (more than 8,190 runs)', () => {
    // Every other code point, each to a glyph of its own: one run each.
    const mappings = Array.from({ length: 9000 }, (_, i) => ({ codePoint: 0x100 + 2 * i, glyph: 1 + (i % 3) }));
    const cmap = cmapTable(mappings);
    const view = new DataView(cmap.buffer, cmap.byteOffset);
    expect([view.getUint16(2), view.getUint16(4), view.getUint16(6)]).to.deep.equal([1, 3, 10]);
    const font = create(withCmap(cmap));
    for (const { codePoint, glyph } of mappings) expect(font.glyphForCodePoint(codePoint).id).to.equal(glyph);
    expect(font.glyphForCodePoint(0x101).id).to.equal(0);
  });
});

describe("fontsEndpoint with fallthrough: /fonts is the router's, other paths the host's", () => {
  it('serves /fonts and passes anything else on', async () => {
    const { createLegacyRouter, createMemoryStores } = await import('../middleware/index.js');
    const stores = createMemoryStores();
    await stores.keyStore.add({ key: KEYS.all, scope: 'all' });
    const host = express();
    const router = createLegacyRouter({
      ...stores,
      renderThreads: 0,
      fallthrough: true,
      fontsEndpoint: true,
      log: () => {},
    });
    host.use('/', router);
    host.get('/health', (_req, res) => {
      res.send('host');
    });
    try {
      const font = squareFont();
      const res = await request(host).post('/fonts').set('X-API-Key', KEYS.all).attach('file', font, 'a.ttf');
      expect(res.text).to.equal(`^XA~DUR:FONT.TTF,${font.length},${font.toString('hex').toUpperCase()}^XZ`);
      expect((await request(host).get('/health')).text).to.equal('host');
    } finally {
      await router.close();
    }
  });
});
