// Outlines for the anti-aliased shapes (^GB rounded corners, ^GE/^GC, ^GD), as flat contours for fillPath.

import type { Contour } from '../display/display-list.js';

/** Enough polygon segments that a flattened arc of radius `r` stays within a hundredth of a dot. */
function arcSteps(r: number, sweep: number): number {
  if (r <= 0) return 1;
  const step = 2 * Math.acos(Math.max(-1, 1 - 0.01 / r));
  return Math.max(4, Math.ceil(sweep / step));
}

/** An axis-aligned ellipse inside the box (x, y, w, h), clockwise on screen (y down). */
export function ellipseContour(x: number, y: number, w: number, h: number): Contour {
  const rx = w / 2,
    ry = h / 2;
  const cx = x + rx,
    cy = y + ry;
  const n = arcSteps(Math.max(rx, ry), 2 * Math.PI);
  const pts: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI;
    pts.push(cx + rx * Math.cos(a), cy + ry * Math.sin(a));
  }
  return pts;
}

/** A rectangle with circular corners of radius `r`, clockwise on screen. */
export function roundedRectContour(x: number, y: number, w: number, h: number, r: number): Contour {
  r = Math.max(0, Math.min(r, w / 2, h / 2));
  if (r === 0) return [x, y, x + w, y, x + w, y + h, x, y + h];
  const n = arcSteps(r, Math.PI / 2);
  const pts: number[] = [];
  // Corner centres in clockwise order starting top-right, each swept through its quarter.
  const corners: [number, number, number][] = [
    [x + w - r, y + r, -Math.PI / 2],
    [x + w - r, y + h - r, 0],
    [x + r, y + h - r, Math.PI / 2],
    [x + r, y + r, Math.PI],
  ];
  for (const [cx, cy, a0] of corners) {
    for (let i = 0; i <= n; i++) {
      const a = a0 + (i / n) * (Math.PI / 2);
      pts.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
  }
  return pts;
}

/** The same contour walked the other way: a hole under the non-zero rule. */
export function reversed(c: Contour): Contour {
  const out: number[] = [];
  for (let i = c.length - 2; i >= 0; i -= 2) out.push(c[i], c[i + 1]);
  return out;
}
