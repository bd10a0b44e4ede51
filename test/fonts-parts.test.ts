// Font-0 glyphs drawn part by part (glyph-parts.ts): outline parts are found and matched to measured
// boxes, and the per mille sign comes out with its parts where the measured table puts them.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { fitParts, glyphParts, matchParts, type PartBox } from '../renderer/fonts/glyph-parts.js';
import { coverageMask } from '../renderer/raster/fill-path.js';
import { font0Baseline } from '../renderer/fonts/font0.js';
import { font0Metrics } from '../renderer/fonts/font0-metrics.js';
import type { OutlineGlyph } from '../renderer/decode/outline-font.js';
import { decodePng, type DecodedPng } from './helpers/png.js';
import { square } from './helpers/contours.js';

/** A ring (outer square with a square hole) at the top left and a solid block at the bottom right. */
const ringAndBlock: OutlineGlyph = {
  contours: [square(0, 500, 400, 1000), square(100, 600, 300, 900, false), square(600, 0, 1000, 400)],
  paths: [],
  advance: 1000,
  minX: 0,
  maxX: 1000,
  minY: 0,
  maxY: 1000,
};

/** Ink parts of a decoded image (8-connected, darker than mid-grey) as inclusive pixel boxes, left to right. */
function components(img: DecodedPng): number[][] {
  const { width: w, height: h, gray } = img;
  const seen = new Uint8Array(w * h);
  const out: number[][] = [];
  for (let i = 0; i < w * h; i++) {
    if (seen[i] || gray[i] >= 128) continue;
    const box = [w, h, -1, -1];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const k = stack.pop()!,
        x = k % w,
        y = (k - x) / w;
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x);
      box[3] = Math.max(box[3], y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx,
            yy = y + dy,
            j = yy * w + xx;
          if (xx >= 0 && yy >= 0 && xx < w && yy < h && !seen[j] && gray[j] < 128) {
            seen[j] = 1;
            stack.push(j);
          }
        }
    }
    out.push(box);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

describe('font 0 glyphs drawn part by part', () => {
  it('keeps a hole with the contour around it and separates the other parts', () => {
    const parts = glyphParts(ringAndBlock);
    expect(parts.map((p) => p.length)).to.deep.equal([2, 1]);
  });

  it('pairs parts with the measured boxes nearest to where one stretch would put them', () => {
    const parts = glyphParts(ringAndBlock);
    const low: PartBox = [0.5, 0.9, 0.3, 0],
      high: PartBox = [0, 0.3, 0.8, 0.4];
    expect(matchParts(parts, ringAndBlock, [0, 1, 1, 0], [low, high])).to.deep.equal([high, low]);
    expect(matchParts(parts, ringAndBlock, [0, 1, 1, 0], [low])).to.equal(null);
  });

  it('stretches each part into its own box', () => {
    // 100 dots tall: the ring goes to x 0..20, the block to x 60..100, both on the baseline.
    const m = coverageMask(
      fitParts(
        ringAndBlock,
        [0, 1, 1, 0],
        [
          [0, 0.2, 0.5, 0],
          [0.6, 1, 0.4, 0],
        ],
        100,
        1,
      )!.polygons,
      undefined,
      'glyph',
    )!;
    const at = (x: number, y: number) => m.cov[(y - m.y) * m.w + (x - m.x)] ?? 0;
    expect(m.x).to.equal(0);
    expect(at(2, -2)).to.equal(255); // ring, bottom-left
    expect(at(10, -25)).to.equal(0); // ring's hole
    expect(at(30, -2)).to.equal(0); // gap between the parts
    expect(at(80, -20)).to.equal(255); // block
    expect(m.y).to.equal(-50); // ring top at half the height
  });

  it('draws ‰ as its measured parts: a ring, the slash and two rings side by side', async () => {
    const parts = font0Metrics.parts?.[0x2030];
    expect(parts, 'the measured table splits ‰').to.have.length(4);
    const img = decodePng(
      (
        await render('^XA^CI28^FO20,20^A0N,50,50^FD‰^FS^XZ', {
          dpmm: 8,
          widthIn: 1,
          heightIn: 1,
          format: 'png',
          index: 0,
        })
      ).body,
    );
    const found = components(img);
    expect(found).to.have.length(4);
    const baseline = 20 + font0Baseline(50);
    const expected = [...parts!].sort((a, b) => a[0] - b[0]);
    found.forEach(([x0, y0, x1, y1], i) => {
      const [l, r, t, b] = expected[i];
      expect(x0).to.be.within(20 + l * 50 - 1.5, 20 + l * 50 + 1);
      expect(x1 + 1).to.be.within(20 + r * 50 - 1, 20 + r * 50 + 1.5);
      expect(y0).to.be.within(baseline - t * 50 - 1.5, baseline - t * 50 + 1);
      expect(y1 + 1).to.be.within(baseline - b * 50 - 1, baseline - b * 50 + 1.5);
    });
  });
});
