// The pieces under the linear drawers: symbol frames turned N/R/I/B, check characters, GS1 AI parsing.

import { expect } from 'chai';
import fc from 'fast-check';
import { placeSymbol, toLabelRect, type SymbolFrame } from '../renderer/barcodes/common/frame.js';
import { barsFromRuns, narrowWideToDots } from '../renderer/barcodes/common/bars.js';
import { code11Checks, code39Check, code93Checks, msiMod10 } from '../renderer/barcodes/linear/checks.js';
import { plesseyBits } from '../renderer/barcodes/linear/plessey.js';
import { bracketAis } from '../renderer/barcodes/linear/databar.js';
import { gs1CheckDigit } from '../renderer/barcodes/linear/code128-encode.js';
import type { Orientation } from '../renderer/model.js';

const ORIENTATIONS: Orientation[] = ['N', 'R', 'I', 'B'];

describe('symbol frames', () => {
  it('keep every upright rectangle inside the turned bounding box, with its area', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ORIENTATIONS),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 299 }),
        fc.integer({ min: 0, max: 299 }),
        (o, width, height, u0, v0) => {
          const f: SymbolFrame = { x: 10, y: 20, width, height, orientation: o };
          const u = u0 % width,
            v = v0 % height;
          const w = Math.min(5, width - u),
            h = Math.min(7, height - v);
          const r = toLabelRect(f, u, v, w, h);
          const [bw, bh] = o === 'N' || o === 'I' ? [width, height] : [height, width];
          expect(r.w * r.h).to.equal(w * h);
          expect(r.x).to.be.within(10, 10 + bw - r.w);
          expect(r.y).to.be.within(20, 20 + bh - r.h);
        },
      ),
    );
  });

  it('start the symbol at the top-left (N), top-right (R), bottom-right (I) and bottom-left (B)', () => {
    const first = (o: Orientation) => toLabelRect({ x: 0, y: 0, width: 100, height: 40, orientation: o }, 0, 0, 1, 40);
    expect(first('N')).to.deep.equal({ x: 0, y: 0, w: 1, h: 40 });
    expect(first('R')).to.deep.equal({ x: 0, y: 0, w: 40, h: 1 });
    expect(first('I')).to.deep.equal({ x: 99, y: 0, w: 1, h: 40 });
    expect(first('B')).to.deep.equal({ x: 0, y: 99, w: 40, h: 1 });
  });

  it('anchor ^FT at the upright bottom-left corner and ^FO at the bounding box', () => {
    for (const o of ORIENTATIONS) {
      const f = placeSymbol({ x: 300, y: 300, origin: 'FT' }, 202, 100, o);
      const bottomLeft = toLabelRect(f, 0, 99, 1, 1);
      // the upright bottom-left module touches the anchor point
      expect(Math.abs(bottomLeft.x - 300) <= 1 && Math.abs(bottomLeft.y - 300) <= 1, o).to.equal(true);
      expect(placeSymbol({ x: 5, y: 6, origin: 'FO' }, 202, 100, o)).to.include({ x: 5, y: 6 });
    }
  });
});

describe('bar runs', () => {
  it('turn narrow/wide elements into whole dots at the ^BY ratio', () => {
    expect(narrowWideToDots([1, 3, 1, 1, 3], 2, 2.5, (e) => e > 1)).to.deep.equal([2, 5, 2, 2, 5]);
    expect(narrowWideToDots([1, 2], 3, 2.2, (e) => e > 1)).to.deep.equal([3, 7]);
  });

  it('place bars at the running sum of the runs, spaces left empty', () => {
    const { bars, width } = barsFromRuns([2, 1, 3, 4, 1], 0, 10, 5);
    expect(width).to.equal(11);
    expect(bars.map((b) => [b.u, b.w])).to.deep.equal([
      [5, 2],
      [8, 3],
      [15, 1],
    ]);
  });
});

describe('check characters', () => {
  it('GS1 mod 10 matches known GTINs', () => {
    expect(gs1CheckDigit('590123412345')).to.equal('7');
    expect(gs1CheckDigit('03600029145')).to.equal('2');
    expect(gs1CheckDigit('9632080400200044387')).to.equal('4'); // legacy reference, ^BC mode U
  });

  it('Code 39 mod 43 of LOGMARS1 is K, as the legacy LOGMARS line prints', () => {
    expect(code39Check('LOGMARS1')).to.equal('K');
  });

  it('Code 11 appends C then K (two characters by default)', () => {
    expect(code11Checks('123-45', false)).to.have.length(1);
    expect(code11Checks('123-45', true)).to.have.length(2);
    expect(code11Checks('123-45', true)[0]).to.equal(code11Checks('123-45', false));
  });

  it('Code 93 check characters of TEST93 are +6', () => {
    expect(code93Checks('TEST93')).to.equal('+6');
  });

  it('MSI mod 10 (Luhn) of 1234567 is 4', () => {
    expect(msiMod10('1234567')).to.equal('4');
  });

  it('Plessey CRC of 12345678 is the 8 bits the legacy renderer drew', () => {
    expect(plesseyBits('12345678').slice(-8).join('')).to.equal('10111001');
  });
});

describe('GS1 element strings', () => {
  it('bracket fixed-length and separator-ended AIs for the encoder', () => {
    expect(bracketAis('0112345678901231')).to.equal('(01)12345678901231');
    expect(bracketAis('011234567890123110ABC#21XYZ')).to.equal('(01)12345678901231(10)ABC(21)XYZ');
    expect(bracketAis('(01)12345678901231')).to.equal('(01)12345678901231');
  });
});
