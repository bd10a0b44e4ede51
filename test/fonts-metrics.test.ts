// Font metrics pinned to what the legacy renderer's reference labels show (measured by
// tools/measure/*), and drawn through render() with the PNG decoded back.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { render } from '../renderer/render.js';
import { measureTextLine } from '../renderer/text/text-line.js';
import { deviceAdjustment, magnification } from '../renderer/fonts/device-fonts.js';
import type { FontSelection } from '../renderer/model.js';
import { decodePng, type DecodedPng } from './helpers/png.js';

const font = (
  name: string,
  height: number,
  width = 0,
  orientation: FontSelection['orientation'] = 'N',
): FontSelection => ({ name, orientation, height, width });

async function png(zpl: string, inches = 2): Promise<DecodedPng> {
  const r = await render(zpl, { dpmm: 8, widthIn: inches, heightIn: inches, format: 'png', index: 0 });
  return decodePng(r.body);
}

/** Bounding box of pixels darker than mid-grey. */
function inkBox(img: DecodedPng): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (img.gray[y * img.width + x] >= 128) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

describe('font 0 metrics (measured from the reference labels)', () => {
  it('advances M by 15, 38 and 60 dots at heights 20, 50 and 80', () => {
    // h80_M: the copies of MMM stand at 0, 60 and 121 dots, so one M advances 60.25 to 60.5 dots.
    expect(measureTextLine('M', font('0', 20)).width).to.equal(15);
    expect(measureTextLine('M', font('0', 50)).width).to.equal(38);
    expect(measureTextLine('M', font('0', 80)).width).to.equal(60);
  });

  it('advances digits by 24 dots, A by 27.5 to 27.75 and the space by 15 at height 50', () => {
    // h50_A: the copies of AAA stand at 0, 28 and 55 dots.
    expect(measureTextLine('0', font('0', 50)).width).to.equal(24);
    expect(measureTextLine('A', font('0', 50)).width).to.equal(28);
    expect(measureTextLine('AA', font('0', 50)).width).to.equal(55);
    expect(measureTextLine(' ', font('0', 50)).width).to.equal(15);
  });

  it('stretches advances with the width parameter', () => {
    const narrow = measureTextLine('ABC', font('0', 30, 30)).width;
    const wide = measureTextLine('ABC', font('0', 30, 60)).width;
    expect(wide).to.be.within(2 * narrow - 1, 2 * narrow + 1);
  });

  it('puts the cap top on the ^FO y and the baseline 37 dots below it at height 50', async () => {
    const box = inkBox(await png('^XA^FO100,100^A0N,50,50^FDMMM^FS^XZ'));
    expect(box).to.not.equal(null);
    expect(box!.y0).to.be.within(99, 100);
    expect(box!.y1).to.be.within(136, 137);
    expect(box!.x0).to.be.within(102, 104);
  });

  it('puts the baseline on the ^FT y', async () => {
    const box = inkBox(await png('^XA^FT100,150^A0N,50,50^FDMMM^FS^XZ'));
    expect(box!.y1).to.be.within(148, 149);
    expect(box!.y0).to.be.within(112, 114);
  });

  it('anti-aliases font 0 and prints reversed (^FR) text pure black and white', async () => {
    const grey = (img: DecodedPng) => img.gray.filter((v) => v > 0 && v < 255).length;
    expect(grey(await png('^XA^FO50,50^A0N,40,40^FDHello^FS^XZ'))).to.be.greaterThan(20);
    const reversed = await png('^XA^FO40,40^GB200,60,60^FS^FO50,50^A0N,40,40^FR^FDHello^FS^XZ');
    expect(grey(reversed)).to.equal(0);
  });

  it('advances an unmeasured accented letter as its measured base letter', () => {
    for (const [accented, base] of [
      ['ńąę', 'nae'],
      ['ŁŚŹ', 'ŁSZ'],
    ]) {
      expect(measureTextLine(accented!.repeat(10), font('0', 50)).width).to.equal(
        measureTextLine(base!.repeat(10), font('0', 50)).width,
      );
    }
  });
});

describe('device fonts A-H', () => {
  it('advances by the measured cell: A 6, B 9, D 12, E 20, F 16, G 48, H 19 dots', () => {
    const adv = (n: string, h: number) => measureTextLine('MM', font(n, h)).width / 2;
    expect([
      adv('A', 9),
      adv('B', 11),
      adv('D', 18),
      adv('E', 28),
      adv('F', 26),
      adv('G', 60),
      adv('H', 21),
    ]).to.deep.equal([6, 9, 12, 20, 16, 48, 19]);
  });

  it('magnifies by whole multiples of the base cell, rounding the requested size', () => {
    expect(magnification(13, 9)).to.equal(1);
    expect(magnification(14, 9)).to.equal(2);
    expect(magnification(45, 9)).to.equal(5);
    expect(measureTextLine('M', font('A', 27, 25)).width).to.equal(30); // width x5, height x3
    expect(measureTextLine('M', font('A', 27)).height).to.equal(27);
  });

  it('carries a fitted device glyph weight to higher magnifications, scaled, never below the lowest fitted', () => {
    const model = { A: { 0x35: [0.25, 0.5, 0, 0, 2] as const } };
    expect(deviceAdjustment('A', 0x35, 1, 1, model)).to.equal(null);
    expect(deviceAdjustment('A', 0x35, 1, 3, model)).to.equal(null);
    expect(deviceAdjustment('A', 0x35, 2, 2, model)).to.deep.equal({ weightX: 0.5, weightY: 1, dx: 0, dy: 0 });
    expect(deviceAdjustment('A', 0x35, 5, 3, model)).to.deep.equal({ weightX: 1.25, weightY: 1.5, dx: 0, dy: 0 });
    expect(deviceAdjustment('A', 0x4d, 5, 5, model)).to.equal(null);
  });

  it('prints font B in capitals only', () => {
    expect(measureTextLine('abc', font('B', 11))).to.deep.equal(measureTextLine('ABC', font('B', 11)));
  });

  it('draws ^AAN,9 M five dots wide and seven tall at the ^FO corner', async () => {
    const box = inkBox(await png('^XA^FO100,100^AAN,9^FDM^FS^XZ'));
    expect(box).to.deep.equal({ x0: 100, y0: 100, x1: 104, y1: 106 });
  });

  it('prints unknown fonts in font A', () => {
    expect(measureTextLine('MM', font('1', 9))).to.deep.equal(measureTextLine('MM', font('A', 9)));
  });
});

describe('downloaded TrueType fonts', () => {
  it('draws ~DU fonts named by ^A@, and ^CW aliases of them', async () => {
    const require = createRequire(import.meta.url);
    const ttf = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'));
    const download = `~DUR:MONO.TTF,${ttf.length},${ttf.toString('hex').toUpperCase()}`;
    const viaPath = inkBox(await png(`${download}^XA^FO20,20^A@N,40,40,R:MONO.TTF^FDiiii^FS^XZ`, 3));
    const viaAlias = inkBox(await png(`${download}^XA^CWQ,R:MONO.TTF^FO20,20^AQN,40,40^FDiiii^FS^XZ`, 3));
    const font0 = inkBox(await png('^XA^FO20,20^A0N,40,40^FDiiii^FS^XZ', 3));
    // A monospaced i is as wide as an M: four of them span far more than font 0's narrow i.
    expect(viaPath!.x1 - viaPath!.x0).to.be.greaterThan(2 * (font0!.x1 - font0!.x0));
    expect(viaAlias).to.deep.equal(viaPath);
  });
});
