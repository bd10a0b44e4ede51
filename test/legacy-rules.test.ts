// Rules of the legacy service found by measuring its renders (issue 21), each checked on a document written
// here: the label is rendered, the PNG decoded, and the ink measured.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import type { Dpmm } from '../renderer/api.js';
import { autoColumns } from '../renderer/barcodes/matrix/pdf417.js';
import { planQr, type QrLevel } from '../renderer/barcodes/matrix/qr-segments.js';
import { decodePng, type DecodedPng } from './helpers/png.js';

async function label(
  zpl: string | Uint8Array,
  o: { dpmm?: Dpmm; inches?: number; heightIn?: number } = {},
): Promise<DecodedPng> {
  const inches = o.inches ?? 3;
  return decodePng(
    (await render(zpl, { dpmm: o.dpmm ?? 8, widthIn: inches, heightIn: o.heightIn ?? inches, format: 'png', index: 0 }))
      .body,
  );
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  width: number;
  height: number;
}

/** Bounding box of the ink (null on a blank label). */
function inkBox(img: DecodedPng): Box | null {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.gray[y * img.width + x] < 128) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

describe('legacy rule: PDF417 automatic columns', () => {
  it('takes floor(sqrt(n / 5)) columns for n codewords', () => {
    // Every size the legacy service was seen to draw: 8..18 one column, 35 two, 47 and 58 three.
    expect([8, 10, 12, 14, 18, 35, 47, 58].map(autoColumns)).to.deep.equal([1, 1, 1, 1, 1, 2, 3, 3]);
    expect([4, 19, 20, 44, 45, 79, 80, 500].map(autoColumns)).to.deep.equal([1, 1, 2, 2, 3, 3, 4, 10]);
  });

  // 20 letters are 10 data codewords; security 1 adds 4: n = 1 + 10 + 4 = 15.
  const data = 'ABCDEFGHIJKLMNOPQRST';
  it('draws 15 codewords as one column of 15 rows (69 + 17 modules wide)', async () => {
    const box = inkBox(await label(`^XA^BY2^FO20,20^B7N,5,1^FD${data}^FS^XZ`));
    expect([box?.width, box?.height]).to.deep.equal([(69 + 17) * 2, 15 * 5]);
  });

  it('derives the rows from given columns, and the columns from given rows', async () => {
    const cols = inkBox(await label(`^XA^BY2^FO20,20^B7N,5,1,2^FD${data}^FS^XZ`));
    expect([cols?.width, cols?.height]).to.deep.equal([(69 + 2 * 17) * 2, 8 * 5]);
    const rows = inkBox(await label(`^XA^BY2^FO20,20^B7N,5,1,,5^FD${data}^FS^XZ`));
    expect([rows?.width, rows?.height]).to.deep.equal([(69 + 3 * 17) * 2, 5 * 5]);
  });
});

describe('legacy rule: ^BQ magnification', () => {
  it('honours magnifications above 10 (^BQN,2,12 draws 12-dot modules at 12 dpmm)', async () => {
    // `HELLO` at level Q is a version 1 symbol: 21 modules.
    const box = inkBox(await label('^XA^FO20,20^BQN,2,12^FDQA,HELLO^FS^XZ', { dpmm: 12 }));
    expect([box?.width, box?.height]).to.deep.equal([21 * 12, 21 * 12]);
  });

  it('bounds the magnification by the label', async () => {
    // A 1-inch label at 8 dpmm is 203 dots: at most 9 dots a module for the 21-module symbol.
    const box = inkBox(await label('^XA^FO0,0^BQN,2,99^FDQA,HELLO^FS^XZ', { inches: 1 }));
    expect(box?.width).to.equal(189);
  });

  const code128 = '^FO20,200^BCN,40,N,N,N^FD12^FS';
  const barsWidth = async (zpl: string, index = 0) => {
    const img = decodePng((await render(zpl, { dpmm: 8, widthIn: 3, heightIn: 3, format: 'png', index })).body);
    const rows = { ...img, gray: img.gray.slice(200 * img.width), height: img.height - 200 };
    return inkBox(rows)?.width;
  };

  it('sets the default module width as ^BY does, for this label and the next', async () => {
    const withBy5 = await barsWidth(`^XA^BY5${code128}^XZ`);
    const withBy2 = await barsWidth(`^XA${code128}^XZ`);
    expect(withBy5).to.not.equal(withBy2);
    expect(await barsWidth(`^XA^FO20,20^BQN,2,5^FDQA,A^FS${code128}^XZ`)).to.equal(withBy5);
    // ^BY's module width survives ^XA (guide: initial value at power-up), so this does too.
    expect(await barsWidth(`^XA^FO20,20^BQN,2,5^FDQA,A^FS^XZ^XA${code128}^XZ`, 1)).to.equal(withBy5);
    // Without a magnification, ^BQ leaves the module width alone.
    expect(await barsWidth(`^XA^FO20,20^BQN,2^FDQA,A^FS${code128}^XZ`)).to.equal(withBy2);
  });

  it('is not changed by ^BY: an omitted magnification is the density default (2 at 8 dpmm)', async () => {
    const box = inkBox(await label('^XA^BY7^FO20,20^BQN,2^FDQA,HELLO^FS^XZ'));
    expect(box?.width).to.equal(21 * 2);
  });
});

describe('legacy rule: POSTNET of any length', () => {
  /** Ink runs along one row: [start, width] pairs. */
  function runs(img: DecodedPng, y: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let x = 0; x < img.width; x++) {
      if (img.gray[y * img.width + x] >= 128) continue;
      let e = x;
      while (e + 1 < img.width && img.gray[y * img.width + e + 1] < 128) e++;
      out.push([x, e - x + 1]);
      x = e;
    }
    return out;
  }

  for (const digits of ['0123456789', '12345678901234567890', '1234']) {
    it(`draws ${digits.length} digits: frame, 5 bars a digit, check digit, frame; 2-dot bars at a 5-dot pitch`, async () => {
      const img = await label(`^XA^FO20,20^BZN,20,N^FD${digits}^FS^XZ`, { inches: 4, heightIn: 1 });
      const bottom = runs(img, 39),
        top = runs(img, 20);
      const bars = 1 + (digits.length + 1) * 5 + 1;
      expect(bottom.length).to.equal(bars);
      expect(bottom.every(([x, w], i) => w === 2 && x === 20 + 5 * i)).to.equal(true);
      // Two tall bars per digit (check digit included) and the two frame bars.
      expect(top.length).to.equal(2 * (digits.length + 1) + 2);
      expect(inkBox(img)?.height).to.equal(20);
      // Short bars are 8 dots: the row just above them is paper, the row at their top is ink.
      expect(runs(img, 31).length).to.equal(top.length);
      expect(runs(img, 32).length).to.equal(bars);
    });
  }

  it('appends the check digit that makes the sum a multiple of ten', async () => {
    // 1+2+3+4 = 10: check digit 0 (tall bars 1 and 2 of its five); digit 1 is 00011.
    const img = await label('^XA^FO20,20^BZN,20,N^FD1234^FS^XZ', { inches: 4, heightIn: 1 });
    const tall = new Set(runs(img, 20).map(([x]) => (x - 20) / 5));
    const checkStart = 1 + 4 * 5;
    expect([0, 1, 2, 3, 4].map((k) => tall.has(checkStart + k))).to.deep.equal([true, true, false, false, false]);
    expect([0, 1, 2, 3, 4].map((k) => tall.has(1 + k))).to.deep.equal([false, false, false, true, true]);
  });
});

describe('legacy rule: QR mode segmentation', () => {
  const plan = (text: string, level: QrLevel = 'L') =>
    planQr(
      Uint8Array.from(text, (c) => c.charCodeAt(0)),
      level,
    );
  const segments = (text: string) =>
    plan(text)
      .segments.map((r) => `${r.mode}${r.length}`)
      .join(' ');

  // Versions 1-9: [rule, data, segments]; each pair is just below and at a threshold.
  const cases: Array<[string, string, string]> = [
    ['an alphanumeric run after bytes stays from 4 characters', 'abcABC', 'byte6'],
    ['an alphanumeric run after bytes stays from 4 characters', 'abcABCD', 'byte3 alnum4'],
    ['... from 7 when bytes follow again', 'abcABCDEFdef', 'byte12'],
    ['... from 7 when bytes follow again', 'abcABCDEFGdef', 'byte3 alnum7 byte3'],
    ['a numeric run after bytes stays from 3 digits', 'abc12', 'byte5'],
    ['a numeric run after bytes stays from 3 digits', 'abc123', 'byte3 num3'],
    ['... from 4 when bytes follow again', 'abc123def', 'byte9'],
    ['... from 4 when bytes follow again', 'abc1234def', 'byte3 num4 byte3'],
    ['a numeric run after alphanumerics stays from 6 digits', 'ABC12345', 'alnum8'],
    ['a numeric run after alphanumerics stays from 6 digits', 'ABC123456', 'alnum3 num6'],
    ['... from 9 when alphanumerics follow again', 'ABC12345678DEF', 'alnum14'],
    ['... from 9 when alphanumerics follow again', 'ABC123456789DEF', 'alnum3 num9 alnum3'],
  ];
  for (const [rule, data, expected] of cases) {
    it(`${rule}: ${data} -> ${expected}`, () => {
      expect(segments(data)).to.equal(expected);
    });
  }

  it('merges forward first, then backward (a short run at the start joins the run after it)', () => {
    expect(segments('12abc')).to.equal('byte5');
    expect(segments('AB1234567890')).to.equal('alnum2 num10');
  });

  it('uses the thresholds of versions 10-26 in larger symbols', () => {
    // 300 bytes need version 10 or more at level L: there a final alphanumeric run needs 5 (not 4) to stay.
    const merged = plan('a'.repeat(300) + 'ABCD');
    expect(merged.version).to.be.within(10, 26);
    expect(merged.segments.map((r) => `${r.mode}${r.length}`)).to.deep.equal(['byte304']);
    expect(plan('a'.repeat(300) + 'ABCDE').segments.map((r) => `${r.mode}${r.length}`)).to.deep.equal([
      'byte300',
      'alnum5',
    ]);
    // From version 27 on, 6.
    const large = plan('a'.repeat(1500) + 'ABCDE');
    expect(large.version).to.be.within(27, 40);
    expect(large.segments.map((r) => r.mode)).to.deep.equal(['byte']);
  });

  it('draws the smaller symbol this segmentation allows', async () => {
    // One byte segment of 11 is 100 bits: version 1 at level Q (104 bits); split in three it would need version 2.
    expect(plan('abcd123efgh', 'Q')).to.include({ version: 1, level: 'Q' });
    const box = inkBox(await label('^XA^FO20,20^BQN,2,4^FDQA,abcd123efgh^FS^XZ'));
    expect(box?.width).to.equal(21 * 4);
  });
});

describe('legacy rule: field data ends at a caret, the field stays open', () => {
  const png = async (zpl: string) =>
    Buffer.from((await render(zpl, { dpmm: 8, widthIn: 3, heightIn: 3, format: 'png', index: 0 })).body);

  it('a ^FO without coordinates after the data moves the open field to 0,0', async () => {
    const img = await label('^XA^FO50,50^A0N,30,30^FDabc (^FO)^FS^XZ');
    expect(inkBox(img)!.x0).to.be.below(10);
    expect(inkBox(img)!.y0).to.be.below(10);
    expect(
      (await png('^XA^FO50,50^A0N,30,30^FDabc (^FO)^FS^XZ')).equals(await png('^XA^FO0,0^A0N,30,30^FDabc (^FS^XZ')),
    ).to.equal(true);
    // Home still applies to it, as to any ^FO0,0.
    expect(
      (await png('^XA^LH30,40^FO50,50^A0N,30,30^FDabc^FO^FS^XZ')).equals(
        await png('^XA^LH30,40^FO0,0^A0N,30,30^FDabc^FS^XZ'),
      ),
    ).to.equal(true);
  });

  it('a ^FO with coordinates still ends the field (missing ^FS)', async () => {
    expect(
      (await png('^XA^FO50,50^A0N,30,30^FDabc^FO150,150^FS^XZ')).equals(await png('^XA^FO50,50^A0N,30,30^FDabc^FS^XZ')),
    ).to.equal(true);
  });

  it('a ^FT with invalid coordinates continues after the previous field, like a bare ^FT', async () => {
    const first = '^XA^FT20,100^A0N,30,30^FDAB^FS';
    const invalid = await png(`${first}^FTx,y^A0N,30,30^FDCD^FS^XZ`);
    expect(invalid.equals(await png(`${first}^FT^A0N,30,30^FDCD^FS^XZ`))).to.equal(true);
    expect(invalid.equals(await png(`${first}^FT0,0^A0N,30,30^FDCD^FS^XZ`))).to.equal(false);
  });

  it('after a ^GB field, a bare ^FT continues at x + width, y + height', async () => {
    const bare = await png('^XA^FO20,20^GB100,50,3^FS^FT^A0N,30,30^FDX^FS^XZ');
    expect(bare.equals(await png('^XA^FO20,20^GB100,50,3^FS^FT120,70^A0N,30,30^FDX^FS^XZ'))).to.equal(true);
  });
});

describe('legacy rule: ^PW narrower than the label clips', () => {
  it('centres the print width and draws no ink outside it', async () => {
    // 3-inch label at 8 dpmm: 609 dots; ^PW400 starts at (609 - 400) / 2 = 104 and ends before 504.
    const img = await label('^XA^PW400^FO0,10^GB600,20,20^FS^FO0,50^A0N,40,40^FDWWWWWWWWWWWWWWWWWWWWWWWWWW^FS^XZ');
    const box = inkBox(img);
    expect([box?.x0, box?.x1]).to.deep.equal([104, 503]);
    // Without ^PW, the same fields run across the whole label.
    const wide = inkBox(await label('^XA^FO0,10^GB600,20,20^FS^XZ'));
    expect([wide?.x0, wide?.x1]).to.deep.equal([0, 599]);
  });
});

describe('legacy rule: font 0 below 10 dots', () => {
  const png = async (zpl: string) =>
    Buffer.from((await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 })).body);

  it('raises a ^A0 height or width below 10 to 10 (^A0B,8,7 prints as 10x10)', async () => {
    const doc = (font: string) => `^XA^FO50,50${font}^FDHello 123^FS^XZ`;
    const raised = await png(doc('^A0B,8,7'));
    expect(raised.equals(await png(doc('^A0B,10,10')))).to.equal(true);
    expect((await png(doc('^A0N,30,5'))).equals(await png(doc('^A0N,30,10')))).to.equal(true);
    expect((await png(doc('^A0N,6'))).equals(await png(doc('^A0N,10')))).to.equal(true);
    // 10 and above are kept.
    expect((await png(doc('^A0N,11,11'))).equals(await png(doc('^A0N,10,10')))).to.equal(false);
  });
});

describe('legacy rule: ^GF data and fields', () => {
  it('draws nothing when the data is shorter than the declared byte count (ASCII hex and binary)', async () => {
    expect(inkBox(await label('^XA^FO50,50^GFA,4,4,1,FFFFFFFF^FS^XZ'))).to.deep.include({
      x0: 50,
      y0: 50,
      width: 8,
      height: 4,
    });
    expect(inkBox(await label('^XA^FO50,50^GFA,4,4,1,FFFFFF^FS^XZ'))).to.equal(null);
    // Binary: a count of 20 runs past the end of the input, so the data ends at ^FS with 2 bytes.
    expect(inkBox(await label(Buffer.from('^XA^FO50,50^GFB,20,20,1,\xff\xff^FS^XZ', 'latin1')))).to.equal(null);
    expect(inkBox(await label(Buffer.from('^XA^FO50,50^GFB,2,2,1,\xff\xff^FS^XZ', 'latin1')))).to.deep.include({
      width: 8,
      height: 2,
    });
  });

  it('keeps drawing compressed data whose CRC does not match (the guide only says the printer can invalidate it)', async () => {
    const { deflateSync } = await import('node:zlib');
    const z64 = deflateSync(Buffer.alloc(4, 0xff)).toString('base64');
    const res = await render(`^XA^FO50,50^GFA,4,4,1,:Z64:${z64}:0000^FS^XZ`, {
      dpmm: 8,
      widthIn: 1,
      heightIn: 1,
      format: 'png',
      index: 0,
    });
    expect(inkBox(decodePng(res.body))).to.deep.include({ x0: 50, y0: 50, width: 8, height: 4 });
    expect(res.warnings.some((w) => /CRC/.test(w.message))).to.equal(true);
  });

  it('ends its field when its byte count swallowed the ^FS: the next ^A..^FD..^FS starts at the label home', async () => {
    // Three binary bytes `^FS` are the graphic; `abc` is a new field at ^LH 30,30.
    const png = async (zpl: string) =>
      Buffer.from((await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 })).body);
    const got = await png('^XA^LH30,30^FO50,50^GFB,3,3,1,^FS^A0N,30^FDabc^FS^XZ');
    const expected = await png('^XA^LH30,30^FO50,50^GFB,3,3,1,^FS^FS^FO0,0^A0N,30^FDabc^FS^XZ');
    expect(got.equals(expected)).to.equal(true);
    expect(inkBox(decodePng(got))).to.deep.include({ x0: 31, y0: 29 }); // b's ascender (raised half a dot at 50, as measured) inks row 29
  });
});

describe('legacy rule: font 0 baseline on a whole row', () => {
  // Flat capitals end on the baseline: rows 15, 22, 37 and 60 below the ^FO y at heights 20, 30, 50 and 80
  // (zplab h20_A .. h80_A), floor(0.75 h) and not round(): 22.5 at height 30 is row 22.
  for (const [h, row] of [
    [20, 15],
    [30, 22],
    [50, 37],
    [80, 60],
    [200, 150],
  ]) {
    it(`puts the bottom of H ${row} rows below the cell top at height ${h}`, async () => {
      const box = inkBox(await label(`^XA^FO20,20^A0N,${h},${h}^FDH^FS^XZ`, { inches: 4 }));
      expect(box?.y1).to.equal(20 + row - 1);
    });
  }
});

describe('legacy rule: font 0 pens on whole dots', () => {
  it('draws every copy of a glyph alike, at the rounded pen (iii at height 30: 0, 8 and 15 dots)', async () => {
    // The advance of i at height 30 is 7.5 to 7.75 dots (zplab h30_lcI): pens 0, 7.6, 15.2 round to 0, 8, 15.
    const img = await label('^XA^FO20,20^A0N,30,30^FDiii^FS^XZ');
    const at = (x: number, y: number) => img.gray[y * img.width + x];
    const same = (d: number) => {
      for (let y = 10; y < 60; y++) for (let x = 20; x < 27; x++) if (at(x, y) !== at(x + d, y)) return false;
      return true;
    };
    expect(inkBox(img)?.x0).to.be.within(20, 22);
    expect([same(8), same(15)]).to.deep.equal([true, true]);
    expect([same(7), same(16)]).to.deep.equal([false, false]);
  });
});

describe('legacy rule: font 0 outlines chosen over every measured size', () => {
  it('draws the period as a square block (h80_dot: 11 x 11 dots), not a round dot', async () => {
    const img = await label('^XA^FO20,20^A0N,80,80^FD.^FS^XZ');
    const box = inkBox(img)!;
    let ink = 0;
    for (let y = box.y0; y <= box.y1; y++)
      for (let x = box.x0; x <= box.x1; x++) if (img.gray[y * img.width + x] < 128) ink++;
    expect([box.width, box.height]).to.deep.equal([11, 11]);
    expect(ink).to.equal(11 * 11);
  });
});

describe('legacy rule: font 0 letters hang their descenders from the baseline', () => {
  it('keeps the bowl of p on the baseline (h50_lcP: the row above it crosses stem and bowl)', async () => {
    // Height 50 at ^FO20,20: the baseline is row 20 + 37. Stretched as one piece, Roboto's longer descender
    // lifted the bowl two rows above it.
    const img = await label('^XA^FO20,20^A0N,50,50^FDp^FS^XZ');
    const runs = (y: number) => {
      let n = 0;
      for (let x = 1; x < img.width; x++)
        if (img.gray[y * img.width + x] < 128 && img.gray[y * img.width + x - 1] >= 128) n++;
      return n;
    };
    expect([runs(20 + 36), runs(20 + 38)]).to.deep.equal([2, 1]);
  });
});

describe('legacy rule: reversed font 0 text inks every pixel its outline touches', () => {
  it('draws the stem of E 5 dots wide at ^A0N,,28 (labelize text_fo_n), where half coverage gives 4', async () => {
    const img = await label('^XA^FO30,30^A0N,,28^FR^FDE^FS^XZ');
    const box = inkBox(img)!;
    const y = box.y0 + 14; // between the middle bar and the bottom bar
    let run = 0;
    for (let x = box.x0; x <= box.x1 && img.gray[y * img.width + x] < 128; x++) run++;
    expect(run).to.equal(5);
    expect(img.gray.every((v) => v === 0 || v === 255)).to.equal(true);
  });
});

describe('legacy rule: font 0 anti-aliased by the area covered', () => {
  it('leaves the row a cap top covers 0.375 of paper (h50_H: ink from row 200, not 199)', async () => {
    // Height 50 at ^FO200,200: baseline row 237, cap height 0.7475 * 50 = 37.4, so the top edge is 199.625.
    const img = await label('^XA^FO200,200^A0N,50,50^FDH^FS^XZ', { inches: 4 });
    const box = inkBox(img)!;
    expect([box.y0, box.y1]).to.deep.equal([200, 236]);
    const fringe = img.gray[199 * img.width + box.x0 + 2];
    expect(fringe).to.be.within(150, 170); // 255 * (1 - 0.375) = 159
  });
});

describe('legacy rule: font 0 ø sits on the baseline', () => {
  it('keeps the bowl of ø on the baseline though our slash pokes further below it (h50_lcOstroke)', async () => {
    // Height 50 at ^FO20,20: baseline row 57. The legacy bowl's bottom row is 56; stretched as one piece from the
    // slash's end, ours ended on row 55.
    const img = await label('^XA^CI28^FO20,20^A0N,50,50^FDø^FS^XZ');
    let widest = 0;
    for (let x = 0; x < img.width; x++) if (img.gray[56 * img.width + x] < 128) widest++;
    expect(widest).to.be.greaterThan(8);
  });
});

describe('legacy rule: font 0 glyph boxes placed to the quarter dot by the reference', () => {
  it('raises the terminal of e at height 30 to the row the legacy e inks (labelize fo_lenient_coord)', async () => {
    // "Hello" at ^FO50,660, height 30: the legacy e's terminal inks rows 676-677 at columns 77-80. Our e sat
    // half a dot (at 50) lower and ended on row 678; the measured move lifts it.
    const img = await label('^XA^FO50,660^A0N,30,30^FDHello^FS^XZ', { heightIn: 4 });
    const inked = (x: number, y: number) => img.gray[y * img.width + x] < 128;
    expect([77, 78, 79, 80].some((x) => inked(x, 677))).to.equal(true);
  });

  it('keeps the floor-bound glyphs where the script moved them (the 1 at 50 reaches row 57)', async () => {
    // ^FO20,20 at height 50: baseline row 57 (floor 37.5 + 20). The 1 moved half a dot down ends on that row.
    const img = await label('^XA^FO20,20^A0N,50,50^FD1^FS^XZ');
    expect(inkBox(img)?.y1).to.equal(57);
  });
});
