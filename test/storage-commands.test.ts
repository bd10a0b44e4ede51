// The stored-object commands the legacy service draws: ~EG/^EG, ^TO, ^IS with ^IL/^XG, ~DB bitmap fonts and ~DY BMP
// images. Each renders a label and compares its decoded PNG pixels with the same picture drawn another way (a ^GF of
// the same bitmap, the same fields written out, a ~DG recalled at the same origin).

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import type { RenderRequest } from '../renderer/api.js';
import { decodeBmpToBitmap } from '../renderer/decode/bmp-decode.js';
import { decodePng, inkCount, type DecodedPng } from './helpers/png.js';
import { hasPoppler, rasterisePdf } from './helpers/poppler.js';

const PNG: RenderRequest = { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 0 };

async function picture(zpl: string | Uint8Array, index = 0): Promise<DecodedPng> {
  return decodePng((await render(zpl, { ...PNG, index })).body);
}

/** The two labels' pixels are the same, and not blank (a blank label equals a blank label). */
async function expectSamePixels(
  zpl: string | Uint8Array,
  other: string | Uint8Array,
  index = 0,
  otherIndex = 0,
): Promise<void> {
  const [a, b] = await Promise.all([picture(zpl, index), picture(other, otherIndex)]);
  expect(inkCount(b), 'the reference label has ink').to.be.greaterThan(0);
  expect([a.width, a.height]).to.deep.equal([b.width, b.height]);
  expect(Buffer.compare(Buffer.from(a.gray), Buffer.from(b.gray)), 'pixels differ').to.equal(0);
}

/** Rows of `#` (ink) and `.` as ASCII hex, each row padded to whole bytes. */
function hexRows(rows: readonly string[]): string[] {
  const stride = Math.ceil(rows[0].length / 8);
  return rows.map((row) => {
    const bytes = new Uint8Array(stride);
    [...row].forEach((c, x) => {
      if (c === '#') bytes[x >> 3] |= 0x80 >> (x & 7);
    });
    return Buffer.from(bytes).toString('hex').toUpperCase();
  });
}

/** `^GF` of the same rows. */
function gfOf(rows: readonly string[]): string {
  const stride = Math.ceil(rows[0].length / 8);
  return `^GFA,${stride * rows.length},${stride * rows.length},${stride},${hexRows(rows).join('')}`;
}

const LOGO = ['#######.##', '#.....#..#', '#.###.#.##', '#.....#...', '#######.##'];

describe('~EG and ^EG: erase download graphics', () => {
  it('a graphic recalled after ~EG prints nothing, and warns that it is not found', async () => {
    const dg = `~DGR:LOGO.GRF,${2 * LOGO.length},2,${hexRows(LOGO).join('')}`;
    await expectSamePixels(`${dg}^XA^FO10,10^XGR:LOGO.GRF^FS^XZ`, `^XA^FO10,10${gfOf(LOGO)}^FS^XZ`);
    const erased = `${dg}~EG^XA^FO10,10^XGR:LOGO.GRF^FS^FO40,40^GB20,20,20^FS^XZ`;
    await expectSamePixels(erased, '^XA^FO40,40^GB20,20,20^FS^XZ');
    const r = await render(erased, PNG);
    expect(r.warnings.map((w) => `${w.command} ${w.message}`)).to.deep.equal([
      '^XG Object R:LOGO.GRF not found; nothing drawn',
    ]);
  });

  it('^EG inside a format erases them for the fields after it, on every drive', async () => {
    const zpl =
      `~DGE:A.GRF,2,2,${hexRows(['##########'])[0]}~DGR:B.GRF,2,2,FFC0` +
      '^XA^FO10,10^XGE:A.GRF^FS^EG^FO10,30^XGE:A.GRF^FS^FO10,50^XGR:B.GRF^FS^XZ';
    await expectSamePixels(zpl, `^XA^FO10,10${gfOf(['##########'])}^FS^XZ`);
  });
});

describe('^TO: transfer object', () => {
  const dg = (name: string) => `~DG${name},${2 * LOGO.length},2,${hexRows(LOGO).join('')}`;

  it('copies an object to another drive under a name its wildcards give (LOGO*.GRF -> NEW*.GRF)', async () => {
    const zpl = `${dg('R:LOGO1.GRF')}${dg('R:LOGO2.GRF')}^XA^TOR:LOGO*.GRF,E:NEW*.GRF^IDR:LOGO*.GRF^FO10,10^XGE:NEW1.GRF^FS^FO10,30^XGNEW2^FS^XZ`;
    const r = await render(zpl, PNG);
    expect(r.warnings).to.deep.equal([]);
    await expectSamePixels(zpl, `^XA^FO10,10${gfOf(LOGO)}^FS^FO10,30${gfOf(LOGO)}^FS^XZ`);
  });

  it('keeps the name when the destination gives only a drive, and copies stored formats too', async () => {
    const zpl =
      `${dg('R:LOGO.GRF')}^XA^DFR:FORM.ZPL^FS^FO40,40^GB9,9,9^FS^XZ` +
      '^XA^TOR:*.*,B:^IDR:LOGO.GRF^FO10,10^XGB:LOGO.GRF^FS^XFB:FORM.ZPL^FS^XZ';
    await expectSamePixels(zpl, `^XA^FO10,10${gfOf(LOGO)}^FS^FO40,40^GB9,9,9^FS^XZ`);
  });

  it('ignores a transfer onto the same drive, or without a destination drive, as the guide says, with a warning', async () => {
    for (const to of ['R:NEW.GRF', 'NEW.GRF']) {
      const zpl = `${dg('R:LOGO.GRF')}^XA^TOR:LOGO.GRF,${to}^FO10,10^XGR:NEW.GRF^FS^XZ`;
      const r = await render(zpl, PNG);
      expect(
        r.warnings.map((w) => `${w.command}|${w.param}`),
        to,
      ).to.deep.equal(['^TO|2', '^XG|1']);
      expect(inkCount(decodePng(r.body))).to.equal(0);
    }
  });
});

describe('^IS: image save, recalled with ^IL, ^XG and ^IM', () => {
  const constant = '^FO10,10^GB60,30,4^FS^FO15,50^A0N,30,30^FDFROM^FS';
  const variable = '^FO20,100^A0N,40,40^FD12345^FS';

  it("^IS...,N stores the label without printing it; ^IL draws it under the next label's fields", async () => {
    const zpl = `^XA${constant}^ISR:FORM.GRF,N^XZ^XA^ILR:FORM.GRF${variable}^XZ`;
    const r = await render(zpl, PNG);
    expect([r.warnings, r.totalCount]).to.deep.equal([[], 1]);
    await expectSamePixels(zpl, `^XA${constant}${variable}^XZ`);
  });

  it('^IS with print Y (the default) prints the saved label as well', async () => {
    const zpl = `^XA${constant}^ISR:FORM^XZ^XA^ILR:FORM.GRF${variable}^XZ`;
    expect((await render(zpl, PNG)).totalCount).to.equal(2);
    await expectSamePixels(zpl, `^XA${constant}^XZ`, 0);
    await expectSamePixels(zpl, `^XA${constant}${variable}^XZ`, 1);
  });

  it('^XG and ^IM draw the saved image with its top-left corner at the field origin', async () => {
    const zpl = `^XA^FO10,10^GB60,30,4^FS^ISR:BOX.GRF,N^XZ^XA^FO50,80^XGR:BOX.GRF^FS^FO100,5^IMR:BOX.GRF^FS^XZ`;
    await expectSamePixels(zpl, '^XA^FO60,90^GB60,30,4^FS^FO110,15^GB60,30,4^FS^XZ');
  });
});

/** A ~DB font of the glyphs given as rows, with cell `h` x `w` and baseline `base`. */
function dbFont(
  name: string,
  h: number,
  w: number,
  base: number,
  glyphs: ReadonlyArray<{ code: number; x: number; y: number; advance: number; rows: string[] }>,
): string {
  const chars = glyphs.map(
    (g) =>
      `#${g.code.toString(16).toUpperCase().padStart(4, '0')}.${g.rows.length}.${g.rows[0].length}.${g.x}.${g.y}.${g.advance}.\r\n${hexRows(g.rows).join('\r\n')}\r\n`,
  );
  return `~DB${name},N,${h},${w},${base},6,${glyphs.length},TEST FONT,${chars.join('')}`;
}

const GLYPH_A = ['..####..', '.##..##.', '.##..##.', '.######.', '.##..##.', '.##..##.'];
const GLYPH_B = ['#####.', '##..##', '#####.', '##..##', '#####.'];
const FONT = dbFont('R:TINY.FNT', 10, 8, 8, [
  { code: 0x41, x: 0, y: 2, advance: 9, rows: GLYPH_A },
  { code: 0x42, x: 1, y: 3, advance: 8, rows: GLYPH_B },
]);

describe('~DB: download bitmap font', () => {
  it('draws text in the font its glyph bitmaps make, each at its offset, the pen moved by its advance', async () => {
    const zpl = `${FONT}^XA^FO10,10^A@N,10,8,R:TINY.FNT^FDAB A^FS^XZ`;
    const r = await render(zpl, PNG);
    expect(r.warnings).to.deep.equal([]);
    expect(r.unsupported).to.deep.equal([]);
    // A at pen 10, B at 19, the space (6, the font's space width) to 27, A at 33.
    await expectSamePixels(
      zpl,
      `^XA^FO10,12${gfOf(GLYPH_A)}^FS^FO20,13${gfOf(GLYPH_B)}^FS^FO33,12${gfOf(GLYPH_A)}^FS^XZ`,
    );
  });

  it('is selected through a ^CW alias too, magnified by whole cells as a ~DG graphic is by ^XG', async () => {
    const dg = `~DGR:A.GRF,${GLYPH_A.length},1,${hexRows(GLYPH_A).join('')}`;
    const zpl = `${FONT}^XA^CWT,R:TINY.FNT^FO10,10^ATN,20,16^FDA^FS^XZ`;
    await expectSamePixels(zpl, `${dg}^XA^FO10,14^XGR:A.GRF,2,2^FS^XZ`);
  });

  it("counts its glyph bitmaps against the object size and the document's memory budget", async () => {
    // Each glyph declares 1000 x 1000 dots (125,000 bytes) and sends no rows: tiny documents, large bitmaps.
    const big = (n: number) => `~DBR:BIG${n}.FNT,N,10,10,8,6,1,X,#0041.1000.1000.0.0.10.`;
    const doc = Array.from({ length: 12 }, (_, n) => big(n)).join('') + '^XA^FO1,1^GB5,5,5^FS^XZ';
    const err = await render(doc, { ...PNG, maxDocumentBytes: 1024 * 1024 }).then(
      () => null,
      (e: { code?: string; message: string }) => e,
    );
    expect(err?.code).to.equal('memory');
    expect(err?.message).to.match(/^Object R:BIG\d+\.FNT needs 125000 bytes/);
    const huge = `~DBR:HUGE.FNT,N,10,10,8,6,20,X,${Array.from({ length: 20 }, (_, c) => `#${(0x41 + c).toString(16)}.1000.1000.0.0.10.`).join('')}`;
    const tooLarge = await render(`${huge}^XA^XZ`, PNG).then(
      () => null,
      (e: { code?: string; message: string }) => e,
    );
    expect(tooLarge?.code).to.equal('too-large');
    expect(tooLarge?.message).to.contain('Object R:HUGE.FNT is');
  });

  it("reads the guide's example rows (the letter O as zero) and negative offsets", async () => {
    const zpl =
      '~DBR:EX.FNT,N,5,16,3,10,1,ZEBRA 1992,#0025.2.16.-2.-1.18.\nOOFF\nFFOO\n^XA^FO20,20^A@N,5,16,R:EX.FNT^FD%%^FS^XZ';
    const rows = ['........########', '########........'];
    await expectSamePixels(zpl, `^XA^FO18,19${gfOf(rows)}^FS^FO36,19${gfOf(rows)}^FS^XZ`);
  });

  it('reports a malformed character and draws the others', async () => {
    const zpl = `~DBR:BAD.FNT,N,10,8,8,6,2,X,#ZZ.1.1.0.0.1.80#0041.6.8.0.2.9.${hexRows(GLYPH_A).join('')}^XA^FO10,10^A@N,10,8,R:BAD.FNT^FDA^FS^XZ`;
    const r = await render(zpl, PNG);
    expect(r.warnings.map((w) => `${w.command}|${w.param}|${w.message}`)).to.deep.equal([
      '~DB|9|Bitmap font character is not #code.height.width.x.y.advance.data; skipped',
      '~DB|9|Bitmap font declares 2 characters; 1 were read',
    ]);
    await expectSamePixels(zpl, `^XA^FO10,12${gfOf(GLYPH_A)}^FS^XZ`);
  });
});

/** A BMP of `rows` (`#` black), `bpp` bits a pixel, rows bottom-up unless `topDown`. */
function bmpOf(rows: readonly string[], bpp: 1 | 24 | 32, topDown = false): Buffer {
  const w = rows[0].length,
    h = rows.length;
  const rowBytes = Math.ceil((w * bpp) / 32) * 4;
  const palette = bpp === 1 ? 8 : 0;
  const offset = 14 + 40 + palette;
  const b = Buffer.alloc(offset + rowBytes * h);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(offset, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(w, 18);
  b.writeInt32LE(topDown ? -h : h, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(bpp, 28);
  if (bpp === 1) {
    // Index 0 black, index 1 white: the palette, not the bit, says which is ink.
    b.writeUInt32LE(2, 46);
    b.writeUInt32LE(0x000000, 54);
    b.writeUInt32LE(0xffffff, 58);
  }
  rows.forEach((row, y) => {
    const at = offset + (topDown ? y : h - 1 - y) * rowBytes;
    [...row].forEach((c, x) => {
      const ink = c === '#';
      if (bpp === 1) {
        if (!ink) b[at + (x >> 3)] |= 0x80 >> (x & 7);
      } else {
        const v = ink ? 0x20 : 0xe0;
        b.fill(v, at + x * (bpp / 8), at + x * (bpp / 8) + 3);
        if (bpp === 32) b[at + x * 4 + 3] = 0xff;
      }
    });
  });
  return b;
}

describe('~DY with extension B: BMP images', () => {
  const ROWS = ['#........#.#', '.#..##..#...', '..##..##....', '############'];

  for (const [bpp, topDown] of [
    [1, false],
    [1, true],
    [24, false],
    [24, true],
    [32, false],
    [32, true],
  ] as const) {
    it(`decodes a ${bpp}-bit ${topDown ? 'top-down' : 'bottom-up'} BMP, drawn by ^IM and ^XG as the same ^GF`, async () => {
      const bmp = bmpOf(ROWS, bpp, topDown);
      const zpl = `~DYR:LOGO,A,B,${bmp.length},,${bmp.toString('hex').toUpperCase()}^XA^FO10,10^IMR:LOGO.BMP^FS^FO40,40^XGR:LOGO.BMP,2,1^FS^XZ`;
      const r = await render(zpl, PNG);
      expect(r.warnings).to.deep.equal([]);
      const dg = `~DGR:REF.GRF,${2 * ROWS.length},2,${hexRows(ROWS).join('')}`;
      await expectSamePixels(zpl, `${dg}^XA^FO10,10${gfOf(ROWS)}^FS^FO40,40^XGR:REF.GRF,2,1^FS^XZ`);
    });
  }

  it('takes binary (format B) and base64 data, and ^IM finds a BMP without its extension', async () => {
    const bmp = bmpOf(ROWS, 24);
    const binary = Buffer.concat([
      Buffer.from(`~DYR:PIC,B,B,${bmp.length},,`, 'latin1'),
      bmp,
      Buffer.from('^XA^FO10,10^IMR:PIC^FS^XZ', 'latin1'),
    ]);
    await expectSamePixels(binary, `^XA^FO10,10${gfOf(ROWS)}^FS^XZ`);
    const b64 = `~DYR:PIC,A,B,${bmp.length},,:B64:${bmp.toString('base64')}^XA^FO10,10^IMR:PIC.BMP^FS^XZ`;
    await expectSamePixels(b64, `^XA^FO10,10${gfOf(ROWS)}^FS^XZ`);
  });

  it('warns clearly about a bad BMP and draws the rest of the label', async () => {
    const good = bmpOf(ROWS, 24);
    const rle = Buffer.from(good);
    rle.writeUInt32LE(1, 30); // BI_RLE8
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('not a bitmap at all'), 'Object data is not a BMP image; ignored'],
      [good.subarray(0, good.length - 10), 'BMP image could not be decoded: BMP pixel data is truncated'],
      [good.subarray(0, 20), 'BMP image could not be decoded: BMP header is truncated'],
      [rle, 'BMP image could not be decoded: compressed BMP images (compression 1) are not supported'],
    ];
    for (const [bytes, message] of cases) {
      const zpl = `~DYR:BAD,A,B,${bytes.length},,${bytes.toString('hex')}^XA^FO10,10^IMR:BAD.BMP^FS^FO40,40^GB9,9,9^FS^XZ`;
      const r = await render(zpl, PNG);
      expect(r.warnings.map((w) => `${w.command}|${w.message}`)[0], message).to.satisfy((m: string) =>
        m.startsWith(`~DY|${message}`),
      );
      await expectSamePixels(zpl, '^XA^FO40,40^GB9,9,9^FS^XZ');
    }
  });

  it('never crashes on a BMP whose header bytes are changed one by one: a warning, or too-large past 2,000 pixels', async () => {
    const good = bmpOf(['#.#.#.#.#', '.#.#.#.#.'], 1);
    let warned = 0;
    for (let at = 0; at < 70; at++) {
      for (const v of [0x00, 0x7f, 0x80, 0xff]) {
        const bad = Buffer.from(good);
        bad[at] = v;
        const zpl = `~DYR:BAD,A,B,${bad.length},,${bad.toString('hex')}^XA^FO40,40^GB9,9,9^FS^XZ`;
        const outcome = await render(zpl, PNG).then(
          (r) => r.warnings.length,
          (e: { code?: string }) => e.code,
        );
        expect(outcome === 0 || outcome === 1 || outcome === 'too-large', `byte ${at} = ${v}: ${outcome}`).to.equal(
          true,
        );
        if (outcome === 1) warned++;
      }
    }
    expect(warned).to.be.greaterThan(0);
  });

  it('claims the decoded bitmap before allocating it, and a claim refused stops the decoding', () => {
    const claims: number[] = [];
    decodeBmpToBitmap(bmpOf(ROWS, 24), { claim: (n) => claims.push(n), charge() {} });
    expect(claims).to.deep.equal([2 * ROWS.length]);
    const spent = {
      claim() {
        throw new Error('budget spent');
      },
      charge() {},
    };
    expect(() => decodeBmpToBitmap(bmpOf(ROWS, 24), spent)).to.throw('budget spent');
  });

  it('still decodes ~DY GRF (G) and stores TrueType (T) (PNG: storage-objects.test.ts)', async () => {
    const grf = `~DYR:G1,A,G,${2 * ROWS.length},2,${hexRows(ROWS).join('')}^XA^FO10,10^IMR:G1.GRF^FS^XZ`;
    await expectSamePixels(grf, `^XA^FO10,10${gfOf(ROWS)}^FS^XZ`);
    const r = await render('~DYE:FONT,B,T,4,,ABCD^XA^XZ', PNG);
    expect(r.warnings.filter((w) => /Unknown|not a/.test(w.message))).to.deep.equal([]);
  });
});

describe('the vector PDF draws them as the PNG does', () => {
  it('~DB glyphs and a ^IS image recalled by ^IL, pixel for pixel once rasterised', async function () {
    if (!hasPoppler()) this.skip();
    const zpl = `${FONT}^XA^FO10,10^GB60,30,4^FS^ISR:FORM.GRF,N^XZ^XA^ILR:FORM.GRF^FO20,60^A@N,20,16,R:TINY.FNT^FDAB^FS^XZ`;
    const png = await picture(zpl);
    const pdf = await render(zpl, { dpmm: 8, widthIn: 1, heightIn: 1, format: 'pdf' });
    const page = rasterisePdf(pdf.body, png.width, png.height);
    let differ = 0;
    for (let i = 0; i < png.gray.length; i++) if (png.gray[i] < 128 !== page.grey[i] < 128) differ++;
    expect(inkCount(png)).to.be.greaterThan(0);
    expect(differ).to.equal(0);
  });
});
