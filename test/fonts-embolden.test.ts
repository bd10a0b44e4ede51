// Stem weights of placed glyphs (renderer/fonts/embolden.ts): heavier strokes inside the same ink box, then moved.

import { expect } from 'chai';
import { adjustOutline } from '../renderer/fonts/embolden.js';
import { glyphAdjustment } from '../renderer/fonts/font0.js';
import type { Font0Band } from '../renderer/fonts/font0-model.js';
import type { PlacedOutline } from '../renderer/fonts/place.js';

/** A 10 x 10 square with a 6 x 6 hole (opposite winding): strokes 2 dots thick on every side. */
function ring(): PlacedOutline {
  const outer = [0, 0, 10, 0, 10, 10, 0, 10];
  const hole = [2, 2, 2, 8, 8, 8, 8, 2];
  const toPath = (c: number[]) => [0, c[0]!, c[1]!, 1, c[2]!, c[3]!, 1, c[4]!, c[5]!, 1, c[6]!, c[7]!];
  return { polygons: [outer, hole], curves: [toPath(outer), toPath(hole)], minX: 0, minY: 0, maxX: 10, maxY: 10 };
}

const round = (c: number[]) => c.map((v) => Math.round(v * 1e9) / 1e9);

describe('adjustOutline (glyph stem weights)', () => {
  it('makes vertical stems heavier by weightX and horizontal bars by weightY, inside the same box', () => {
    const o = adjustOutline(ring(), { weightX: 1, weightY: 0.5, dx: 0, dy: 0 });
    expect({ minX: o.minX, maxX: o.maxX, minY: o.minY, maxY: o.maxY }).to.deep.equal({
      minX: 0,
      maxX: 10,
      minY: 0,
      maxY: 10,
    });
    // Narrowed to 9 x 9.5 about the centre, then every edge moved out by half the weight: the hole loses 1 across
    // (stems 2 -> 2.45 each side) and 0.5 along y.
    const hole = round(o.polygons[1]!);
    const xs = hole.filter((_, i) => i % 2 === 0),
      ys = hole.filter((_, i) => i % 2 === 1);
    expect(Math.max(...xs) - Math.min(...xs)).to.be.closeTo(6 * 0.9 - 1, 1e-9);
    expect(Math.max(...ys) - Math.min(...ys)).to.be.closeTo(6 * 0.95 - 0.5, 1e-9);
  });

  it('moves the vector paths with the polygons, and the whole glyph by the offset', () => {
    const o = adjustOutline(ring(), { weightX: 1, weightY: 1, dx: 0.25, dy: -0.5 });
    expect({ minX: o.minX, maxX: o.maxX, minY: o.minY, maxY: o.maxY }).to.deep.equal({
      minX: 0.25,
      maxX: 10.25,
      minY: -0.5,
      maxY: 9.5,
    });
    const points = (p: number[]) => [p[1], p[2], p[4], p[5], p[7], p[8], p[10], p[11]];
    expect(round(points(o.curves[0]!) as number[])).to.deep.equal(round(o.polygons[0]!));
    expect(round(points(o.curves[1]!) as number[])).to.deep.equal(round(o.polygons[1]!));
  });

  it('makes strokes lighter with negative weights', () => {
    const o = adjustOutline(ring(), { weightX: -1, weightY: 0, dx: 0, dy: 0 });
    const hole = o.polygons[1]!.filter((_, i) => i % 2 === 0);
    expect(Math.max(...hole) - Math.min(...hole)).to.be.closeTo(6 * 1.1 + 1, 1e-9);
  });
});

describe('glyphAdjustment (font 0 model lookup)', () => {
  const model: Font0Band[] = [
    { maxHeight: 40, fallback: [0, 0, 0, 0], glyphs: { 0x48: [0.01, 0.02, 0, 0] } },
    { maxHeight: Infinity, fallback: [0.001, 0, 0.002, 0], glyphs: {} },
  ];

  it("scales the band's entry by the height, falls back to the band's rule, and is null when nothing changes", () => {
    const h = glyphAdjustment(0x48, 30, model)!;
    expect(h.weightX).to.be.closeTo(0.3, 1e-12);
    expect(h.weightY).to.be.closeTo(0.6, 1e-12);
    expect(glyphAdjustment(0x49, 30, model)).to.equal(null);
    expect(glyphAdjustment(0x48, 100, model)).to.deep.equal({ weightX: 0.1, weightY: 0, dx: 0.2, dy: 0 });
  });
});
