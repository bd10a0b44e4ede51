// Vector PDF through pdf-lib: each display list becomes one label-sized page of filled paths (bars, boxes,
// shapes, 2D modules, glyph outlines), 1-bit stencil images for bitmaps, and invisible text (render mode 3)
// over every glyph run so that search and copy find the field data. 1 dot = 72/dpi points.
//
// Reverse ink (^FR, ^LR) is XOR, as on the PNG: inside the reverse element's own shape (a clip), the paper
// is inked and every earlier element under it is painted again with ink and paper swapped.

import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, type PDFPage, type PDFRef } from 'pdf-lib';
import type { Orientation } from '../model.js';
import { extentOf, turn, type Box, type DisplayElement, type DisplayList, type GlyphRunElement } from '../layout/display-list.js';
import { paint } from '../raster/paint.js';
import { encodeRasterPage } from './pdf.js';

/** Earlier elements painted again under reverse elements, per page, before the page falls back to an image. */
const MAX_REPLAYED = 50_000;

export interface VectorPdfOptions {
  /** Page size in points (72 per inch). */
  widthPt: number;
  heightPt: number;
  /** Points per dot: 72 / dpi. */
  dotPt: number;
}

export async function encodeVectorPdf(labels: Iterable<DisplayList>, opts: VectorPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const pdf = new PdfResources(doc);
  for (const list of labels) {
    const page = doc.addPage([opts.widthPt, opts.heightPt]);
    const content = pageContent(list, opts, pdf);
    if (content === null) {
      encodeRasterPage(doc, page, paint(list), opts.widthPt, opts.heightPt); // too much XOR to replay: the page as pixels
      continue;
    }
    pdf.finishPage(page, content);
  }
  // Written in one go: pdf-lib would otherwise pause for a timer tick every 50 objects (one per glyph shape here).
  return doc.save({ useObjectStreams: false, objectsPerTick: Infinity });
}

const FONT = 'F0';

/** Document-wide objects: each distinct bitmap and glyph shape once, the font of the invisible text once. */
export class PdfResources {
  private readonly images = new Map<Uint8Array, string>();
  /** Glyph forms by font, code point and orientation. */
  private readonly glyphs = new Map<string, string>();
  /** XObjects the current page draws, by resource name. */
  readonly xObjectsUsed = new Map<string, PDFRef>();
  private readonly refs = new Map<string, PDFRef>();
  private helvetica?: PDFRef;
  fontUsed = false;

  constructor(private readonly doc: PDFDocument) {}

  /** Gives a page its content stream and the resources it used since the last page. */
  finishPage(page: PDFPage, content: string): void {
    const stream = this.doc.context.stream(deflateSync(Buffer.from(content, 'latin1')), { Filter: 'FlateDecode' });
    page.node.set(PDFName.of('Contents'), this.doc.context.register(stream));
    for (const [name, ref] of this.xObjectsUsed) page.node.setXObject(PDFName.of(name), ref);
    if (this.fontUsed) page.node.setFontDictionary(PDFName.of(FONT), this.font());
    this.xObjectsUsed.clear();
    this.fontUsed = false;
  }

  /** Draws `ref` (an image or form) on the current page under resource name `name`. */
  use(name: string, ref: PDFRef): string {
    this.xObjectsUsed.set(name, ref);
    return name;
  }

  /** Helvetica, one of the standard 14 fonts (nothing embedded): the invisible text needs no shapes. */
  font(): PDFRef {
    return (this.helvetica ??= this.doc.context.register(this.doc.context.obj({
      Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding',
    })));
  }

  /** Name of a stencil-mask image of 1-bit rows (set bits are ink). */
  image(bits: Uint8Array, stride: number, width: number, height: number): string {
    let name = this.images.get(bits);
    if (!name) {
      name = `Im${this.images.size}`;
      const rowBytes = Math.ceil(width / 8);
      let rows = bits.subarray(0, rowBytes * height);
      if (stride !== rowBytes) {
        rows = new Uint8Array(rowBytes * height);
        for (let y = 0; y < height; y++) rows.set(bits.subarray(y * stride, y * stride + rowBytes), y * rowBytes);
      }
      const stream = this.doc.context.stream(deflateSync(rows), {
        Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ImageMask: true, Decode: [1, 0], Filter: 'FlateDecode',
      });
      this.refs.set(name, this.doc.context.register(stream));
      this.images.set(bits, name);
    }
    this.xObjectsUsed.set(name, this.refs.get(name)!);
    return name;
  }

  /**
   * Name of a form XObject that fills one glyph outline (dots relative to the pen, already turned), in the
   * current fill colour; `key` names font, code point and orientation.
   */
  glyph(key: string, outline: () => GlyphShape): string {
    let name = this.glyphs.get(key);
    if (!name) {
      name = `G${this.glyphs.size}`;
      const form = glyphForm(key, outline);
      const stream = this.doc.context.stream(form.content, { Type: 'XObject', Subtype: 'Form', BBox: form.bbox, Filter: 'FlateDecode' });
      this.refs.set(name, this.doc.context.register(stream));
      this.glyphs.set(key, name);
    }
    this.xObjectsUsed.set(name, this.refs.get(name)!);
    return name;
  }
}

interface GlyphForm { content: Uint8Array; bbox: number[] }

/** Deflated glyph shapes by font, code point and orientation: labels keep printing the same glyphs. */
const glyphForms = new Map<string, GlyphForm>();
const MAX_GLYPH_FORMS = 20000;

/** A glyph turned to its orientation: its polygons (for the box) and the path operators that fill it. */
interface GlyphShape { polygons: number[][]; ops: string[] }

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

/** Path data (see PathData) turned to an orientation, as path operators; quadratic segments become cubic ones. */
function curvePath(out: string[], o: Orientation, path: readonly number[]): void {
  let s = '';
  let cx = 0, cy = 0;
  const pt = (x: number, y: number) => { const [a, b] = turn(o, x, y); return `${n(a)} ${n(b)}`; };
  for (let i = 0; i < path.length;) {
    const op = path[i++];
    if (op === 0 || op === 1) {
      cx = path[i++]; cy = path[i++];
      s += `${pt(cx, cy)} ${op === 0 ? 'm' : 'l'} `;
    } else if (op === 2) {
      const qx = path[i++], qy = path[i++], x = path[i++], y = path[i++];
      s += `${pt(cx + (2 / 3) * (qx - cx), cy + (2 / 3) * (qy - cy))} ${pt(x + (2 / 3) * (qx - x), y + (2 / 3) * (qy - y))} ${pt(x, y)} c `;
      cx = x; cy = y;
    } else {
      const x1 = path[i++], y1 = path[i++], x2 = path[i++], y2 = path[i++], x = path[i++], y = path[i++];
      s += `${pt(x1, y1)} ${pt(x2, y2)} ${pt(x, y)} c `;
      cx = x; cy = y;
    }
  }
  out.push(s + 'h');
}

function glyphForm(key: string, shape: () => GlyphShape): GlyphForm {
  let form = glyphForms.get(key);
  if (form) return form;
  const { polygons, ops } = shape();
  const { minX: x0, minY: y0, maxX: x1, maxY: y1 } = extentOf(polygons);
  ops.push('f');
  form = {
    content: deflateSync(Buffer.from(ops.join('\n'), 'latin1')),
    bbox: [Math.floor(x0) - 1, Math.floor(y0) - 1, Math.ceil(x1) + 1, Math.ceil(y1) + 1],
  };
  if (glyphForms.size >= MAX_GLYPH_FORMS) glyphForms.clear();
  glyphForms.set(key, form);
  return form;
}

/** Points of a flattened glyph curve closer than this (dots) to the chord are dropped from its form. */
const GLYPH_TOLERANCE = 0.03;

/** Ramer-Douglas-Peucker on a closed polygon: the same shape within `tol` dots, with fewer points. */
function simplify(c: readonly number[], tol: number): number[] {
  const count = c.length >> 1;
  if (count <= 4) return c as number[];
  const keep = new Uint8Array(count);
  keep[0] = 1;
  keep[count - 1] = 1;
  const stack: [number, number][] = [[0, count - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const ax = c[2 * a], ay = c[2 * a + 1], dx = c[2 * b] - ax, dy = c[2 * b + 1] - ay;
    const len = Math.hypot(dx, dy) || 1;
    let worst = -1, far = 0;
    for (let i = a + 1; i < b; i++) {
      const d = Math.abs((c[2 * i] - ax) * dy - (c[2 * i + 1] - ay) * dx) / len;
      if (d > far) { far = d; worst = i; }
    }
    if (worst >= 0 && far > tol) { keep[worst] = 1; stack.push([a, worst], [worst, b]); }
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (keep[i]) out.push(c[2 * i], c[2 * i + 1]);
  return out.length >= 6 ? out : (c as number[]);
}

/** A number for the content stream: at most two decimals (a hundredth of a dot), no exponent. */
function n(v: number): string {
  const r = Math.round(v * 100) / 100;
  return r === 0 ? '0' : String(r);
}

/**
 * Content drawing one label into the rectangle (0, 0)-(widthPt, heightPt) of the current coordinate system, or null
 * when reverse elements would replay too much (the label is then drawn as an image).
 */
export function pageContent(list: DisplayList, opts: VectorPdfOptions, pdf: PdfResources): string | null {
  const out: string[] = [];
  const s = opts.dotPt;
  // Dots, y down, from the top-left corner of the page; then ^PO I (180 degrees) and ^PM Y (mirror) as the raster applies them.
  out.push(`${s} 0 0 ${-s} 0 ${opts.heightPt} cm`); // exact: two decimals of a point would misplace far dots
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

  constructor(private readonly out: string[], private readonly pdf: PdfResources) {}

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
      const w = e.width * e.scaleX, h = e.height * e.scaleY;
      out.push(`q ${n(w)} 0 0 ${n(-h)} ${n(e.x)} ${n(e.y + h)} cm /${name} Do Q`);
      return;
    }
    if (e.kind === 'glyphRun') {
      // Each glyph shape once per document, filled where the pen puts it (one fill per glyph, as the raster blits them).
      for (const g of e.glyphs) {
        const outline = e.outlines[g.cp];
        if (!outline) continue;
        // One form per glyph and orientation, from its outline with the Bézier segments kept.
        const name = this.pdf.glyph(`${e.font}:${g.cp}:${e.orientation}`, () => formOps(e.orientation, outline, e.curves?.[g.cp]));
        out.push(`q 1 0 0 1 ${n(g.x)} ${n(g.y)} cm /${name} Do Q`);
      }
      return;
    }
    this.shape(e);
    out.push('f');
  }

  private setFill(ink: boolean): void {
    const v = ink ? 0 : 1;
    if (v !== this.fill) { this.out.push(`${v} g`); this.fill = v; }
  }

  /** The element's outline as a path (not yet filled or clipped). */
  private shape(e: DisplayElement): void {
    const out = this.out;
    switch (e.kind) {
      case 'rect': {
        // Whole dots, as the raster fills them.
        const x0 = Math.floor(e.box.x), y0 = Math.floor(e.box.y);
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

/** Whole dots [x0, x1) x [y0, y1). */
interface Region { x0: number; y0: number; x1: number; y1: number }

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

function polygon(out: string[], c: readonly number[], dx: number, dy: number): void {
  if (c.length < 6) return;
  let s = `${n(c[0] + dx)} ${n(c[1] + dy)} m`;
  for (let i = 2; i + 1 < c.length; i += 2) s += ` ${n(c[i] + dx)} ${n(c[i + 1] + dy)} l`;
  out.push(s + ' h');
}

/** A glyph's upright outline turned to an orientation about its pen point. */
function turned(o: Orientation, outline: readonly number[][]): number[][] {
  if (o === 'N') return outline as number[][];
  return outline.map((c) => {
    const t = new Array<number>(c.length);
    for (let i = 0; i + 1 < c.length; i += 2) [t[i], t[i + 1]] = turn(o, c[i], c[i + 1]);
    return t;
  });
}

/** A glyph's outline at its pen point, as path construction (for clipping to a reverse run). */
function glyphPath(out: string[], run: GlyphRunElement, px: number, py: number, outline: readonly number[][]): void {
  for (const c of turned(run.orientation, outline)) polygon(out, c, px, py);
}

/** Set bits as rectangles (one per run of ink along a row), for clipping to a bitmap's ink. */
function bitmapRuns(out: string[], bits: Uint8Array, stride: number, w: number, h: number, x: number, y: number, sx: number, sy: number): void {
  for (let r = 0; r < h; r++) {
    let c = 0;
    while (c < w) {
      if (!(bits[r * stride + (c >> 3)] & (0x80 >> (c & 7)))) { c++; continue; }
      let e = c + 1;
      while (e < w && (bits[r * stride + (e >> 3)] & (0x80 >> (e & 7)))) e++;
      out.push(`${n(x + c * sx)} ${n(y + r * sy)} ${n((e - c) * sx)} ${n(sy)} re`);
      c = e;
    }
  }
}

/**
 * The run's text, invisible (render mode 3), stretched over the run's extent along its writing direction. Helvetica
 * shows WinAnsi only: characters beyond it are shown as `?` and the whole text is given as the span's ActualText,
 * which text extraction and search read instead (pdftotext does).
 */
function invisibleText(out: string[], run: GlyphRunElement, pdf: PdfResources): void {
  if (!run.text.trim() || !run.glyphs.length) return;
  const { shown, whole } = winAnsi(run.text);
  const across = run.orientation === 'N' || run.orientation === 'I' ? run.box.height : run.box.width;
  const along = run.orientation === 'N' || run.orientation === 'I' ? run.box.width : run.box.height;
  const unit = shown.length * AVERAGE_ADVANCE;
  if (!(unit > 0) || !(along > 0)) return;
  const a = along / unit, size = Math.max(1, across);
  // Text space x along the writing direction, y up the glyphs; the page's y runs down.
  const [ux, uy] = turn(run.orientation, a, 0);
  const [vx, vy] = turn(run.orientation, 0, -size);
  const first = run.glyphs[0];
  pdf.fontUsed = true;
  const text = `BT 3 Tr /${FONT} 1 Tf ${n(ux)} ${n(uy)} ${n(vx)} ${n(vy)} ${n(first.x)} ${n(first.y)} Tm <${Buffer.from(shown, 'latin1').toString('hex')}> Tj ET`;
  out.push(whole ? text : `/Span <</ActualText <${utf16Hex(run.text)}>>> BDC ${text} EMC`);
}

/** Helvetica's mean advance in text space units (about half the size): stretching uses it, nothing is drawn. */
const AVERAGE_ADVANCE = 0.55;

/**
 * The text in WinAnsi bytes (as a Latin-1 string): Latin-1 outside 0x80-0x9F, characters beyond Latin-1 as `?`,
 * control characters left out; `whole` when nothing was replaced.
 */
function winAnsi(text: string): { shown: string; whole: boolean } {
  let shown = '';
  let whole = true;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff)) shown += ch;
    else if (c > 0xff) {
      shown += '?';
      whole = false;
    }
  }
  return { shown, whole };
}

/** A PDF text string in UTF-16BE with its byte order mark, as hex. */
function utf16Hex(text: string): string {
  const bytes = Buffer.from(text, 'utf16le').swap16();
  return `FEFF${bytes.toString('hex').toUpperCase()}`;
}
