// ^GS symbols inside a chain of coordinate-less ^FT fields, and the symbol font's cell sizes,
// checked through render() on the decoded PNG.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { symbolCell } from '../renderer/graphics/symbol.js';
import { decodePng, type DecodedPng } from './helpers/png.js';

async function image(zpl: string): Promise<DecodedPng> {
  return decodePng((await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 })).body);
}

/** Smallest rectangle holding the ink of columns x0..x1: [x0, y0, x1, y1] inclusive, or null. */
function inkBox(img: DecodedPng, fromX = 0, toX = img.width - 1): number[] | null {
  let bx0 = Infinity,
    by0 = Infinity,
    bx1 = -1,
    by1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = fromX; x <= toX; x++) {
      if (img.gray[y * img.width + x] >= 128) continue;
      bx0 = Math.min(bx0, x);
      by0 = Math.min(by0, y);
      bx1 = Math.max(bx1, x);
      by1 = Math.max(by1, y);
    }
  }
  return bx1 < 0 ? null : [bx0, by0, bx1, by1];
}

describe('^GS symbol cells', () => {
  it('rounds height and width to whole magnifications of the 24-dot symbol font', () => {
    expect(symbolCell(30, 20)).to.deep.equal({ height: 24, width: 24 });
    expect(symbolCell(9, 5)).to.deep.equal({ height: 24, width: 24 });
    expect(symbolCell(72, 0)).to.deep.equal({ height: 72, width: 72 });
    expect(symbolCell(60, 100)).to.deep.equal({ height: 72, width: 96 });
  });

  it('draws a symbol without ^CF or ^A on the 24-dot cell, not the 9-dot font A', async () => {
    const box = inkBox(await image('^XA^FO20,20^GS^FDC^FS^XZ'))!;
    // TM is 30 x 57 units of the 72-unit design: 10 x 19 dots on a 24-dot cell.
    expect(box[3] - box[1] + 1).to.be.within(10, 11);
    expect(box[2] - box[0] + 1).to.be.within(19, 20);
  });
});

describe('^GS in a chain of ^FT fields without coordinates', () => {
  const zpl = (symbol: string) => `^XA^FT10,100^A0N,30,20^FDAB ^FS${symbol}^FT^A0N,30,20^FDCD^FS^XZ`;

  it("starts where the previous text ended, on its baseline, at that text's font size", async () => {
    const plain = await image(zpl(''));
    const withTm = await image(zpl('^FT^GS^FDC^FS'));
    // "AB " ends where "CD" starts without the symbol; the symbol's ink begins there.
    const cdAlone = inkBox(plain, 40)!;
    const tm = inkBox(withTm, cdAlone[0] - 3, cdAlone[0] + 22)!;
    expect(tm[0]).to.be.within(cdAlone[0] - 3, cdAlone[0]);
    // Cell 24 (30 rounds to one magnification) sitting on the baseline 100: TM occupies its top 10 dots.
    expect(tm[1]).to.be.within(75, 77);
    expect(tm[3]).to.be.within(85, 87);
  });

  it('moves the next field one symbol cell to the right', async () => {
    const plain = inkBox(await image(zpl('')), 40)!;
    const shifted = inkBox(await image(zpl('^FT^GS^FDC^FS')), 40)!;
    expect(shifted[2] - plain[2]).to.equal(24);
  });
});
