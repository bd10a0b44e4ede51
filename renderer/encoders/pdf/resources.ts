// Document-wide PDF objects: each distinct bitmap and glyph shape once, the font of the invisible text once, and
// which of them the current page draws. Deflated glyph forms are kept across documents, within a byte bound.

import { deflateSync } from 'node:zlib';
import { PDFName, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';
import { BoundedCache } from '../../bounded-cache.js';
import type { Orientation } from '../../model.js';
import { extentOf } from '../../display/display-list.js';
import type { Raster } from '../../raster/raster.js';
import { rasterImage } from '../pdf.js';

/** A glyph turned to its orientation: its polygons (for the box) and the path operators that fill it. */
export interface GlyphShape {
  polygons: number[][];
  ops: string[];
}

interface GlyphForm {
  content: Uint8Array;
  bbox: number[];
}

/** Deflated glyph shapes by font and orientation (group) and code point: labels keep printing the same glyphs. */
const glyphForms = new BoundedCache<GlyphForm>(8 * 1024 * 1024, 256 * 1024, (f) => f.content.byteLength + 4 * 8);

/** The glyph's form content (its shape filled) and box, made once per font, orientation and code point. */
function glyphForm(font: string, cp: number, o: Orientation, shape: () => GlyphShape): GlyphForm {
  return glyphForms.get(`${font}:${o}`, cp, () => {
    const { polygons, ops } = shape();
    const { minX: x0, minY: y0, maxX: x1, maxY: y1 } = extentOf(polygons);
    ops.push('f');
    return {
      content: deflateSync(Buffer.from(ops.join('\n'), 'latin1')),
      bbox: [Math.floor(x0) - 1, Math.floor(y0) - 1, Math.ceil(x1) + 1, Math.ceil(y1) + 1],
    };
  })!;
}

/** Resource name of the invisible text's font. */
const FONT = 'F0';

export class PdfResources {
  private readonly images = new Map<Uint8Array, string>();
  /** Glyph forms' names by font, code point and orientation. */
  private readonly glyphs = new Map<string, string>();
  /** XObjects the current page draws, by resource name. */
  private readonly xObjectsUsed = new Map<string, PDFRef>();
  private readonly refs = new Map<string, PDFRef>();
  private helvetica?: PDFRef;
  private fontUsed = false;
  private labelImages = 0;

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

  /** Name of the invisible text's font on the current page. */
  textFont(): string {
    this.fontUsed = true;
    return FONT;
  }

  /** Name of a label's pixels as one 1-bit image (drawn into the unit square) on the current page. */
  labelImage(raster: Raster): string {
    const name = `Label${this.labelImages++}`;
    this.xObjectsUsed.set(name, rasterImage(this.doc, raster));
    return name;
  }

  /** Helvetica, one of the standard 14 fonts (nothing embedded): the invisible text needs no shapes. */
  private font(): PDFRef {
    return (this.helvetica ??= this.doc.context.register(
      this.doc.context.obj({
        Type: 'Font',
        Subtype: 'Type1',
        BaseFont: 'Helvetica',
        Encoding: 'WinAnsiEncoding',
      }),
    ));
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
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ImageMask: true,
        Decode: [1, 0],
        Filter: 'FlateDecode',
      });
      this.refs.set(name, this.doc.context.register(stream));
      this.images.set(bits, name);
    }
    this.xObjectsUsed.set(name, this.refs.get(name)!);
    return name;
  }

  /**
   * Name of a form XObject that fills one glyph outline (dots relative to the pen, already turned), in the
   * current fill colour.
   */
  glyph(font: string, cp: number, o: Orientation, shape: () => GlyphShape): string {
    const key = `${font}:${cp}:${o}`;
    let name = this.glyphs.get(key);
    if (!name) {
      name = `G${this.glyphs.size}`;
      const form = glyphForm(font, cp, o, shape);
      const stream = this.doc.context.stream(form.content, {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: form.bbox,
        Filter: 'FlateDecode',
      });
      this.refs.set(name, this.doc.context.register(stream));
      this.glyphs.set(key, name);
    }
    this.xObjectsUsed.set(name, this.refs.get(name)!);
    return name;
  }
}
