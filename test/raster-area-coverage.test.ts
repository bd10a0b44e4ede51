// Exact-area coverage (areaCoverage, coverageMask with rows = Infinity): each pixel gets the area of the shape in it.

import { expect } from 'chai';
import fc from 'fast-check';
import { areaCoverage } from '../renderer/raster/area-coverage.js';
import { coverageMask } from '../renderer/raster/fill-path.js';

const square = (x0: number, y0: number, x1: number, y1: number, clockwise = true) =>
  clockwise ? [x0, y0, x1, y0, x1, y1, x0, y1] : [x0, y0, x0, y1, x1, y1, x1, y0];

/** Area of a polygon clipped to the unit cell at (cx, cy) (Sutherland–Hodgman, then the shoelace formula). */
function areaInCell(poly: number[], cx: number, cy: number): number {
  let pts: [number, number][] = [];
  for (let i = 0; i < poly.length; i += 2) pts.push([poly[i], poly[i + 1]]);
  const planes: [(p: [number, number]) => number][] = [
    [(p) => p[0] - cx], [(p) => cx + 1 - p[0]], [(p) => p[1] - cy], [(p) => cy + 1 - p[1]],
  ];
  for (const [inside] of planes) {
    const out: [number, number][] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i], b = pts[(i + 1) % pts.length];
      const da = inside(a), db = inside(b);
      if (da >= 0) out.push(a);
      if ((da >= 0) !== (db >= 0)) {
        const t = da / (da - db);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
    pts = out;
  }
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i], b = pts[(i + 1) % pts.length];
    s += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(s) / 2;
}

describe('areaCoverage (exact-area rasterizer)', () => {
  it('gives an axis-aligned rectangle its exact area per pixel', () => {
    const m = coverageMask([square(1.25, 0.5, 3.5, 2)], undefined, Infinity)!;
    expect({ x: m.x, y: m.y, w: m.w, h: m.h }).to.deep.equal({ x: 1, y: 0, w: 4, h: 2 });
    // Row 0 is half covered; columns 1 (0.75), 2 (1), 3 (0.5).
    expect(Array.from(m.cov)).to.deep.equal([96, 128, 64, 0, 191, 255, 128, 0]);
  });

  it('gives a triangle cutting one pixel diagonally half of it', () => {
    expect(Array.from(areaCoverage([[0, 0, 1, 0, 1, 1]], 0, 0, 1, 1))).to.deep.equal([128]);
    expect(Array.from(areaCoverage([[0, 0, 1, 1, 0, 1]], 0, 0, 1, 1))).to.deep.equal([128]);
  });

  it('matches the exact clipped area of random triangles in every pixel, within rounding', () => {
    const pt = fc.tuple(fc.double({ min: -2, max: 9, noNaN: true }), fc.double({ min: -2, max: 9, noNaN: true }));
    fc.assert(fc.property(fc.array(pt, { minLength: 3, maxLength: 3 }), (ps) => {
      const flat = ps.flat();
      const w = 7, h = 7;
      const cov = areaCoverage([flat], 0, 0, w, h);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          expect(Math.abs(cov[y * w + x] - areaInCell(flat, x, y) * 255), `pixel ${x},${y} of ${flat}`).to.be.at.most(0.5 + 1e-6);
        }
      }
    }), { numRuns: 300 });
  });

  it('sums to the polygon area, and clipping keeps the on-mask part exact', () => {
    const star = [5, 0.3, 6.2, 3.8, 9.9, 3.9, 7, 6.1, 8.1, 9.7, 5, 7.6, 1.9, 9.7, 3, 6.1, 0.1, 3.9, 3.8, 3.8];
    const full = coverageMask([star], undefined, Infinity)!;
    const total = full.cov.reduce((s, v) => s + v, 0) / 255;
    let shoelace = 0;
    for (let i = 0; i < star.length; i += 2) {
      const j = (i + 2) % star.length;
      shoelace += star[i] * star[j + 1] - star[j] * star[i + 1];
    }
    expect(total).to.be.closeTo(Math.abs(shoelace) / 2, 0.5);
    const part = coverageMask([star], { x0: 3, y0: 2, x1: 7, y1: 8 }, Infinity)!;
    for (let y = 0; y < part.h; y++) {
      for (let x = 0; x < part.w; x++) {
        expect(part.cov[y * part.w + x]).to.equal(full.cov[(y + part.y - full.y) * full.w + x + part.x - full.x]);
      }
    }
  });

  it('fills the union of overlapping contours once and leaves reversed holes empty', () => {
    const union = areaCoverage([square(0, 0, 6, 6), square(3, 3, 9, 9)], 0, 0, 10, 10);
    expect([union[4 * 10 + 4], union[0 * 10 + 8], union[8 * 10 + 8]]).to.deep.equal([255, 0, 255]);
    const ring = areaCoverage([square(0, 0, 9, 9), square(3.5, 3, 6, 6, false)], 0, 0, 10, 10);
    expect([ring[1 * 10 + 1], ring[4 * 10 + 4], ring[4 * 10 + 3]]).to.deep.equal([255, 0, 128]);
  });
});
