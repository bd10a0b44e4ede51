// The ink F1 metric (compare/ink-f1.ts), shared by the shadow comparison and `npm run fidelity`: checked
// against its definition written out naively here, and through the shadow comparer's jimp decoding against
// the PNGs of the repository's corpus.

import { expect } from 'chai';
import fc from 'fast-check';
import { cropTopLeft, inkF1, scoreInk, type GreyImage } from '../compare/ink-f1.js';
import { createPngComparer } from '../middleware/upstream/png-comparer.js';
import { render as renderZpl } from '../renderer/index.js';
import { loadCorpus, readCorpusFile } from '../bench/corpus.js';
import { decodePng } from './helpers/png.js';
import { boxPng, greyPng } from './helpers/upstream-png.js';

/** The metric by its definition: ink is grey < 128; an ink pixel is found when the other image has ink within `reach`. */
function definitionF1(reference: GreyImage, rendered: GreyImage, reach: number): number {
  if (reference.width !== rendered.width || reference.height !== rendered.height) return 0;
  const { width, height } = reference;
  const ink = (img: GreyImage, x: number, y: number): boolean =>
    x >= 0 && y >= 0 && x < width && y < height && img.grey[y * width + x]! < 128;
  const near = (img: GreyImage, x: number, y: number): boolean => {
    for (let dy = -reach; dy <= reach; dy++)
      for (let dx = -reach; dx <= reach; dx++) if (ink(img, x + dx, y + dy)) return true;
    return false;
  };
  let refInk = 0,
    gotInk = 0,
    refFound = 0,
    gotFound = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (ink(reference, x, y)) {
        refInk++;
        if (near(rendered, x, y)) refFound++;
      }
      if (ink(rendered, x, y)) {
        gotInk++;
        if (near(reference, x, y)) gotFound++;
      }
    }
  }
  const recall = refInk ? refFound / refInk : 1;
  const precision = gotInk ? gotFound / gotInk : 1;
  return recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
}

const grey = (png: Uint8Array): GreyImage => {
  const { width, height, gray } = decodePng(png);
  return { width, height, grey: gray };
};

describe('shadow comparison metric (ink F1, one-pixel tolerance)', () => {
  const image = (width: number, height: number) =>
    fc
      .uint8Array({ minLength: width * height, maxLength: width * height })
      .map((pixels): GreyImage => ({ width, height, grey: pixels }));
  const pair = fc
    .record({ width: fc.integer({ min: 1, max: 12 }), height: fc.integer({ min: 1, max: 12 }) })
    .chain(({ width, height }) => fc.tuple(image(width, height), image(width, height)));

  it('gives the score of its definition on random images, with and without tolerance', () => {
    fc.assert(
      fc.property(pair, ([reference, rendered]) => {
        const score = scoreInk(reference, rendered);
        expect(score.f1).to.be.closeTo(definitionF1(reference, rendered, 1), 1e-12);
        expect(score.strictF1).to.be.closeTo(definitionF1(reference, rendered, 0), 1e-12);
        expect(score.identical).to.equal(reference.grey.every((v, i) => v === rendered.grey[i]));
        expect(inkF1(reference, rendered)).to.equal(score.f1);
      }),
    );
  });

  it('scores 1 for identical ink, 0 for different sizes, and 1 for ink one pixel off (0.9 strict)', () => {
    const box = grey(boxPng(30, 20, { x: 5, y: 5, w: 10, h: 6 }));
    expect(scoreInk(box, box)).to.deep.equal({ f1: 1, strictF1: 1, identical: true });
    expect(inkF1(box, grey(boxPng(31, 20, { x: 5, y: 5, w: 10, h: 6 })))).to.equal(0);
    const moved = scoreInk(box, grey(boxPng(30, 20, { x: 6, y: 5, w: 10, h: 6 })));
    expect(moved.f1).to.equal(1);
    expect(moved.strictF1).to.be.closeTo(0.9, 1e-12);
    expect(moved.identical).to.equal(false);
    expect(inkF1(box, grey(greyPng(30, 20, () => false)))).to.equal(0);
  });

  it('compares only the top-left region of a padded reference', () => {
    const padded = grey(boxPng(40, 30, { x: 5, y: 5, w: 10, h: 6 }));
    const drawing = grey(boxPng(30, 20, { x: 5, y: 5, w: 10, h: 6 }));
    expect(inkF1(padded, drawing)).to.equal(0);
    expect(scoreInk(cropTopLeft(padded, { width: 30, height: 20 }), drawing)).to.deep.equal({
      f1: 1,
      strictF1: 1,
      identical: true,
    });
  });

  it('decodes with jimp (in its worker) to the scores of our own decoder, for our renderings against corpus references', async function () {
    this.timeout(120_000);
    const corpus = loadCorpus();
    const cases = corpus.cases.filter((c) => c.png);
    const picked = ['carrier', 'text', 'barcode', 'graphics'].map((group) => cases.find((c) => c.group === group)!);
    const compare = createPngComparer();
    for (const c of picked) {
      const reference = readCorpusFile(corpus, c.png!);
      const ours = await renderZpl(readCorpusFile(corpus, c.zpl), {
        dpmm: c.dpmm,
        widthIn: c.widthIn,
        heightIn: c.heightIn,
        format: 'png',
        index: c.index ?? 0,
      });
      const expected = inkF1(cropTopLeft(grey(reference), c.referenceCrop), grey(ours.body));
      expect(expected, c.id).to.be.greaterThan(0.9);
      expect(await compare(reference, ours.body), c.id).to.be.closeTo(expected, 1e-9);
    }
  });
});
