// The anti-aliased polygon filler that draws glyph outlines (and ^GC/^GE/^GD shapes).

import { expect } from 'chai';
import { coverageMask, fillPath } from '../renderer/raster/fill-path.js';
import { Raster } from '../renderer/raster/raster.js';
import { square } from './helpers/contours.js';

describe('fillPath / coverageMask', () => {
  it('covers whole pixels fully and edge pixels by the share of their area inside', () => {
    const m = coverageMask([square(1, 1, 3.5, 2)], undefined, 'shape')!;
    expect({ x: m.x, y: m.y }).to.deep.equal({ x: 1, y: 1 });
    expect(Array.from(m.cov.subarray(0, 3))).to.deep.equal([255, 255, 127]); // half of 2048 samples
  });

  it('fills the union of overlapping contours once (non-zero winding) and leaves reversed holes empty', () => {
    const r = new Raster(10, 10);
    fillPath(r, [square(0, 0, 6, 6), square(3, 3, 9, 9)]);
    expect(r.ink[4 * 10 + 4]).to.equal(255);
    expect(r.ink[0 * 10 + 8]).to.equal(0);
    const ring = new Raster(10, 10);
    fillPath(ring, [square(0, 0, 9, 9), square(3, 3, 6, 6, false)]);
    expect([ring.ink[1 * 10 + 1], ring.ink[4 * 10 + 4]]).to.deep.equal([255, 0]);
  });

  it('draws the on-raster part of a shape larger than the raster', () => {
    const r = new Raster(20, 20);
    fillPath(r, [square(-1e5, 5, 1e5, 1e5)]);
    expect(r.ink[4 * 20 + 10]).to.equal(0);
    expect(r.ink.subarray(5 * 20).every((v) => v === 255)).to.equal(true);
  });

  it('xors over existing ink in reverse mode', () => {
    const r = new Raster(4, 1);
    r.fillRect(0, 0, 2, 1);
    fillPath(r, [square(1, 0, 3, 1)], 'xor');
    expect(Array.from(r.ink)).to.deep.equal([255, 0, 255, 0]);
  });
});
