// Exact-area coverage of polygons: each edge adds, per pixel row, the signed share of every cell to its right into an
// accumulation buffer; a running sum along the row then gives each pixel the area the outline covers in it.

/** A closed polygon: x0, y0, x1, y1, ... in dots (y down). */
type Contour = ArrayLike<number>;

/**
 * Coverage 0..255 of the w x h pixels whose top-left corner sits at (x0, y0), for `contours` (non-zero winding as
 * |winding| clamped to 1: exact unless two edges of overlapping contours cross the same pixel).
 */
export function areaCoverage(contours: readonly Contour[], x0: number, y0: number, w: number, h: number): Uint8Array {
  // Two spare cells a row: an edge's share spills one cell past its right end, and edges right of the mask land there.
  const stride = w + 2;
  const acc = new Float64Array(stride * h);
  for (const c of contours) {
    const n = c.length >> 1;
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      addClippedEdge(acc, stride, w, h, c[2 * i] - x0, c[2 * i + 1] - y0, c[2 * j] - x0, c[2 * j + 1] - y0);
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let sum = 0;
    const row = y * stride, o = y * w;
    for (let x = 0; x < w; x++) {
      sum += acc[row + x];
      const a = sum < 0 ? -sum : sum;
      out[o + x] = a >= 1 ? 255 : Math.round(a * 255);
    }
  }
  return out;
}

/** Splits an edge at x = 0 and x = w: a part left of the mask runs down its left side, a part right of it is dropped. */
function addClippedEdge(acc: Float64Array, stride: number, w: number, h: number, ax: number, ay: number, bx: number, by: number): void {
  if (ay === by) return;
  for (const bound of [0, w]) {
    if ((ax < bound) !== (bx < bound) && ax !== bound && bx !== bound) {
      const my = ay + ((bound - ax) / (bx - ax)) * (by - ay);
      addClippedEdge(acc, stride, w, h, ax, ay, bound, my);
      addClippedEdge(acc, stride, w, h, bound, my, bx, by);
      return;
    }
  }
  if (ax >= w && bx >= w) return;
  addEdge(acc, stride, h, ax < 0 ? 0 : ax, ay, bx < 0 ? 0 : bx, by);
}

/** Adds one edge (x within [0, w]) row by row: acc[i] grows by the edge's share of cell i minus that of cell i - 1. */
function addEdge(acc: Float64Array, stride: number, h: number, ax: number, ay: number, bx: number, by: number): void {
  let dir = 1;
  if (ay > by) {
    dir = -1;
    let t = ax; ax = bx; bx = t;
    t = ay; ay = by; by = t;
  }
  const dxdy = (bx - ax) / (by - ay);
  const yStart = Math.max(0, Math.floor(ay)), yEnd = Math.min(h, Math.ceil(by));
  for (let y = yStart; y < yEnd; y++) {
    const top = ay > y ? ay : y, bottom = by < y + 1 ? by : y + 1;
    const d = dir * (bottom - top);
    if (d === 0) continue;
    const xa = ax + (top - ay) * dxdy, xb = ax + (bottom - ay) * dxdy;
    const xl = xa < xb ? xa : xb, xr = xa < xb ? xb : xa;
    const il = Math.floor(xl), ir = Math.floor(xr);
    const row = y * stride;
    if (il === ir || xr - xl < 1e-9) {
      // Within one cell: the part right of the edge's mean x; the next cell on is wholly right of it.
      const m = (xl + xr) / 2 - il;
      acc[row + il] += d * (1 - m);
      acc[row + il + 1] += d * m;
      continue;
    }
    // shareRight(x): the mean over the edge of how much of [x - 1, x) lies right of it, i.e. cell x - 1's share.
    // Measured from cell il so that the squares stay small and their differences exact enough.
    const l = xl - il, r = xr - il, len = xr - xl;
    let prev = 0;
    for (let i = il; i <= ir + 1; i++) {
      const s = shareRight(i + 1 - il, l, r, len);
      acc[row + i] += d * (s - prev);
      prev = s;
    }
  }
}

/** Mean over u in [xl, xr] of clamp(x - u, 0, 1), from the integral of a ramp: (r(x-xl) - r(x-xr) - r(x-1-xl) + r(x-1-xr)) / len. */
function shareRight(x: number, xl: number, xr: number, len: number): number {
  return (halfSq(x - xl) - halfSq(x - xr) - halfSq(x - 1 - xl) + halfSq(x - 1 - xr)) / len;
}

function halfSq(z: number): number {
  return z > 0 ? (z * z) / 2 : 0;
}
