// What drawers draw on: a recorder that turns each drawing call into a display-list element stamped
// with the span of the field being laid out. Drawers never see pixels.

import type { Bits } from '../model.js';
import {
  extentOf,
  inkOf,
  type Box,
  type Contour,
  type DisplayElement,
  type Extent,
  type GlyphRunElement,
  type InkMode,
  type OutputKind,
  type Span,
} from './display-list.js';

/** A glyph run as a drawer hands it over (ink and position on the page come from the canvas). */
export type GlyphRunSpec = Pick<
  GlyphRunElement,
  'text' | 'font' | 'orientation' | 'crisp' | 'glyphs' | 'outlines' | 'curves'
>;

export interface Canvas {
  /** Label size in dots (drawers skip work wholly off the label). */
  readonly width: number;
  readonly height: number;
  /** The backend the list is for: drawers leave out what it would not use. */
  readonly output: OutputKind;
  rect(x: number, y: number, w: number, h: number, mode: InkMode): void;
  path(contours: readonly ArrayLike<number>[], mode: InkMode): void;
  bitmap(bits: Bits, x: number, y: number, mode: InkMode, scaleX?: number, scaleY?: number): void;
  /** `extents`: outlines' extents by code point, where the drawer has them at hand (others are measured). */
  glyphRun(run: GlyphRunSpec, mode: InkMode, extents?: ReadonlyMap<number, Extent | null>): void;
}

/**
 * Heap bytes of display-list records as V8 keeps them (measured: a rect element 178 bytes, a placed glyph 83), claimed
 * from the document's memory budget: 1 MiB of QR codes makes millions of module rects (570 MB unclaimed).
 */
const ELEMENT_BYTES = 180;
const GLYPH_BYTES = 84;
const CONTOUR_BYTES = 32;
const COORDINATE_BYTES = 8;

export class DisplayListBuilder implements Canvas {
  readonly elements: DisplayElement[] = [];
  /** Span of the field being laid out; every element made meanwhile carries it. */
  span: Span = { start: 0, end: 0 };

  /** The backend the list is for (default `vector`: everything any backend draws). */
  readonly output: OutputKind;
  /** Takes the bytes of each record before it is made (and throws when the document's budget is spent). */
  private readonly claim: (bytes: number) => void;

  constructor(
    readonly width: number,
    readonly height: number,
    options: { output?: OutputKind; claim?: (bytes: number) => void } = {},
  ) {
    this.output = options.output ?? 'vector';
    this.claim = options.claim ?? (() => {});
  }

  rect(x: number, y: number, w: number, h: number, mode: InkMode): void {
    this.claim(ELEMENT_BYTES);
    // inkOf written out rather than spread into the record: a label has hundreds of rects (bars, 2D-code module runs).
    const ink = mode === 'xor' ? 'reverse' : 'normal',
      color = mode === 'white' ? 'white' : 'black';
    this.elements.push({ kind: 'rect', ink, color, box: { x, y, width: w, height: h }, span: this.span });
  }

  path(contours: readonly ArrayLike<number>[], mode: InkMode): void {
    let coordinates = 0;
    for (const c of contours) coordinates += c.length;
    this.claim(ELEMENT_BYTES + contours.length * CONTOUR_BYTES + coordinates * COORDINATE_BYTES);
    const plain: Contour[] = contours.map((c) => (Array.isArray(c) ? (c as number[]) : Array.from(c)));
    const e = extentOf(plain);
    this.elements.push({
      kind: 'path',
      ...inkOf(mode),
      box: boxOf(e.minX, e.minY, e.maxX, e.maxY),
      span: this.span,
      contours: plain,
    });
  }

  bitmap(bits: Bits, x: number, y: number, mode: InkMode, scaleX = 1, scaleY = 1): void {
    this.claim(ELEMENT_BYTES); // its bits were claimed when the graphic was decoded
    this.elements.push({
      kind: 'bitmap',
      ...inkOf(mode),
      box: { x, y, width: bits.width * scaleX, height: bits.height * scaleY },
      span: this.span,
      x,
      y,
      width: bits.width,
      height: bits.height,
      stride: bits.stride,
      scaleX,
      scaleY,
      bits: bits.data,
    });
  }

  glyphRun(run: GlyphRunSpec, mode: InkMode, extents?: ReadonlyMap<number, Extent | null>): void {
    if (!run.glyphs.length) return;
    this.claim(ELEMENT_BYTES + run.glyphs.length * GLYPH_BYTES); // outlines are shared with the glyph cache
    // Each glyph's outline extent, turned as a box, moved to its pen point. Written out without arrays (turn()
    // gives one per corner): a label has hundreds of glyphs.
    const o = run.orientation;
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (const g of run.glyphs) {
      const u = extents?.get(g.cp) ?? extentOf(run.outlines[g.cp] ?? []);
      // turn(o, ...) of the corners (minX, minY) and (maxX, maxY)
      const p = u.minX,
        q = u.minY,
        r = u.maxX,
        s = u.maxY;
      let ax = p,
        ay = q,
        bx = r,
        by = s;
      if (o === 'R') {
        ax = -q;
        ay = p;
        bx = -s;
        by = r;
      } else if (o === 'I') {
        ax = -p;
        ay = -q;
        bx = -r;
        by = -s;
      } else if (o === 'B') {
        ax = q;
        ay = -p;
        bx = s;
        by = -r;
      }
      const minX = Math.min(ax, bx),
        maxX = Math.max(ax, bx);
      if (!(minX <= maxX)) continue;
      x0 = Math.min(x0, g.x + minX);
      x1 = Math.max(x1, g.x + maxX);
      y0 = Math.min(y0, g.y + Math.min(ay, by));
      y1 = Math.max(y1, g.y + Math.max(ay, by));
    }
    if (x0 > x1) {
      x0 = x1 = run.glyphs[0].x;
      y0 = y1 = run.glyphs[0].y;
    }
    this.elements.push({ kind: 'glyphRun', ...inkOf(mode), box: boxOf(x0, y0, x1, y1), span: this.span, ...run });
  }
}

function boxOf(x0: number, y0: number, x1: number, y1: number): Box {
  if (!(x0 <= x1)) return { x: 0, y: 0, width: 0, height: 0 };
  const x = Math.floor(x0),
    y = Math.floor(y0);
  return { x, y, width: Math.ceil(x1) - x, height: Math.ceil(y1) - y };
}
