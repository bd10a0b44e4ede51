import { expect } from 'chai';
import { withShared, type SharedFit } from '../tools/font0-model/across-sizes.js';
import type { Font0Band } from '../renderer/fonts/font0-model.js';

const fit = (cp: number, delta: Partial<SharedFit['delta']>): SharedFit => {
  const none = { mismatched: 0, nearF1: 1, both: 0, greyError: 0, strictF1: 1, nearF1s: [] };
  return { cp, heights: [20, 50], delta: { wx: 0, wy: 0, dx: 0, dy: 0, adv: 0, ...delta }, before: none, after: none };
};

describe('font 0 model: one refinement for every size (tools/font0-model/across-sizes)', () => {
  const bands: Font0Band[] = [
    { maxHeight: 25, fallback: [0.001, 0, 0, 0], glyphs: { 0x2e: [0.002, -0.001, 0, 0, 0.01] } },
    { maxHeight: Infinity, fallback: [0, 0.003, 0, 0], glyphs: {} },
  ];

  it('adds the delta to the glyph in every band: to its own entry, keeping its advance, or to the band fallback', () => {
    const out = withShared(bands, [fit(0x2e, { wx: 0.0004, dy: -0.0002 })]);
    expect(out[0]!.glyphs[0x2e]).to.deep.equal([0.0024, -0.001, 0, -0.0002, 0.01]);
    expect(out[1]!.glyphs[0x2e]).to.deep.equal([0.0004, 0.003, 0, -0.0002]);
    expect(out[1]!.fallback).to.deep.equal([0, 0.003, 0, 0]);
  });

  it('leaves the table as it was when the search kept nothing', () => {
    expect(withShared(bands, [fit(0x2e, {})])).to.deep.equal(bands);
  });
});
