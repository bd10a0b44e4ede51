// Supersampled coverage as the legacy service fills shapes (circles, ellipses, diagonal lines): 8 sub-scanlines a
// row, each crossed at 256 sample positions a dot, samples counted per pixel and mapped to 0..255 with a quarter
// step of rounding. Matching its sampling grid, not the exact area, is what makes those shapes' grey pixels equal.

type Contour = ArrayLike<number>;

const SUB_Y = 8;
const SUB_X = 256;
const SAMPLES = SUB_X * SUB_Y;

/** Coverage 0..255 of the w x h pixels whose top-left corner sits at (x0, y0), non-zero winding. */
export function sampledCoverage(
  contours: readonly Contour[],
  x0: number,
  y0: number,
  w: number,
  h: number,
): Uint8Array {
  const edges = edgeTable(contours, x0, y0);
  const count = edges.length / EDGE;
  // Edges by the first sub-scanline they cross, so each sub-scanline looks only at the edges crossing it.
  const byStart = Int32Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => edges[a * EDGE + FIRST]! - edges[b * EDGE + FIRST]!,
  );
  const counts = new Int32Array((w + 1) * h);
  const active = new Int32Array(count);
  // This sub-scanline's crossings (first sample at or right of the edge) and windings, kept sorted by x.
  const xs = new Int32Array(count);
  const winds = new Int8Array(count);
  const maxSample = w * SUB_X;
  let next = 0,
    live = 0;
  for (let s = 0; s < h * SUB_Y; s++) {
    while (next < count && edges[byStart[next]! * EDGE + FIRST]! <= s) active[live++] = byStart[next++]!;
    let n = 0,
      keep = 0;
    for (let k = 0; k < live; k++) {
      const e = active[k]!,
        o = e * EDGE;
      if (s >= edges[o + LAST]!) continue;
      active[keep++] = e;
      const x = Math.ceil(edges[o + X]! + (s + 0.5 - edges[o + Y]!) * edges[o + SLOPE]! - 0.5);
      const wind = edges[o + WIND]!;
      let i = n++;
      for (; i > 0 && xs[i - 1]! > x; i--) {
        xs[i] = xs[i - 1]!;
        winds[i] = winds[i - 1]!;
      }
      xs[i] = x;
      winds[i] = wind;
    }
    live = keep;
    if (n < 2) continue;
    const row = Math.floor(s / SUB_Y) * (w + 1);
    let wind = 0;
    for (let k = 0; k < n - 1; k++) {
      wind += winds[k]!;
      if (wind === 0) continue;
      const a = Math.max(0, xs[k]!),
        b = Math.min(maxSample, xs[k + 1]!);
      if (b > a) addSamples(counts, row, a, b);
    }
  }
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w + 1);
    let full = 0;
    for (let x = 0; x < w; x++) {
      full += counts[row + x]! >> 16;
      const n = full * SUB_X + (counts[row + x]! & 0xffff);
      out[y * w + x] = Math.min(255, ((n * 255 + (SAMPLES >> 2)) / SAMPLES) | 0);
    }
  }
  return out;
}

/** Edge record fields: first and last (exclusive) sub-scanline crossed, a point, dx per sub-scanline, winding. */
const FIRST = 0,
  LAST = 1,
  X = 2,
  Y = 3,
  SLOPE = 4,
  WIND = 5,
  EDGE = 6;

/** Every non-horizontal edge in sample units (x in 1/256 dot, y in 1/8 dot) relative to (x0, y0). */
function edgeTable(contours: readonly Contour[], x0: number, y0: number): Float64Array {
  let n = 0;
  for (const c of contours) n += c.length >> 1;
  const edges = new Float64Array(n * EDGE);
  let o = 0;
  for (const c of contours) {
    const points = c.length >> 1;
    for (let i = 0; i < points; i++) {
      const j = i + 1 === points ? 0 : i + 1;
      let ax = (c[2 * i]! - x0) * SUB_X,
        ay = (c[2 * i + 1]! - y0) * SUB_Y;
      let bx = (c[2 * j]! - x0) * SUB_X,
        by = (c[2 * j + 1]! - y0) * SUB_Y;
      let wind = 1;
      if (ay > by) {
        [ax, bx, ay, by] = [bx, ax, by, ay];
        wind = -1;
      }
      const first = Math.max(0, Math.ceil(ay - 0.5)),
        last = Math.ceil(by - 0.5);
      if (last <= first) continue;
      edges[o + FIRST] = first;
      edges[o + LAST] = last;
      edges[o + X] = ax;
      edges[o + Y] = ay;
      edges[o + SLOPE] = (bx - ax) / (by - ay);
      edges[o + WIND] = wind;
      o += EDGE;
    }
  }
  return edges.subarray(0, o);
}

/**
 * Counts samples [a, b) into one row: whole pixels as a step in the high half (summed along the row later), the
 * partial pixels at either end in the low half.
 */
function addSamples(counts: Int32Array, row: number, a: number, b: number): void {
  const pa = a >> 8,
    pb = b >> 8;
  if (pa === pb) {
    counts[row + pa]! += b - a;
    return;
  }
  counts[row + pa]! += SUB_X - (a & 0xff);
  counts[row + pa + 1]! += 1 << 16;
  counts[row + pb]! += (b & 0xff) - (1 << 16);
}
