// 2D and stacked symbols through render(): the PNG is decoded and read back with ZXing, positions are
// checked on real pixels, and the ^FD conventions of the legacy renderer are checked piece by piece.

import { expect } from 'chai';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { render } from '../renderer/render.js';
import type { RenderResult } from '../renderer/api.js';
import { parseQrData, encodeQr, type QrLevel } from '../renderer/barcodes/matrix/qr.js';
import { encodeDataMatrix, parseDataMatrixData } from '../renderer/barcodes/matrix/datamatrix.js';
import { FNC1, encodeDataMatrixData } from '../renderer/barcodes/matrix/datamatrix-codewords.js';
import { maxiCodeMessage } from '../renderer/barcodes/matrix/maxicode.js';
import { autoColumns, encodePdf417 } from '../renderer/barcodes/matrix/pdf417.js';
import { encodeAztec } from '../renderer/barcodes/matrix/aztec.js';
import { aztecBits, aztecSize } from '../renderer/barcodes/matrix/aztec-bits.js';
import { planQr, qrDataCodewords } from '../renderer/barcodes/matrix/qr-segments.js';
import { interleave, qrSymbol } from '../renderer/barcodes/matrix/qr-symbol.js';
import { encodeGrid } from '../renderer/barcodes/matrix/grid.js';
import { decodePng, type DecodedPng } from './helpers/png.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ZXing = require('@zxing/library') as typeof import('@zxing/library');

async function renderLabel(zpl: string | Uint8Array, inches = 3): Promise<RenderResult> {
  return render(zpl, { dpmm: 8, widthIn: inches, heightIn: inches, format: 'png', index: 0 });
}

/**
 * Reads the one symbol on a decoded label with ZXing, from the PNG's grey levels cropped to the ink with a
 * quiet zone (ZXing's Data Matrix and Aztec detectors want the symbol alone: PURE_BARCODE).
 */
function readSymbol(img: DecodedPng, format: number, invert = false): { text: string } {
  const box = inkBox(img, invert);
  const pad = 20;
  const w = box.x1 - box.x0 + 1 + 2 * pad;
  const h = box.y1 - box.y0 + 1 + 2 * pad;
  const lum = new Uint8ClampedArray(w * h).fill(255);
  for (let y = box.y0; y <= box.y1; y++) {
    for (let x = box.x0; x <= box.x1; x++) {
      const v = img.gray[y * img.width + x];
      lum[(y - box.y0 + pad) * w + (x - box.x0 + pad)] = invert ? 255 - v : v;
    }
  }
  const source = new ZXing.RGBLuminanceSource(lum, w, h);
  const bitmap = new ZXing.BinaryBitmap(new ZXing.HybridBinarizer(source));
  const hints = new Map<number, unknown>([
    [ZXing.DecodeHintType.POSSIBLE_FORMATS, [format]],
    [ZXing.DecodeHintType.PURE_BARCODE, true],
  ]);
  const reader = new ZXing.MultiFormatReader();
  return { text: reader.decode(bitmap, hints as never).getText() };
}

async function decodeLabel(zpl: string, format: number): Promise<string> {
  const img = decodePng((await renderLabel(zpl)).body);
  return readSymbol(img, format).text;
}

/** Bounding box of the ink on a label (of the paper, for reverse-printed symbols). */
function inkBox(img: DecodedPng, paper = false): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.gray[y * img.width + x] < 128 !== paper) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  return { x0, y0, x1, y1 };
}

const F = ZXing.BarcodeFormat;

describe('2D barcodes decode back to their data', () => {
  const samples: Array<[string, string, number, string]> = [
    ['QR automatic', '^XA^FO40,40^BQN,2,4^FDQA,Hello World^FS^XZ', F.QR_CODE, 'Hello World'],
    [
      'QR manual bytes (count kept, pipes kept)',
      '^XA^FO40,40^BQN,2,4^FDHM,B0009ab|cd|efXYZ^FS^XZ',
      F.QR_CODE,
      'ab|cd|efX',
    ],
    [
      'QR carrier payload without pipes',
      '^XA^FO40,40^BQN,2,4^FDMM,AAB123456789GB|SW1A1AA|JOHNSMITH^FS^XZ',
      F.QR_CODE,
      'AB123456789GBSW1A1AAJOHNSMITH',
    ],
    [
      'QR URL',
      '^XA^FO20,20^BQN,2,3^FDQA,https://example.com/track?id=0000012345^FS^XZ',
      F.QR_CODE,
      'https://example.com/track?id=0000012345',
    ],
    ['Data Matrix', '^XA^FO40,40^BXN,6,200^FDDataMatrixTest 12345^FS^XZ', F.DATA_MATRIX, 'DataMatrixTest 12345'],
    [
      'Data Matrix with escapes (underscore by default)',
      '^XA^FO40,40^BXN,6,200^FDA_d066C__^FS^XZ',
      F.DATA_MATRIX,
      'ABC_',
    ],
    [
      'Data Matrix with another escape character',
      '^XA^FO40,40^BXN,6,200,,,,!^FDA!d066C_d^FS^XZ',
      F.DATA_MATRIX,
      'ABC_d',
    ],
    ['PDF417', '^XA^BY2^FO20,40^B7N,8,2,4^FDPDF417 sample 0123456789^FS^XZ', F.PDF_417, 'PDF417 sample 0123456789'],
    [
      'PDF417 automatic size',
      '^XA^BY2^FO20,40^B7N,6^FDABCDEFGHIJ0123456789ABCDEFGHIJ^FS^XZ',
      F.PDF_417,
      'ABCDEFGHIJ0123456789ABCDEFGHIJ',
    ],
    ['Aztec', '^XA^FO40,40^BON,5^FDAztec123^FS^XZ', F.AZTEC, 'Aztec123'],
    [
      'Aztec with 50% error correction',
      '^XA^FO40,40^B0N,4,N,50^FDPart:123;Warehouse:BYZA^FS^XZ',
      F.AZTEC,
      'Part:123;Warehouse:BYZA',
    ],
  ];
  for (const [name, zpl, format, text] of samples) {
    it(name, async () => {
      expect(await decodeLabel(zpl, format)).to.equal(text);
    });
  }

  it('turns a Data Matrix with R: turned back a quarter, it reads', async () => {
    const img = decodePng((await renderLabel('^XA^FO40,40^BXR,6,200^FDTurned 90^FS^XZ')).body);
    // Rotate the label 90 degrees counter-clockwise (ZXing's pure reader wants the L finder bottom-left).
    const back = new Uint8Array(img.width * img.height);
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) back[(img.width - 1 - x) * img.height + y] = img.gray[y * img.width + x];
    expect(readSymbol({ ...img, width: img.height, height: img.width, gray: back }, F.DATA_MATRIX).text).to.equal(
      'Turned 90',
    );
  });

  it('reverse-prints a QR Code over a black box (^FR), still readable', async () => {
    // The whole 3-inch label is black, the symbol's dark modules are paper.
    const zpl = '^XA^FO0,0^GB700,700,700^FS^FO30,30^BQN,2,4^FR^FDQA,reversed^FS^XZ';
    const img = decodePng((await renderLabel(zpl)).body);
    expect(readSymbol(img, F.QR_CODE, true).text).to.equal('reversed');
  });
});

describe('2D barcode placement', () => {
  it('drops a ^FO QR Code by the ^BY bar height, like the legacy renderer', async () => {
    const a = inkBox(decodePng((await renderLabel('^XA^FO50,50^BQN,2,4^FDQA,Hello World^FS^XZ')).body));
    const b = inkBox(decodePng((await renderLabel('^XA^BY2,3,100^FO50,50^BQN,2,4^FDQA,Hello World^FS^XZ')).body));
    expect([a.x0, a.y0, a.x1 - a.x0 + 1]).to.deep.equal([50, 60, 84]);
    expect([b.x0, b.y0]).to.deep.equal([50, 150]);
  });

  it('lifts a ^FT QR Code (version 1, x5) 120 dots above its baseline', async () => {
    const box = inkBox(decodePng((await renderLabel('^XA^FT100,400^BQN,2,5^FDMA,HELLO WORLD^FS^XZ', 4)).body));
    expect([box.x0, box.y0, box.y1]).to.deep.equal([100, 280, 384]);
  });

  it('turns a Data Matrix with R and keeps its box at the ^FO corner', async () => {
    const n = inkBox(decodePng((await renderLabel('^XA^FO100,100^BXN,5,200^FDDataMatrixTest^FS^XZ')).body));
    const r = inkBox(decodePng((await renderLabel('^XA^FO100,100^BXR,5,200^FDDataMatrixTest^FS^XZ')).body));
    expect([n.x0, n.y0, n.x1 - n.x0 + 1, n.y1 - n.y0 + 1]).to.deep.equal([100, 100, 90, 90]);
    expect([r.x0, r.y0, r.x1 - r.x0 + 1, r.y1 - r.y0 + 1]).to.deep.equal([100, 100, 90, 90]);
  });

  it('draws PDF417 rows h dots high and modules ^BY wide (17 x (columns + 4) + 1 modules)', async () => {
    const box = inkBox(decodePng((await renderLabel('^XA^BY2^FO50,50^B7N,10,1,4^FD1234567890^FS^XZ')).body));
    expect([box.x1 - box.x0 + 1, box.y1 - box.y0 + 1]).to.deep.equal([2 * (17 * 8 + 1), 30]);
  });

  it('prints TLC39 as Code 39 (40 dots at 8 dpmm) with a MicroPDF417 above only when a comma follows the ECI number', async () => {
    const alone = inkBox(decodePng((await renderLabel('^XA^FO100,100^BT^FD1234567^FS^XZ')).body));
    const linked = inkBox(decodePng((await renderLabel('^XA^FO100,100^BT^FD123456,ABCd1234^FS^XZ')).body));
    expect([alone.y0, alone.y1 - alone.y0 + 1]).to.deep.equal([100, 40]);
    expect(linked.y0).to.equal(100);
    expect(linked.y1 - linked.y0 + 1).to.be.greaterThan(40);
    // Same Code 39 (only six digits are encoded), so the same width at the bottom.
    expect(linked.x1 - linked.x0).to.be.at.least(alone.x1 - alone.x0);
  });

  it('draws MaxiCode at its fixed size with the bullseye at the centre', async () => {
    const zpl = '^XA^FO20,20^BD2^FD0028401004500001Z00004951^FS^XZ';
    const img = decodePng((await renderLabel(zpl)).body);
    const box = inkBox(img);
    expect([box.x0, box.y0]).to.deep.equal([20, 20]);
    expect(box.x1 - box.x0 + 1).to.be.within(196, 201);
    // On a line through the bullseye centre: three dark rings either side of a light centre.
    const cy = 20 + 96,
      cx = 20 + 96;
    let runs = 0;
    let prev = false;
    for (let x = cx - 31; x <= cx + 31; x++) {
      const ink = img.gray[cy * img.width + x] < 128;
      if (ink && !prev) runs++;
      prev = ink;
    }
    expect(runs).to.equal(6);
    expect(img.gray[cy * img.width + cx]).to.be.greaterThan(127);
  });
});

describe('2D barcode field data', () => {
  it('reads the QR ^FD prefix the way the legacy renderer does', () => {
    expect(parseQrData('QA,Hello')).to.deep.equal({ level: 'Q', text: 'Hello' });
    expect(parseQrData('HM,N123456')).to.deep.equal({ level: 'H', text: '123456' });
    expect(parseQrData('LM,B0004ab|cdef')).to.deep.equal({ level: 'L', text: 'ab|c' });
    expect(parseQrData('MA,a|b|c')).to.deep.equal({ level: 'M', text: 'abc' });
    // A digit in the input-mode position is not followed by a separator; an unknown level reads as M.
    expect(parseQrData('9876543210')).to.deep.equal({ level: 'M', text: '76543210' });
    expect(parseQrData('EXAMPLE CODE')).to.deep.equal({ level: 'M', text: 'MPLE CODE' });
    // Manual mode segments, and a structured-append header before the level.
    expect(parseQrData('D03048F,LM,N0123456789,A12AABB,B0006qrcode')).to.deep.equal({
      level: 'L',
      text: '012345678912AABBqrcode',
    });
  });

  it('chooses the QR mask the legacy renderer chose for `abcabaa` at level H (mask 1)', () => {
    const g = encodeQr({ level: 'H', text: 'abcabaa' });
    // Format information: row 8, columns 0-5, 7, 8, then column 8, rows 7, 5..0 (bits 14..0).
    const at = (x: number, y: number) => g.bits[y * g.width + x];
    const cells: Array<[number, number]> = [
      [0, 8],
      [1, 8],
      [2, 8],
      [3, 8],
      [4, 8],
      [5, 8],
      [7, 8],
      [8, 8],
      [8, 7],
      [8, 5],
      [8, 4],
      [8, 3],
      [8, 2],
      [8, 1],
      [8, 0],
    ];
    const format = cells.reduce((v, [x, y]) => (v << 1) | at(x, y), 0) ^ 0x5412;
    expect(format >> 13).to.equal(0b10); // level H
    expect((format >> 10) & 7).to.equal(1);
  });

  it('segments QR data like the legacy renderer: short digit runs stay alphanumeric, zeros in a URL go numeric', () => {
    const bytes = (t: string) => Uint8Array.from(t, (c) => c.charCodeAt(0));
    // Decoded from the legacy renderer's symbols: level M (a single alphanumeric segment would have allowed Q).
    const royal = planQr(bytes('AB123456789GBSW1A1AAJOHNSMITH'), 'M');
    expect(royal.segments.map((s) => `${s.mode}${s.length}`)).to.deep.equal(['alnum2', 'num9', 'alnum18']);
    expect([royal.version, royal.level]).to.deep.equal([2, 'M']);
    const url = planQr(bytes('https://system.com/#0000000000:test@ingrid.com:merchant?languageCode=no'), 'Q');
    expect(url.segments.map((s) => `${s.mode}${s.length}`)).to.deep.equal(['byte20', 'num10', 'byte41']);
  });

  it('builds the same QR symbol as bwip-js for single-segment data, for every mask and across versions', () => {
    for (const [text, level] of [
      ['Hello World', 'Q'],
      ['12345678901234567890', 'H'],
      ['x'.repeat(300), 'Q'],
    ] as const) {
      const data = Uint8Array.from(text, (c) => c.charCodeAt(0));
      const plan = planQr(data, level);
      const codewords = interleave(qrDataCodewords(data, plan), plan.version, plan.level);
      for (let mask = 0; mask < 8; mask++) {
        const ours = qrSymbol(codewords, plan.version, plan.level, mask);
        const theirs = encodeGrid('qrcode', text, {
          eclevel: plan.level,
          fixedeclevel: true,
          version: String(plan.version),
          mask: mask + 1,
        });
        expect(Buffer.from(ours.bits).equals(Buffer.from(theirs.bits)), `${text.slice(0, 12)} mask ${mask}`).to.equal(
          true,
        );
      }
    }
  });

  it('reads Data Matrix escapes: ~dNNN, ~1 as FNC1, control letters, a doubled escape', () => {
    const codes = (t: string) => Array.from(t, (c) => c.charCodeAt(0));
    expect(parseDataMatrixData('A~d066~~C', '~')).to.deep.equal(codes('AB~C'));
    expect(parseDataMatrixData('~10123^x', '~')).to.deep.equal([FNC1, ...codes('0123^x')]);
    expect(parseDataMatrixData('a~Mb', '~')).to.deep.equal(codes('a\rb'));
  });

  it('chooses Data Matrix encodation like the legacy renderer: `||Laura` keeps both bars in ASCII, then Text', () => {
    const codes = Array.from('3UW1TM2039429|9000001||Laura Bianchi|Laura Bianchi|Via Garibaldi, 10', (c) =>
      c.charCodeAt(0),
    );
    const cw = encodeDataMatrixData(codes).codewords;
    // ...'1' '|' '|' in ASCII (value + 1), then the Text latch 239.
    const at = cw.indexOf(239);
    expect(cw.slice(at - 3, at + 1)).to.deep.equal([50, 125, 125, 239]);
  });

  it('moves the MaxiCode primary message into the structured carrier message bwip-js expects', () => {
    const msg = maxiCodeMessage(3, '4030405000  [)>\x1e01\x1d961Z0872\x1dUPSN');
    expect(msg).to.equal('[)>\x1e01\x1d965000  \x1d040\x1d403\x1d1Z0872\x1dUPSN');
    expect(maxiCodeMessage(2, '002840100450000data')).to.equal('100450000\x1d840\x1d002\x1ddata');
    expect(maxiCodeMessage(4, 'free text')).to.equal('free text');
  });

  it('sizes Aztec symbols for an error control percentage like the legacy renderer', () => {
    const bits = aztecBits(Uint8Array.from('Part:123;Warehouse:BYZA;Position:12-12-1', (c) => c.charCodeAt(0)));
    // Shifts for runs under three characters and fixed routes: 267 bits where an optimal encoder needs fewer.
    expect(bits.length).to.equal(267);
    const sizes = [23, 45, 70, 95]
      .map((p) => aztecSize(bits, p))
      .map((s) => `${s.compact ? 'compact' : 'full'} ${s.layers}`);
    expect(sizes).to.deep.equal(['compact 3', 'compact 4', 'full 5', 'full 15']);
  });

  it('picks narrow PDF417 symbols when columns and rows are not given', () => {
    expect([8, 10, 36, 45, 58].map(autoColumns)).to.deep.equal([1, 1, 2, 3, 3]);
  });
});

describe('2D barcodes with data they cannot encode', () => {
  it('skips the field, logs a diagnostic at the field and still draws the rest of the label', async () => {
    const digits = '9'.repeat(8000);
    const zpl = `^XA^FO10,10^GB50,50,50^FS^FO100,10^BQN,2,2^FDHA,${digits}^FS^XZ`;
    const res = await renderLabel(zpl);
    const img = decodePng(res.body);
    expect(inkBox(img)).to.deep.equal({ x0: 10, y0: 10, x1: 59, y1: 59 });
    const d = res.warnings.find((w) => w.command === '^BQ');
    expect(d, 'diagnostic for ^BQ').to.not.equal(undefined);
    // It points at the field data: the bytes after ^FD.
    expect([d!.byteIndex, d!.byteSize]).to.deep.equal([zpl.indexOf('HA,'), 3 + digits.length]);
  });
});

describe('2D barcode encoders on arbitrary data', () => {
  /** Reads a module grid (drawn 4 dots a module, rows `rowScale` times taller) with ZXing. */
  function readGrid(g: { width: number; height: number; bits: Uint8Array }, format: number, rowScale = 1): string {
    const s = 4;
    const pad = 12;
    const w = (g.width + 2 * pad) * s;
    const h = (g.height + 2 * pad) * s * rowScale;
    const gray = new Uint8Array(w * h).fill(255);
    for (let y = 0; y < g.height; y++) {
      for (let x = 0; x < g.width; x++) {
        if (!g.bits[y * g.width + x]) continue;
        for (let dy = 0; dy < s * rowScale; dy++)
          gray.fill(
            0,
            ((y + pad) * s * rowScale + dy) * w + (x + pad) * s,
            ((y + pad) * s * rowScale + dy) * w + (x + pad + 1) * s,
          );
      }
    }
    return readSymbol({ width: w, height: h, bitDepth: 8, colorType: 0, gray }, format).text;
  }
  const chars = fc.constantFrom(...'ABCXYZabcxyz0123456789 .,:;-/()*+#$%&@!?\r\n\t');
  const text = (min: number) => fc.array(chars, { minLength: min, maxLength: 80 }).map((a) => a.join(''));
  const bytes = (t: string) => Uint8Array.from(t, (c) => c.charCodeAt(0));
  const params = { numRuns: 40, seed: 20261121 };

  it('QR symbols read back as their data', () => {
    fc.assert(
      fc.property(text(1), fc.constantFrom<QrLevel>('L', 'M', 'Q', 'H'), (t, level) => {
        expect(readGrid(encodeQr({ level, text: t }), F.QR_CODE)).to.equal(t);
      }),
      params,
    );
  });

  it('Data Matrix symbols read back as their data', () => {
    fc.assert(
      fc.property(text(1), (t) => {
        expect(readGrid(encodeDataMatrix(Array.from(bytes(t)), 0, 0, false), F.DATA_MATRIX)).to.equal(t);
      }),
      params,
    );
  });

  it('Aztec symbols read back as their data, whatever the error control percentage', () => {
    fc.assert(
      fc.property(text(1), fc.constantFrom(0, 10, 23, 50, 80), (t, errorControl) => {
        expect(readGrid(encodeAztec(bytes(t), { errorControl, readerInit: false }), F.AZTEC)).to.equal(t);
      }),
      params,
    );
  });

  it('PDF417 symbols read back as their data', () => {
    fc.assert(
      fc.property(text(2), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 5 }), (t, security, columns) => {
        expect(
          readGrid(encodePdf417(bytes(t), { security, columns, rows: 0, truncate: false }), F.PDF_417, 3),
        ).to.equal(t);
      }),
      params,
    );
  });
});
