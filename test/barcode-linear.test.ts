// Linear barcodes through the whole renderer: the PNG we produce is decoded back to its data by ZXing,
// and bar geometry (orientation, ^FT anchor, ^FR, ^BY widths) is checked on real pixels.

import { expect } from 'chai';
import fc from 'fast-check';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { render } from '../renderer/render.js';
import { decodePng, type DecodedPng } from './helpers/png.js';
import { encodeCode128, code128Modules } from '../renderer/barcodes/linear/code128-encode.js';

async function renderLabel(zpl: string, widthIn = 4, heightIn = 3): Promise<{ png: DecodedPng; warnings: string[] }> {
  const res = await render(zpl, { dpmm: 8, widthIn, heightIn, format: 'png', index: 0 });
  return { png: decodePng(res.body), warnings: res.warnings.map((w) => `${w.command} ${w.message}`) };
}

/** What ZXing reads from the rendered label's luminance (restricted to one format). */
function decodeWithZxing(png: DecodedPng, format: BarcodeFormat): string {
  const source = new RGBLuminanceSource(Uint8ClampedArray.from(png.gray), png.width, png.height);
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
}

/** Bounding box of ink (grey below 128). */
function inkBox(png: DecodedPng): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = png.width,
    y0 = png.height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (png.gray[y * png.width + x] < 128) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  return { x0, y0, x1, y1 };
}

/** Ink runs along one row, as [isInk, length] pairs. */
function rowRuns(png: DecodedPng, y: number, from: number, to: number): Array<[boolean, number]> {
  const runs: Array<[boolean, number]> = [];
  for (let x = from; x < to; x++) {
    const ink = png.gray[y * png.width + x] < 128;
    const last = runs[runs.length - 1];
    if (last && last[0] === ink) last[1]++;
    else runs.push([ink, 1]);
  }
  return runs;
}

describe('linear barcodes decode back to their data (ZXing)', () => {
  it('Code 128 in mode N, subset C by >; and with the interpretation line', async () => {
    const { png } = await renderLabel('^XA^BY2^FO40,40^BCN,100,Y,N,N^FD>;0123456789012345^FS^XZ');
    expect(decodeWithZxing(png, BarcodeFormat.CODE_128)).to.equal('0123456789012345');
  });

  it('Code 128 round-trips any printable ASCII in automatic mode (A) and in subset B (N)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .stringMatching(/^[ -~]{1,24}$/)
          .filter((s) => !s.includes('>') && !s.includes('^') && !s.includes('~') && s.trim() === s && s.length > 0),
        fc.constantFrom('A', 'N'),
        async (data, mode) => {
          const { png } = await renderLabel(`^XA^BY2^FO30,40^BCN,120,N,N,N,${mode}^FD${data}^FS^XZ`, 6, 2);
          expect(decodeWithZxing(png, BarcodeFormat.CODE_128)).to.equal(data);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('Code 128 turned 180 degrees (I) still reads', async () => {
    const { png } = await renderLabel('^XA^BY2^FO60,60^BCI,100,N,N,N^FDINVERTED-42^FS^XZ');
    expect(decodeWithZxing(png, BarcodeFormat.CODE_128)).to.equal('INVERTED-42');
  });

  it('Code 39 with a mod-43 check character', async () => {
    const { png } = await renderLabel('^XA^BY2,3^FO40,40^B3N,Y,100,Y,N^FDZPL-39 TEST^FS^XZ');
    const text = decodeWithZxing(png, BarcodeFormat.CODE_39);
    // ZXing leaves the check character in the text; Code 39 mod 43 of "ZPL-39 TEST" is one more character.
    expect(text.slice(0, -1)).to.equal('ZPL-39 TEST');
    expect(text).to.have.length(12);
  });

  it('EAN-13 from 12 digits gets its check digit', async () => {
    const { png } = await renderLabel('^XA^BY2^FO60,40^BEN,100,Y,N^FD590123412345^FS^XZ');
    expect(decodeWithZxing(png, BarcodeFormat.EAN_13)).to.equal('5901234123457');
  });

  it('UPC-A from 11 digits gets its check digit', async () => {
    const { png } = await renderLabel('^XA^BY3^FO60,40^BUN,120,Y,N,Y^FD03600029145^FS^XZ');
    expect(decodeWithZxing(png, BarcodeFormat.UPC_A)).to.equal('036000291452');
  });
});

describe('linear barcode geometry', () => {
  it('draws every Code 128 module as ^BY dots: 11 modules per character plus 13 for the stop', async () => {
    for (const w of [1, 2, 3]) {
      const { png } = await renderLabel(`^XA^BY${w}^FO20,20^BCN,50,N,N,N^FDABC^FS^XZ`);
      const box = inkBox(png);
      // start + 3 data + check = 5 characters of 11 modules, stop 13 modules
      expect(box.x1 - box.x0 + 1).to.equal((5 * 11 + 13) * w);
      expect(box.y1 - box.y0 + 1).to.equal(50);
    }
  });

  it("puts ^FT at the symbol's own bottom-left corner for each orientation", async () => {
    const expectBox = { N: [300, 200], R: [300, 300], I: [98, 300], B: [200, 98] } as const;
    for (const [o, [x, y]] of Object.entries(expectBox)) {
      const { png } = await renderLabel(`^XA^BY2^FT300,300^BC${o},100,N,N,N^FD123456^FS^XZ`, 4, 4);
      const box = inkBox(png);
      expect([box.x0, box.y0], o).to.deep.equal([x, y]);
    }
  });

  it('uses the ^BY ratio for wide elements of Code 39 (narrow 2, wide 5 at ratio 2.5)', async () => {
    const { png } = await renderLabel('^XA^BY2,2.5^FO20,20^B3N,N,40,N,N^FD1^FS^XZ');
    const widths = new Set(
      rowRuns(png, 40, 20, 200)
        .filter(([ink]) => ink)
        .map(([, n]) => n),
    );
    expect([...widths].sort()).to.deep.equal([2, 5]);
  });

  it('reverses the bars with ^FR over a black box', async () => {
    const { png } = await renderLabel('^XA^FO0,0^GB400,200,200^FS^BY2^FO40,40^FR^BCN,100,N,N,N^FDREV^FS^XZ');
    const runs = rowRuns(png, 90, 0, 400);
    // inside the box the symbol shows as paper-coloured bars: the row is no longer one ink run
    expect(runs.filter(([ink]) => !ink).length).to.be.greaterThan(10);
    expect(decodeWithZxing({ ...png, gray: png.gray.map((g) => 255 - g) }, BarcodeFormat.CODE_128)).to.equal('REV');
  });

  it('EAN-13 guard bars reach below the data bars', async () => {
    const { png } = await renderLabel('^XA^BY2^FO50,50^BEN,100,N,N^FD123456789012^FS^XZ');
    const column = (x: number) => {
      let n = 0;
      for (let y = 0; y < png.height; y++) if (png.gray[y * png.width + x] < 128) n++;
      return n;
    };
    expect(column(50)).to.be.greaterThan(100); // start guard
    let tallestData = 0;
    for (let x = 56; x < 142; x++) tallestData = Math.max(tallestData, column(x)); // left digit group
    expect(tallestData).to.equal(100);
  });
});

describe('Code 128 subsets as ZPL writes them', () => {
  it('follows >; >6 >7 invocations, subset A taking digit pairs (legacy reference codewords)', () => {
    expect(encodeCode128('>;382436>6CODE128>752375152', 'N').codewords).to.deep.equal([
      105, 38, 24, 36, 100, 35, 47, 36, 37, 17, 18, 24, 101, 52, 37, 51, 52,
    ]);
  });

  it('starts mode N in subset B and mode A switches to C for an even digit run', () => {
    expect(encodeCode128('123456', 'N').codewords).to.deep.equal([104, 17, 18, 19, 20, 21, 22]);
    expect(encodeCode128('>;9632', 'A').codewords).to.deep.equal([104, 30, 27, 99, 96, 32]);
  });

  it('mode U zero-fills to 19 digits and appends the GS1 check digit after FNC1', () => {
    const sym = encodeCode128('9632080400200044387502', 'U');
    expect(sym.codewords).to.deep.equal([105, 102, 96, 32, 8, 4, 0, 20, 0, 44, 38, 74]);
    expect(sym.text).to.equal('96320804002000443874');
  });

  it('stops with the mod-103 check and the 13-module stop pattern', () => {
    const elements = code128Modules([104, 25, 24, 23, 22, 21]);
    expect(elements.reduce((a, b) => a + b, 0)).to.equal(6 * 11 + 11 + 13);
    // the check codeword of "98765" in subset B is 27 (pattern 3,1,2,2,1,2)
    expect(elements.slice(36, 42)).to.deep.equal([3, 1, 2, 2, 1, 2]);
  });
});

describe('data a symbology cannot encode', () => {
  it('prints what it can and logs a diagnostic instead of failing the label', async () => {
    const { png, warnings } = await renderLabel('^XA^BY2^FO40,40^BEN,100,N,N^FD12345ABC6789012^FS^XZ');
    expect(warnings.some((w) => w.startsWith('^BE') && /cannot be encoded by EAN-13/.test(w))).to.equal(true);
    expect(decodeWithZxing(png, BarcodeFormat.EAN_13)).to.equal('1234567890128');
  });

  it('logs Code 128 characters outside its sets and still draws the rest', async () => {
    const { png, warnings } = await renderLabel('^XA^BY2^FO40,40^BCN,100,N,N,N^FH^FDAB_01CD^FS^XZ');
    expect(warnings.some((w) => w.startsWith('^BC') && /Code 128/.test(w))).to.equal(true);
    expect(decodeWithZxing(png, BarcodeFormat.CODE_128)).to.equal('ABCD');
  });
});
