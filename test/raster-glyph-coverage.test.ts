// The font scaler's coverage (cellCoverage, coverageMask 'glyph'): points on the 1/64 grid, levels of 256 x area with
// full cover at 255, and diagonal edges computed cell by cell with truncating divisions, as the legacy service's
// glyphs are.

import { expect } from 'chai';
import fc from 'fast-check';
import { cellCoverage } from '../renderer/raster/cell-coverage.js';
import { coverageMask } from '../renderer/raster/fill-path.js';
import { square, STAR } from './helpers/contours.js';

/** Area of a polygon clipped to the unit cell at (cx, cy) (Sutherland–Hodgman, then the shoelace formula). */
function areaInCell(poly: number[], cx: number, cy: number): number {
  let pts: [number, number][] = [];
  for (let i = 0; i < poly.length; i += 2) pts.push([poly[i], poly[i + 1]]);
  const planes: [(p: [number, number]) => number][] = [
    [(p) => p[0] - cx],
    [(p) => cx + 1 - p[0]],
    [(p) => p[1] - cy],
    [(p) => cy + 1 - p[1]],
  ];
  for (const [inside] of planes) {
    const out: [number, number][] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i],
        b = pts[(i + 1) % pts.length];
      const da = inside(a),
        db = inside(b);
      if (da >= 0) out.push(a);
      if (da >= 0 !== db >= 0) {
        const t = da / (da - db);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
    pts = out;
  }
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i],
      b = pts[(i + 1) % pts.length];
    s += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(s) / 2;
}

const onGrid = (v: number): number => Math.round(v * 64) / 64;

describe("cellCoverage (the font scaler's rasterizer)", () => {
  it('gives an axis-aligned rectangle 256 x its area per pixel, full pixels 255', () => {
    const m = coverageMask([square(1.25, 0.5, 3.5, 2)], undefined, 'glyph')!;
    expect({ x: m.x, y: m.y, w: m.w, h: m.h }).to.deep.equal({ x: 1, y: 0, w: 4, h: 2 });
    // Row 0 is half covered; columns 1 (0.75), 2 (1), 3 (0.5). 0.75 is 192, not the 191 of 255 x area.
    expect(Array.from(m.cov)).to.deep.equal([96, 128, 64, 0, 192, 255, 128, 0]);
  });

  it('puts every point on the 1/64-dot grid first', () => {
    const snapped = cellCoverage([square(1.25, 0.5, 3.5, 2)], 1, 0, 4, 2);
    expect(Array.from(cellCoverage([square(1.2549, 0.4951, 3.5049, 2.0049)], 1, 0, 4, 2))).to.deep.equal(
      Array.from(snapped),
    );
    expect(Array.from(cellCoverage([square(1.26, 0.5, 3.5, 2)], 1, 0, 4, 2))).to.not.deep.equal(Array.from(snapped));
  });

  it('gives the same levels whichever way the contours run', () => {
    const star = STAR;
    const reversed: number[] = [];
    for (let i = star.length - 2; i >= 0; i -= 2) reversed.push(star[i], star[i + 1]);
    expect(Array.from(cellCoverage([reversed], 0, 0, 11, 10))).to.deep.equal(
      Array.from(cellCoverage([star], 0, 0, 11, 10)),
    );
  });

  // Each edge crossing a pixel is cut with a truncating division, so a pixel two edges cross can be two levels off.
  // Over a million random triangles (121 million pixels): 188 pixels two levels light, 370 two heavy, none further.
  // The bound was -1 until CI's random search met one of the 188 (seed 728831162).
  it('stays within two levels of 256 x the exact area of random triangles', () => {
    const pt = fc
      .tuple(fc.integer({ min: -128, max: 576 }), fc.integer({ min: -128, max: 576 }))
      .map(([x, y]) => [x / 64, y / 64]);
    fc.assert(
      fc.property(fc.array(pt, { minLength: 3, maxLength: 3 }), (ps) => {
        const flat = ps.flat();
        const w = 11,
          h = 11;
        const cov = cellCoverage([flat], -2, -2, w, h);
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const exact = Math.min(255, Math.floor(256 * areaInCell(flat, x - 2, y - 2)));
            const d = cov[y * w + x] - exact;
            expect(d, `pixel ${x},${y} of ${flat}: ${cov[y * w + x]} vs ${exact}`).to.be.within(-2, 2);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('sums to the polygon area', () => {
    const star = STAR.map(onGrid);
    const full = coverageMask([star], undefined, 'glyph')!;
    const total = full.cov.reduce((s, v) => s + v, 0) / 256;
    let shoelace = 0;
    for (let i = 0; i < star.length; i += 2) {
      const j = (i + 2) % star.length;
      shoelace += star[i] * star[j + 1] - star[j] * star[i + 1];
    }
    expect(total).to.be.closeTo(Math.abs(shoelace) / 2, 0.5);
  });

  it('fills the union of overlapping contours once and leaves reversed holes empty', () => {
    const union = cellCoverage([square(0, 0, 6, 6), square(3, 3, 9, 9)], 0, 0, 10, 10);
    expect([union[4 * 10 + 4], union[0 * 10 + 8], union[8 * 10 + 8]]).to.deep.equal([255, 0, 255]);
    const ring = cellCoverage([square(0, 0, 9, 9), square(3.5, 3, 6, 6, false)], 0, 0, 10, 10);
    expect([ring[1 * 10 + 1], ring[4 * 10 + 4], ring[4 * 10 + 3]]).to.deep.equal([255, 0, 128]);
  });
});
