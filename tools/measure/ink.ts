// Ink profiles of reference PNGs, shared by the font measuring scripts (measure time only).

export interface Gray {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** Ink coverage 0..1 of a pixel (reference PNGs are 8-bit grey, white paper). */
export const ink = (img: Gray, x: number, y: number) => (255 - img.gray[y * img.width + x]) / 255;

export function profiles(img: Gray) {
  const colMax = new Float64Array(img.width),
    rowMax = new Float64Array(img.height),
    colSum = new Float64Array(img.width);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const c = ink(img, x, y);
      if (c <= 0) continue;
      if (c > colMax[x]) colMax[x] = c;
      if (c > rowMax[y]) rowMax[y] = c;
      colSum[x] += c;
    }
  }
  return { colMax, rowMax, colSum };
}

/** Continuous ink extent [lo, hi) from a max-coverage profile. */
export function extent(p: Float64Array): [number, number] | null {
  let a = -1,
    b = -1;
  for (let i = 0; i < p.length; i++)
    if (p[i] > 0.02) {
      if (a < 0) a = i;
      b = i;
    }
  if (a < 0) return null;
  return [a + 1 - p[a], b + p[b]];
}

/** Period of three repeated copies: the shift that best matches the column profile with itself. */
export function period(colSum: Float64Array, lo: number, hi: number): number {
  const span = hi - lo;
  let best = -1,
    bestErr = Infinity;
  const errs: number[] = [];
  const minShift = Math.max(1, Math.floor(span / 6));
  for (let d = 0; d <= span; d++) {
    let err = 0,
      n = 0;
    for (let x = lo - 2; x <= hi + 2; x++) {
      const a = colSum[x] ?? 0,
        b = colSum[x + d] ?? 0;
      // compare copy k with copy k+1 only where copy k+1 exists
      if (x + d > hi + 2) break;
      err += Math.abs(a - b);
      n++;
    }
    errs[d] = n ? err / n : Infinity;
  }
  // the first deep minimum after the zero shift (total width = glyph + 2 * advance)
  for (let d = minShift; d < errs.length - 1; d++) {
    if (errs[d] < bestErr && d <= span / 2 + 1) {
      bestErr = errs[d];
      best = d;
    }
  }
  // sub-pixel refinement by a parabola through the neighbours
  const e0 = errs[best - 1],
    e1 = errs[best],
    e2 = errs[best + 1];
  const denom = e0 - 2 * e1 + e2;
  return denom > 0 ? best + (0.5 * (e0 - e2)) / denom : best;
}

/** When the three copies are separated by blank columns: half the distance from the first to the third. */
export function runsPeriod(colMax: Float64Array): number | null {
  const starts: number[] = [];
  for (let x = 1; x < colMax.length; x++) {
    if (colMax[x] > 0.02 && !(colMax[x - 1] > 0.02)) starts.push(x + 1 - colMax[x]);
  }
  return starts.length === 3 ? (starts[2] - starts[0]) / 2 : null;
}

/** Copies that join into one even bar (underscore, macron): a third of its length. */
export function flatPeriod(colSum: Float64Array, xs: [number, number]): number | null {
  const a = Math.ceil(xs[0]) + 1,
    b = Math.floor(xs[1]) - 2;
  if (b - a < 6) return null;
  let lo = Infinity,
    hi = -Infinity;
  for (let x = a; x <= b; x++) {
    lo = Math.min(lo, colSum[x]);
    hi = Math.max(hi, colSum[x]);
  }
  return hi - lo < 0.15 * hi ? (xs[1] - xs[0]) / 3 : null;
}

/** Reference PNGs decoded as the fidelity score decodes them (compare/png.ts, jimp). */
export async function decodeReference(png: Buffer): Promise<Gray> {
  const { decodeGreyPng } = await import('../../compare/png.js');
  const { width, height, grey } = await decodeGreyPng(png);
  return { width, height, gray: grey };
}

/**
 * The separate ink parts (8-connected above half coverage, at least `minPixels`) inside a window, each as
 * [left, right, top, bottom] pixel edges refined by the coverage of the fringe just outside it.
 */
export function inkParts(
  img: Gray,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  minPixels = 4,
): [number, number, number, number][] {
  const w = x1 - x0,
    h = y1 - y0;
  const on = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && ink(img, x + x0, y + y0) >= 0.5;
  const seen = new Uint8Array(w * h);
  const out: [number, number, number, number][] = [];
  for (let sy = 0; sy < h; sy++) {
    for (let sx = 0; sx < w; sx++) {
      if (seen[sy * w + sx] || !on(sx, sy)) continue;
      let n = 0,
        l = sx,
        r = sx,
        t = sy,
        b = sy;
      const stack = [sx, sy];
      seen[sy * w + sx] = 1;
      while (stack.length) {
        const y = stack.pop()!,
          x = stack.pop()!;
        n++;
        l = Math.min(l, x);
        r = Math.max(r, x);
        t = Math.min(t, y);
        b = Math.max(b, y);
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx,
              yy = y + dy;
            if ((dx || dy) && on(xx, yy) && !seen[yy * w + xx]) {
              seen[yy * w + xx] = 1;
              stack.push(xx, yy);
            }
          }
      }
      if (n < minPixels) continue;
      // Sub-pixel edges, as extent() finds them: the fringe outside a side, else the side's own coverage.
      const cover = (xa: number, xb: number, ya: number, yb: number) => {
        let m = 0;
        for (let y = ya; y <= yb; y++)
          for (let x = xa; x <= xb; x++) {
            if (x >= 0 && y >= 0 && x < w && y < h) m = Math.max(m, ink(img, x + x0, y + y0));
          }
        return m;
      };
      const edge = (outside: number, own: number) => (outside > 0.02 ? Math.min(0.5, outside) : own - 1);
      out.push([
        x0 + l - edge(cover(l - 1, l - 1, t, b), cover(l, l, t, b)),
        x0 + r + 1 + edge(cover(r + 1, r + 1, t, b), cover(r, r, t, b)),
        y0 + t - edge(cover(l, r, t - 1, t - 1), cover(l, r, t, t)),
        y0 + b + 1 + edge(cover(l, r, b + 1, b + 1), cover(l, r, b, b)),
      ]);
    }
  }
  return out;
}

/**
 * Whole-dot offsets of the second and third copies of a glyph from the first: the legacy renderer draws every copy
 * alike at a whole-dot pen, so the image shifted by a copy's offset matches the first copy pixel for pixel (up to the
 * few pixels where neighbours overlap). Null when no single shift matches best (copies joined into one bar).
 */
export function copyOffsets(
  img: Gray,
  xs: [number, number],
  ys: [number, number],
  estimate: number,
): [number, number] | null {
  const x0 = Math.floor(xs[0]),
    y0 = Math.floor(ys[0]),
    y1 = Math.ceil(ys[1]);
  const span = Math.max(1, Math.floor(estimate * 0.9));
  const mismatches = (d: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x0 + span && x + d < img.width; x++) {
        const a = img.gray[y * img.width + x],
          b = img.gray[y * img.width + x + d];
        if (a !== b) n++;
      }
    }
    return n;
  };
  const best = (center: number): number | null => {
    let bestD = -1,
      bestN = Infinity,
      tie = false;
    for (let d = Math.round(center) - 2; d <= Math.round(center) + 2; d++) {
      const n = mismatches(d);
      if (n < bestN) {
        bestN = n;
        bestD = d;
        tie = false;
      } else if (n === bestN) tie = true;
    }
    return tie ? null : bestD;
  };
  const d1 = best(estimate),
    d2 = best(2 * estimate);
  return d1 !== null && d2 !== null ? [d1, d2] : null;
}

/** The advances a for which whole-dot pens round(a) and round(2a) (halves up) land on the copies' offsets. */
export function advanceRange([d1, d2]: [number, number]): [number, number] | null {
  const lo = Math.max(d1 - 0.5, (d2 - 0.5) / 2),
    hi = Math.min(d1 + 0.5, (d2 + 0.5) / 2);
  return lo < hi ? [lo, hi] : null;
}
