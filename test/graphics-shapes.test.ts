// Shapes and label-wide transforms through render(), checked on the decoded PNG: ^GB rounding, ^GC, ^GE,
// ^GD leans, ^GS, ^MU units, ^PO I, ^PM, ^PW centring, ^LR.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { decodePng, inkCount, px, type DecodedPng } from './helpers/png.js';

async function image(zpl: string, widthIn = 1, heightIn = 1): Promise<DecodedPng> {
  return decodePng((await render(zpl, { dpmm: 8, widthIn, heightIn, format: 'png', index: 0 })).body);
}

const ink = (img: DecodedPng, x: number, y: number) => px(img, x, y) < 128;

/** Smallest rectangle holding every ink pixel: [x0, y0, x1, y1] inclusive. */
function inkBox(img: DecodedPng): number[] {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (!ink(img, x, y)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  }
  return [x0, y0, x1, y1];
}

function samePixels(a: DecodedPng, b: DecodedPng): boolean {
  return a.width === b.width && a.gray.every((v, i) => v === b.gray[i]);
}

describe('graphic shapes', () => {
  it('rounds ^GB corners by rounding/8 of half the shorter side', async () => {
    const square = await image('^XA^FO20,20^GB100,60,6^FS^XZ');
    const round = await image('^XA^FO20,20^GB100,60,6,B,8^FS^XZ');
    expect(inkBox(round)).to.deep.equal([20, 20, 119, 79]);
    expect(ink(square, 20, 20)).to.equal(true);
    // Radius 8/8 x 30 = 30: the corner dot and one 8 dots in along the diagonal are outside the arc.
    expect(ink(round, 20, 20)).to.equal(false);
    expect(ink(round, 28, 28)).to.equal(false);
    expect(ink(round, 70, 22)).to.equal(true); // straight part of the top edge
    expect(ink(round, 70, 27)).to.equal(false); // inside the 6-dot border
    expect(inkCount(round)).to.be.lessThan(inkCount(square));
  });

  it('draws ^GC as a ring of the given diameter and thickness', async () => {
    const img = await image('^XA^FO20,20^GC100,10^FS^XZ');
    expect(inkBox(img)).to.deep.equal([20, 20, 119, 119]);
    expect(ink(img, 70, 70)).to.equal(false); // centre
    expect(ink(img, 24, 70)).to.equal(true); // left side of the ring
    expect(ink(img, 32, 70)).to.equal(false); // just inside it
    expect(ink(img, 21, 21)).to.equal(false); // corner of the bounding box
  });

  it('draws ^GE inside its width and height, filled when the thickness reaches the middle', async () => {
    expect(inkBox(await image('^XA^FO10,30^GE150,60,4^FS^XZ'))).to.deep.equal([10, 30, 159, 89]);
    const filled = await image('^XA^FO10,30^GE150,60,30^FS^XZ');
    expect(ink(filled, 85, 60)).to.equal(true);
  });

  it('leans ^GD right (/) by default and left (\\) with L', async () => {
    const right = await image('^XA^FO20,20^GD100,100,4^FS^XZ');
    const left = await image('^XA^FO20,20^GD100,100,4,B,L^FS^XZ');
    // Probes a dot inside the stroke: the pixels its edge crosses at their centres are half covered (level 127, paper).
    expect([ink(right, 22, 118), ink(right, 119, 21), ink(right, 21, 21)]).to.deep.equal([true, true, false]);
    expect([ink(left, 22, 21), ink(left, 120, 118), ink(left, 21, 118)]).to.deep.equal([true, true, false]);
  });

  it('draws a ^GS symbol on a cell the size of the ^CF height', async () => {
    const img = await image('^XA^CF0,72^FO20,20^GSN^FDA^FS^XZ');
    const [x0, y0, x1, y1] = inkBox(img);
    // The registered mark is a ring about 44.6/72 of the height across, at the top-left of the cell.
    expect([x0, y0]).to.deep.equal([20, 20]);
    // 45 across; its lowest row is under half covered (0.37 at best), so 44 tall.
    expect([x1 - x0 + 1, y1 - y0 + 1]).to.deep.equal([45, 44]);
    // Twice the size: the ring's far edge lands 89.2 dots from the origin, so dot 108 is the last one inked.
    expect(inkBox(await image('^XA^FO20,20^GSN,144,144^FDA^FS^XZ'))).to.deep.equal([20, 20, 108, 108]);
  });
});

describe('label-wide settings', () => {
  it('reads ^MU millimetres and inches for positions and shape sizes', async () => {
    const dots = await image('^XA^LH8,8^FO0,0^GB80,40,4^FS^XZ');
    expect(samePixels(await image('^XA^MUM^LH1,1^FO0,0^GB10,5,0.5^FS^XZ'), dots)).to.equal(true);
    // 203 dots an inch at 8 dpmm: 0.5 in = 101.5 -> 102 dots wide, 0.25 in = 50.75 -> 51 dots high.
    expect(inkBox(await image('^XA^MUI^FO0,0^GB0.5,0.25,0.1^FS^XZ'))).to.deep.equal([0, 0, 101, 50]);
  });

  it('turns the whole label 180 degrees with ^POI', async () => {
    const img = await image('^XA^POI^FO0,0^GB10,20,10^FS^XZ');
    expect(inkBox(img)).to.deep.equal([203 - 10, 203 - 20, 202, 202]);
  });

  it('mirrors the label with ^PMY', async () => {
    expect(inkBox(await image('^XA^PMY^FO0,30^GB10,20,10^FS^XZ'))).to.deep.equal([193, 30, 202, 49]);
  });

  it('centres a ^PW narrower than the label', async () => {
    expect(inkBox(await image('^XA^PW103^FO0,0^GB10,10,10^FS^XZ'))).to.deep.equal([50, 0, 59, 9]);
    expect(inkBox(await image('^XA^PW400^FO0,0^GB10,10,10^FS^XZ'))).to.deep.equal([0, 0, 9, 9]);
  });

  it('reverses the fields after ^LRY over what is already drawn', async () => {
    const img = await image('^XA^FO0,0^GB40,40,40^FS^LRY^FO20,20^GB40,40,40^FS^XZ');
    expect([ink(img, 10, 10), ink(img, 30, 30), ink(img, 50, 50)]).to.deep.equal([true, false, true]);
  });

  it('warns about a field placed outside the label', async () => {
    const zpl = '^XA^FO300,10^GB10,10,10^FS^XZ';
    const r = await render(zpl, { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 0 });
    expect(r.warnings.map((w) => [w.byteIndex, w.message])).to.deep.equal([
      [zpl.indexOf('^FO300'), 'Field at 300,10 is outside the 203x203 label'],
    ]);
  });
});
