// Coverage as the legacy service's font scaler computes it (its anti-aliasing rasterizer's documented method): points
// on a 1/64-dot grid, each edge walked cell by cell in 1/256-dot units with y up, every exit point through a cell side
// found by a truncating reciprocal division, each cell keeping the height the edge crosses it by (cover) and twice the
// area left of it; a running sum along the row turns them into levels, 256 x area truncated, full cover at 255. Its
// truncations are why diagonal edges come out a level darker than the exact area.

import { signedArea } from '../display/display-list.js';

type Contour = ArrayLike<number>;

const ONE = 256;

/** Coverage 0..255 of the w x h pixels whose top-left corner sits at (x0, y0), non-zero winding. */
export function cellCoverage(contours: readonly Contour[], x0: number, y0: number, w: number, h: number): Uint8Array {
  const cells: Cells = { w, h, cover: new Int32Array(w * h), area: new Int32Array(w * h) };
  // Contours wound as the font scaler's outlines are (outer ones clockwise on the page), so levels come out positive.
  const flip = signedArea(contours) < 0;
  for (const c of contours) {
    const n = c.length >> 1;
    if (n < 2) continue;
    const at = (i: number): [number, number] => {
      const k = flip ? n - 1 - i : i;
      // Points on the 1/64 grid, in 1/256 units, y up from the mask's bottom edge.
      return [Math.round(c[2 * k]! * 64) * 4 - x0 * ONE, h * ONE - (Math.round(c[2 * k + 1]! * 64) * 4 - y0 * ONE)];
    };
    let [px, py] = at(0);
    for (let i = 1; i <= n; i++) {
      const [qx, qy] = at(i === n ? 0 : i);
      renderLine(cells, px, py, qx, qy);
      px = qx;
      py = qy;
    }
  }
  const out = new Uint8Array(w * h);
  for (let ey = 0; ey < h; ey++) {
    const row = ey * w,
      o = (h - 1 - ey) * w;
    let cover = 0;
    for (let x = 0; x < w; x++) {
      cover += cells.cover[row + x]!;
      let level = (cover * 2 * ONE - cells.area[row + x]!) >> 9;
      if (level < 0) level = ~level;
      out[o + x] = level >= 256 ? 255 : level;
    }
  }
  return out;
}

interface Cells {
  w: number;
  h: number;
  cover: Int32Array;
  area: Int32Array;
}

function add(cells: Cells, ex: number, ey: number, cover: number, area: number): void {
  if (ex < 0 || ex >= cells.w || ey < 0 || ey >= cells.h) return;
  cells.cover[ey * cells.w + ex]! += cover;
  cells.area[ey * cells.w + ex]! += area;
}

/** The scaler's truncating division p / q (p >= 0, q > 0) through a reciprocal, with its occasional shortfall of one. */
function reciprocal(q: number): { hi: number; lo: number } {
  const r = Number(((1n << 56n) - 1n) / BigInt(q));
  return { hi: Math.floor(r / 2 ** 28), lo: r % 2 ** 28 };
}

function udiv(p: number, r: { hi: number; lo: number }): number {
  // floor(p * r / 2^56) with r split in 28-bit halves so every product stays exact in a double.
  const t = p * r.hi + Math.floor((p * r.lo) / 2 ** 28);
  return Math.floor(t / 2 ** 28);
}

function renderLine(cells: Cells, ax: number, ay: number, bx: number, by: number): void {
  let ex1 = Math.floor(ax / ONE),
    ey1 = Math.floor(ay / ONE);
  const ex2 = Math.floor(bx / ONE),
    ey2 = Math.floor(by / ONE);
  let fx1 = ax - ex1 * ONE,
    fy1 = ay - ey1 * ONE;
  const dx = bx - ax,
    dy = by - ay;
  if (ex1 === ex2 && ey1 === ey2) {
    // Within one cell: only the closing part below.
  } else if (dy === 0) {
    return; // horizontal edges add nothing
  } else if (dx === 0) {
    const step = dy > 0 ? 1 : -1;
    const fy2 = dy > 0 ? ONE : 0;
    do {
      add(cells, ex1, ey1, fy2 - fy1, (fy2 - fy1) * fx1 * 2);
      fy1 = ONE - fy2;
      ey1 += step;
    } while (ey1 !== ey2);
  } else {
    let prod = dx * fy1 - dy * fx1;
    const rx = ex1 !== ex2 ? reciprocal(Math.abs(dx)) : null;
    const ry = ey1 !== ey2 ? reciprocal(Math.abs(dy)) : null;
    do {
      let fx2: number, fy2: number;
      if (prod - dx * ONE > 0 && prod <= 0) {
        // out through the left side
        fx2 = 0;
        fy2 = udiv(-prod, rx!);
        prod -= dy * ONE;
        add(cells, ex1, ey1, fy2 - fy1, (fy2 - fy1) * (fx1 + fx2));
        fx1 = ONE;
        fy1 = fy2;
        ex1--;
      } else if (prod - dx * ONE + dy * ONE > 0 && prod - dx * ONE <= 0) {
        // the top
        prod -= dx * ONE;
        fx2 = udiv(-prod, ry!);
        fy2 = ONE;
        add(cells, ex1, ey1, fy2 - fy1, (fy2 - fy1) * (fx1 + fx2));
        fx1 = fx2;
        fy1 = 0;
        ey1++;
      } else if (prod + dy * ONE >= 0 && prod - dx * ONE + dy * ONE <= 0) {
        // the right side
        prod += dy * ONE;
        fx2 = ONE;
        fy2 = udiv(prod, rx!);
        add(cells, ex1, ey1, fy2 - fy1, (fy2 - fy1) * (fx1 + fx2));
        fx1 = 0;
        fy1 = fy2;
        ex1++;
      } else {
        // the bottom
        fx2 = udiv(prod, ry!);
        fy2 = 0;
        prod += dx * ONE;
        add(cells, ex1, ey1, fy2 - fy1, (fy2 - fy1) * (fx1 + fx2));
        fx1 = fx2;
        fy1 = ONE;
        ey1--;
      }
    } while (ex1 !== ex2 || ey1 !== ey2);
  }
  const fx2 = bx - ex2 * ONE,
    fy2 = by - ey2 * ONE;
  add(cells, ex2, ey2, fy2 - fy1, (fy2 - fy1) * (fx1 + fx2));
}
