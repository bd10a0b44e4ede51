// One label's content stream: filled paths (bars, boxes, shapes, 2D modules), glyph forms, stencil images, then the
// invisible text. 1 dot = 72/dpi points.
//
// Reverse ink (^FR, ^LR) is XOR, as on the PNG: inside the reverse element's own shape (a clip), the paper
// is inked and every earlier element under it is painted again with ink and paper swapped.

import type { Orientation } from '../../model.js';
import type { Box, DisplayElement, DisplayList, GlyphRunElement } from '../../display/display-list.js';
import { bitmapRuns, curvePath, n, polygon, simplify, turned } from './operators.js';
import type { GlyphShape, PdfResources } from './resources.js';
import { invisibleText } from './text-layer.js';

/** Earlier elements painted again under reverse elements, per page, before the page falls back to an image. */
const MAX_REPLAYED = 50_000;

/** Where a label goes: its size in points (72 per inch) and points per dot (72 / dpi). */
export interface LabelFrame {
  widthPt: number;
  heightPt: number;
  dotPt: number;
}

/**
 * Content drawing one label into the rectangle (0, 0)-(widthPt, heightPt) of the current coordinate system, or null
 * when reverse elements would replay too much (the label is then drawn as an image).
 */
export function pageContent(list: DisplayList, frame: LabelFrame, pdf: PdfResources): string | null {
  const out: string[] = [];
  const s = frame.dotPt;
  // Dots, y down, from the top-left corner of the page; then ^PO I (180 degrees) and ^PM Y (mirror) as the raster applies them.
  out.push(`${s} 0 0 ${-s} 0 ${frame.heightPt} cm`); // exact: two decimals of a point would misplace far dots
  if (list.invert) out.push(`-1 0 0 -1 ${list.width} ${list.height} cm`);
  if (list.mirror) out.push(`-1 0 0 1 ${list.width} 0 cm`);
  // ^PW narrower than the label: nothing inks outside its columns (the raster clears them after drawing).
  if (list.printArea) out.push(`${list.printArea.x} 0 ${list.printArea.width} ${list.height} re W n`);
  const painter = new Painter(out, pdf);
  const els = list.elements;
  for (let i = 0; i < els.length; i++) {
    painter.element(els, i, false);
    if (painter.replayed > MAX_REPLAYED) return null;
  }
  out.push('0 g');
  for (const e of els) if (e.kind === 'glyphRun') invisibleText(out, e, pdf);
  return out.join('\n');
}

class Painter {
  replayed = 0;
  private fill = -1;

  constructor(
    private readonly out: string[],
    private readonly pdf: PdfResources,
  ) {}

  /**
   * Paints element i over the elements before it; `swapped` paints ink as paper and paper as ink. `within` is the
   * region a reverse element being painted clips to: what lies wholly outside it is not painted again.
   */
  element(els: readonly DisplayElement[], i: number, swapped: boolean, within?: Region): void {
    const e = els[i];
    const out = this.out;
    if (e.ink === 'reverse') {
      const region = intersect(pixels(e.box), within);
      if (!region) return;
      const under: number[] = [];
      for (let j = 0; j < i; j++) if (intersect(pixels(els[j].box), region)) under.push(j);
      if (!under.length) {
        // Over bare paper XOR is plain ink: no clip, nothing to paint again.
        this.setFill(!swapped);
        this.solid(e);
        return;
      }
      out.push('q');
      this.shape(e);
      out.push('W n');
      this.fill = -1; // q/Q: the colour after Q is unknown to us
      this.setFill(!swapped);
      out.push(`${e.box.x - 1} ${e.box.y - 1} ${e.box.width + 2} ${e.box.height + 2} re f`);
      for (const j of under) {
        this.replayed++;
        if (this.replayed > MAX_REPLAYED) break;
        this.element(els, j, !swapped, region);
      }
      out.push('Q');
      this.fill = -1;
      return;
    }
    this.setFill((e.color === 'black') !== swapped);
    this.solid(e);
  }

  /** Fills the element's ink in the current colour. */
  private solid(e: DisplayElement): void {
    const out = this.out;
    if (e.kind === 'bitmap') {
      const name = this.pdf.image(e.bits, e.stride, e.width, e.height);
      const w = e.width * e.scaleX,
        h = e.height * e.scaleY;
      out.push(`q ${n(w)} 0 0 ${n(-h)} ${n(e.x)} ${n(e.y + h)} cm /${name} Do Q`);
      return;
    }
    if (e.kind === 'glyphRun') {
      // Each glyph shape once per document, filled where the pen puts it (one fill per glyph, as the raster blits them).
      for (const g of e.glyphs) {
        const outline = e.outlines[g.cp];
        if (!outline) continue;
        // One form per glyph and orientation, from its outline with the Bézier segments kept.
        const name = this.pdf.glyph(e.font, g.cp, e.orientation, () =>
          formOps(e.orientation, outline, e.curves?.[g.cp]),
        );
        out.push(`q 1 0 0 1 ${n(g.x)} ${n(g.y)} cm /${name} Do Q`);
      }
      return;
    }
    this.shape(e);
    out.push('f');
  }

  private setFill(ink: boolean): void {
    const v = ink ? 0 : 1;
    if (v !== this.fill) {
      this.out.push(`${v} g`);
      this.fill = v;
    }
  }

  /** The element's outline as a path (not yet filled or clipped). */
  private shape(e: DisplayElement): void {
    const out = this.out;
    switch (e.kind) {
      case 'rect': {
        // Whole dots, as the raster fills them.
        const x0 = Math.floor(e.box.x),
          y0 = Math.floor(e.box.y);
        out.push(`${x0} ${y0} ${Math.floor(e.box.x + e.box.width) - x0} ${Math.floor(e.box.y + e.box.height) - y0} re`);
        return;
      }
      case 'path':
        for (const c of e.contours) polygon(out, c, 0, 0);
        return;
      case 'bitmap':
        bitmapRuns(out, e.bits, e.stride, e.width, e.height, e.x, e.y, e.scaleX, e.scaleY);
        return;
      case 'glyphRun':
        for (const g of e.glyphs) {
          const outline = e.outlines[g.cp];
          if (outline) glyphPath(out, e, g.x, g.y, outline);
        }
    }
  }
}

/** Points of a flattened glyph curve closer than this (dots) to the chord are dropped from its form. */
const GLYPH_TOLERANCE = 0.03;

/** The glyph's fill: its curves where the font gave them, else its polygons thinned within GLYPH_TOLERANCE. */
function formOps(o: Orientation, polygons: readonly number[][], curves: readonly number[][] | undefined): GlyphShape {
  const turnedPolygons = turned(o, polygons);
  const ops: string[] = [];
  if (curves && curves.length === polygons.length && curves.every((c) => c.length > 0)) {
    for (const c of curves) curvePath(ops, o, c);
  } else {
    for (const c of turnedPolygons) polygon(ops, simplify(c, GLYPH_TOLERANCE), 0, 0);
  }
  return { polygons: turnedPolygons, ops };
}

/** Whole dots [x0, x1) x [y0, y1). */
interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The dots an element's box can ink (the raster inks no dot outside them). */
function pixels(b: Box): Region {
  return { x0: Math.floor(b.x), y0: Math.floor(b.y), x1: Math.ceil(b.x + b.width), y1: Math.ceil(b.y + b.height) };
}

/** The dots two regions share, or null when none (boxes that only touch share none). */
function intersect(a: Region, b: Region | undefined): Region | null {
  if (!b) return a.x0 < a.x1 && a.y0 < a.y1 ? a : null;
  const r = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return r.x0 < r.x1 && r.y0 < r.y1 ? r : null;
}

/** A glyph's outline at its pen point, as path construction (for clipping to a reverse run). */
function glyphPath(out: string[], run: GlyphRunElement, px: number, py: number, outline: readonly number[][]): void {
  for (const c of turned(run.orientation, outline)) polygon(out, c, px, py);
}
