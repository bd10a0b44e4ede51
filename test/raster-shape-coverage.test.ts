// The shape filler's coverage (sampledCoverage, coverageMask 'shape'): 8 sub-scanlines a row, 256 sample positions a
// dot, and a quarter step of rounding from samples to levels, as the legacy service fills circles and diagonals.

import { expect } from 'chai';
import { sampledCoverage } from '../renderer/raster/sampled-coverage.js';
import { coverageMask } from '../renderer/raster/fill-path.js';
import { square, STAR } from './helpers/contours.js';

describe("sampledCoverage (the shape filler's rasterizer)", () => {
  it('counts samples: half a pixel is 1024 of 2048, level 127', () => {
    expect(Array.from(sampledCoverage([square(0.5, 0, 2, 1)], 0, 0, 2, 1))).to.deep.equal([127, 255]);
  });

  it('samples rows at 8 sub-scanline centres: a top edge at 0.3 leaves 6 of them, level 191', () => {
    expect(Array.from(sampledCoverage([square(0, 0.3, 1, 2)], 0, 0, 1, 2))).to.deep.equal([191, 255]);
    // 0.3 and 0.31 both fall between the centres at 0.1875 and 0.3125.
    expect(Array.from(sampledCoverage([square(0, 0.31, 1, 2)], 0, 0, 1, 2))).to.deep.equal([191, 255]);
  });

  it('rounds samples to levels with a quarter step: 800 samples (99.6) make level 99, not 100', () => {
    expect(Array.from(sampledCoverage([square(1 - 100 / 256, 0, 1, 1)], 0, 0, 1, 1))).to.deep.equal([99]);
    expect(Array.from(sampledCoverage([square(1 - 7 / 256, 0, 1, 1)], 0, 0, 1, 1))).to.deep.equal([7]);
  });

  it('computes the clipped part of a shape as the whole shape has it', () => {
    const star = STAR;
    const full = coverageMask([star], undefined, 'shape')!;
    const part = coverageMask([star], { x0: 3, y0: 2, x1: 7, y1: 8 }, 'shape')!;
    for (let y = 0; y < part.h; y++) {
      for (let x = 0; x < part.w; x++) {
        expect(part.cov[y * part.w + x]).to.equal(full.cov[(y + part.y - full.y) * full.w + x + part.x - full.x]);
      }
    }
  });
});
