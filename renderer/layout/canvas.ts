// What drawers draw on: a recorder that turns each drawing call into a display-list element stamped
// with the span of the field being laid out. Drawers never see pixels.

import type { Bits } from '../model.js';
import { extentOf, inkOf, turn, type Box, type Contour, type DisplayElement, type GlyphRunElement, type InkMode, type Span } from './display-list.js';

/** A glyph run as a drawer hands it over (ink and position on the page come from the canvas). */
export type GlyphRunSpec = Pick<GlyphRunElement, 'text' | 'font' | 'orientation' | 'crisp' | 'glyphs' | 'outlines' | 'curves' | 'widen' | 'coverageRows'>;

export interface Canvas {
  /** Label size in dots (drawers skip work wholly off the label). */
  readonly width: number;
  readonly height: number;
  rect(x: number, y: number, w: number, h: number, mode: InkMode): void;
  path(contours: readonly ArrayLike<number>[], mode: InkMode): void;
  bitmap(bits: Bits, x: number, y: number, mode: InkMode, scaleX?: number, scaleY?: number): void;
  glyphRun(run: GlyphRunSpec, mode: InkMode): void;
}

export class DisplayListBuilder implements Canvas {
  readonly elements: DisplayElement[] = [];
  /** Span of the field being laid out; every element made meanwhile carries it. */
  span: Span = { start: 0, end: 0 };

  constructor(readonly width: number, readonly height: number) {}

  rect(x: number, y: number, w: number, h: number, mode: InkMode): void {
    this.elements.push({ kind: 'rect', ...inkOf(mode), box: { x, y, width: w, height: h }, span: this.span });
  }

  path(contours: readonly ArrayLike<number>[], mode: InkMode): void {
    const plain: Contour[] = contours.map((c) => Array.isArray(c) ? c as number[] : Array.from(c));
    const e = extentOf(plain);
    this.elements.push({ kind: 'path', ...inkOf(mode), box: boxOf(e.minX, e.minY, e.maxX, e.maxY), span: this.span, contours: plain });
  }

  bitmap(bits: Bits, x: number, y: number, mode: InkMode, scaleX = 1, scaleY = 1): void {
    this.elements.push({
      kind: 'bitmap', ...inkOf(mode), box: { x, y, width: bits.width * scaleX, height: bits.height * scaleY }, span: this.span,
      x, y, width: bits.width, height: bits.height, stride: bits.stride, scaleX, scaleY, bits: bits.data,
    });
  }

  glyphRun(run: GlyphRunSpec, mode: InkMode): void {
    if (!run.glyphs.length) return;
    // Each outline's extent once, turned as a box; each glyph moves it to its pen point.
    const extents = new Map<string, { minX: number; minY: number; maxX: number; maxY: number }>();
    const half = (run.widen ?? 0) / 2; // widened spans reach past the outline sideways (upright)
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const g of run.glyphs) {
      const key = `${g.cp}:${g.shift}`;
      let e = extents.get(key);
      if (!e) {
        const u = extentOf(run.outlines[key] ?? []);
        const [ax, ay] = turn(run.orientation, u.minX - half, u.minY), [bx, by] = turn(run.orientation, u.maxX + half, u.maxY);
        e = { minX: Math.min(ax, bx), minY: Math.min(ay, by), maxX: Math.max(ax, bx), maxY: Math.max(ay, by) };
        extents.set(key, e);
      }
      if (!(e.minX <= e.maxX)) continue;
      x0 = Math.min(x0, g.x + e.minX); x1 = Math.max(x1, g.x + e.maxX);
      y0 = Math.min(y0, g.y + e.minY); y1 = Math.max(y1, g.y + e.maxY);
    }
    if (x0 > x1) { x0 = x1 = run.glyphs[0].x; y0 = y1 = run.glyphs[0].y; }
    this.elements.push({ kind: 'glyphRun', ...inkOf(mode), box: boxOf(x0, y0, x1, y1), span: this.span, ...run });
  }
}

function boxOf(x0: number, y0: number, x1: number, y1: number): Box {
  if (!(x0 <= x1)) return { x: 0, y: 0, width: 0, height: 0 };
  const x = Math.floor(x0), y = Math.floor(y0);
  return { x, y, width: Math.ceil(x1) - x, height: Math.ceil(y1) - y };
}
