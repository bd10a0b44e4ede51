// The two-width linear symbologies (^B3 ^BL ^BA ^B2 ^BI ^BJ ^BK ^B1 ^BM) read each parameter where the ZPL
// guide puts it: every option is set and unset in a document and its effect is checked on the display list.

import { expect } from 'chai';
import { layout, type LayoutElement } from '../index.js';

interface Symbol {
  /** Upright extent of the bars (dots) and their heights. */
  width: number;
  barWidths: number[];
  barHeights: number[];
  barTop: number;
  /** Interpretation lines: text and top edge. */
  texts: Array<{ text: string; y: number }>;
}

function symbolOf(zpl: string): Symbol {
  const { elements } = layout(zpl, { dpmm: 8, widthIn: 6, heightIn: 4 });
  const rects = elements.filter((e): e is Extract<LayoutElement, { kind: 'rect' }> => e.kind === 'rect');
  const runs = elements.filter((e): e is Extract<LayoutElement, { kind: 'glyphRun' }> => e.kind === 'glyphRun');
  expect(rects, zpl).to.not.be.empty;
  const x0 = Math.min(...rects.map((r) => r.box.x));
  const x1 = Math.max(...rects.map((r) => r.box.x + r.box.width));
  return {
    width: x1 - x0,
    barWidths: rects.map((r) => r.box.width),
    barHeights: rects.map((r) => r.box.height),
    barTop: Math.min(...rects.map((r) => r.box.y)),
    texts: runs.map((t) => ({ text: t.text, y: t.box.y })),
  };
}

const doc = (command: string) => `^XA^BY2,3^FO20,40${command}^FD12345^FS^XZ`;

describe('two-width linear barcodes read their options by position in the command', () => {
  // [symbology, command with the option set, with it unset, line text set, line text unset, width set vs unset]
  const options: Array<[string, string, string, string, string, 'wider' | 'narrower' | 'same']> = [
    ['Code 39 mod 43 (^B3 2nd)', '^B3N,Y,80,Y,N', '^B3N,N,80,Y,N', '*12345F*', '*12345*', 'wider'],
    ['Code 93 check on the line (^BA 5th)', '^BAN,80,Y,N,Y', '^BAN,80,Y,N,N', '12345Z ', '12345', 'same'],
    ['Interleaved 2 of 5 mod 10 (^B2 5th)', '^B2N,80,Y,N,Y', '^B2N,80,Y,N,N', '123457', '012345', 'same'],
    ['Codabar start and stop (^BK 6th, 7th)', '^BKN,N,80,Y,N,B,D', '^BKN,N,80,Y,N', 'B12345D', 'A12345A', 'same'],
    ['Code 11 one check digit (^B1 2nd)', '^B1N,Y,80,Y,N', '^B1N,N,80,Y,N', '123452', '1234528', 'narrower'],
    ['MSI check digits C vs A (^BM 2nd)', '^BMN,C,80,Y,N,Y', '^BMN,A,80,Y,N,Y', '1234558', '12345', 'wider'],
    ['MSI check digit on the line (^BM 6th)', '^BMN,C,80,Y,N,Y', '^BMN,C,80,Y,N,N', '1234558', '12345', 'same'],
  ];
  for (const [name, on, off, textOn, textOff, width] of options) {
    it(name, () => {
      const a = symbolOf(doc(on));
      const b = symbolOf(doc(off));
      expect(a.texts.map((t) => t.text)).to.deep.equal([textOn]);
      expect(b.texts.map((t) => t.text)).to.deep.equal([textOff]);
      const relation = a.width > b.width ? 'wider' : a.width < b.width ? 'narrower' : 'same';
      expect(relation, `${a.width} vs ${b.width} dots`).to.equal(width);
    });
  }

  it('Interleaved 2 of 5 with a mod 10 digit on odd data encodes two more digits (^B2 5th)', () => {
    const a = symbolOf('^XA^BY2,3^FO20,40^B2N,80,Y,N,Y^FD1234^FS^XZ');
    const b = symbolOf('^XA^BY2,3^FO20,40^B2N,80,Y,N,N^FD1234^FS^XZ');
    expect([a.texts[0].text, b.texts[0].text]).to.deep.equal(['012348', '1234']);
    expect(a.width).to.be.greaterThan(b.width);
  });

  // Orientation R, height 77, no line: every bar is 77 dots wide (turned) and no text is drawn (LOGMARS always has one).
  const turned: Array<[string, string, number]> = [
    ['^B3', '^B3R,N,77,N,N', 0],
    ['^BL', '^BLR,77,N', 1],
    ['^BA', '^BAR,77,N,N,N', 0],
    ['^B2', '^B2R,77,N,N,N', 0],
    ['^BI', '^BIR,77,N,N', 0],
    ['^BJ', '^BJR,77,N,N', 0],
    ['^BK', '^BKR,N,77,N,N', 0],
    ['^B1', '^B1R,N,77,N,N', 0],
    ['^BM', '^BMR,B,77,N,N,N', 0],
  ];
  for (const [command, params, lines] of turned) {
    it(`${command} reads orientation, height and line (${params})`, () => {
      const s = symbolOf(doc(params));
      expect(new Set(s.barWidths)).to.deep.equal(new Set([77]));
      expect(s.texts).to.have.length(lines);
      const upright = symbolOf(doc(params.replace('R,', 'N,')));
      expect(new Set(upright.barHeights)).to.deep.equal(new Set([77]));
    });
  }

  // Line above: the text's top is above the bars' top; below otherwise.
  const above: Array<[string, string, string]> = [
    ['^B3', '^B3N,N,80,Y,Y', '^B3N,N,80,Y,N'],
    ['^BL', '^BLN,80,Y', '^BLN,80,N'],
    ['^BA', '^BAN,80,Y,Y,N', '^BAN,80,Y,N,N'],
    ['^B2', '^B2N,80,Y,Y,N', '^B2N,80,Y,N,N'],
    ['^BI', '^BIN,80,Y,Y', '^BIN,80,Y,N'],
    ['^BJ', '^BJN,80,Y,Y', '^BJN,80,Y,N'],
    ['^BK', '^BKN,N,80,Y,Y', '^BKN,N,80,Y,N'],
    ['^B1', '^B1N,N,80,Y,Y', '^B1N,N,80,Y,N'],
    ['^BM', '^BMN,B,80,Y,Y,N', '^BMN,B,80,Y,N,N'],
  ];
  for (const [command, on, off] of above) {
    it(`${command} puts the line above the bars when asked (${on})`, () => {
      const a = symbolOf(doc(on));
      const b = symbolOf(doc(off));
      expect(a.texts).to.have.length(1);
      expect(b.texts).to.have.length(1);
      expect(a.texts[0].y).to.be.lessThan(a.barTop);
      expect(b.texts[0].y).to.be.greaterThan(b.barTop);
      expect(new Set(a.barHeights)).to.deep.equal(new Set([80]));
    });
  }
});
