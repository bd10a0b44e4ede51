// PDF content-stream operators as plain strings, in label dots: numbers, polygons, curves and bitmap runs. One
// string per path (never an object per operator): a label has thousands of them.

import type { Orientation } from '../../model.js';
import { turn } from '../../display/display-list.js';

/** A number for the content stream: at most two decimals (a hundredth of a dot), no exponent. */
export function n(v: number): string {
  const r = Math.round(v * 100) / 100;
  return r === 0 ? '0' : String(r);
}

/** A closed polygon (x0, y0, x1, y1, ...) moved by (dx, dy), as path construction. */
export function polygon(out: string[], c: readonly number[], dx: number, dy: number): void {
  if (c.length < 6) return;
  let s = `${n(c[0] + dx)} ${n(c[1] + dy)} m`;
  for (let i = 2; i + 1 < c.length; i += 2) s += ` ${n(c[i] + dx)} ${n(c[i + 1] + dy)} l`;
  out.push(s + ' h');
}

/** Path data (see PathData) turned to an orientation, as path operators; quadratic segments become cubic ones. */
export function curvePath(out: string[], o: Orientation, path: readonly number[]): void {
  let s = '';
  let cx = 0,
    cy = 0;
  const pt = (x: number, y: number) => {
    const [a, b] = turn(o, x, y);
    return `${n(a)} ${n(b)}`;
  };
  for (let i = 0; i < path.length; ) {
    const op = path[i++];
    if (op === 0 || op === 1) {
      cx = path[i++];
      cy = path[i++];
      s += `${pt(cx, cy)} ${op === 0 ? 'm' : 'l'} `;
    } else if (op === 2) {
      const qx = path[i++],
        qy = path[i++],
        x = path[i++],
        y = path[i++];
      s += `${pt(cx + (2 / 3) * (qx - cx), cy + (2 / 3) * (qy - cy))} ${pt(x + (2 / 3) * (qx - x), y + (2 / 3) * (qy - y))} ${pt(x, y)} c `;
      cx = x;
      cy = y;
    } else {
      const x1 = path[i++],
        y1 = path[i++],
        x2 = path[i++],
        y2 = path[i++],
        x = path[i++],
        y = path[i++];
      s += `${pt(x1, y1)} ${pt(x2, y2)} ${pt(x, y)} c `;
      cx = x;
      cy = y;
    }
  }
  out.push(s + 'h');
}

/** Set bits as rectangles (one per run of ink along a row), for clipping to a bitmap's ink. */
export function bitmapRuns(
  out: string[],
  bits: Uint8Array,
  stride: number,
  w: number,
  h: number,
  x: number,
  y: number,
  sx: number,
  sy: number,
): void {
  for (let r = 0; r < h; r++) {
    let c = 0;
    while (c < w) {
      if (!(bits[r * stride + (c >> 3)] & (0x80 >> (c & 7)))) {
        c++;
        continue;
      }
      let e = c + 1;
      while (e < w && bits[r * stride + (e >> 3)] & (0x80 >> (e & 7))) e++;
      out.push(`${n(x + c * sx)} ${n(y + r * sy)} ${n((e - c) * sx)} ${n(sy)} re`);
      c = e;
    }
  }
}

/** A glyph's upright outline turned to an orientation about its pen point. */
export function turned(o: Orientation, outline: readonly number[][]): number[][] {
  if (o === 'N') return outline as number[][];
  return outline.map((c) => {
    const t = new Array<number>(c.length);
    for (let i = 0; i + 1 < c.length; i += 2) [t[i], t[i + 1]] = turn(o, c[i], c[i + 1]);
    return t;
  });
}

/** Ramer-Douglas-Peucker on a closed polygon: the same shape within `tol` dots, with fewer points. */
export function simplify(c: readonly number[], tol: number): number[] {
  const count = c.length >> 1;
  if (count <= 4) return c as number[];
  const keep = new Uint8Array(count);
  keep[0] = 1;
  keep[count - 1] = 1;
  const stack: [number, number][] = [[0, count - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const ax = c[2 * a],
      ay = c[2 * a + 1],
      dx = c[2 * b] - ax,
      dy = c[2 * b + 1] - ay;
    const len = Math.hypot(dx, dy) || 1;
    let worst = -1,
      far = 0;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs((c[2 * i] - ax) * dy - (c[2 * i + 1] - ay) * dx) / len;
      if (d > far) {
        far = d;
        worst = i;
      }
    }
    if (worst >= 0 && far > tol) {
      keep[worst] = 1;
      stack.push([a, worst], [worst, b]);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (keep[i]) out.push(c[2 * i], c[2 * i + 1]);
  return out.length >= 6 ? out : (c as number[]);
}
