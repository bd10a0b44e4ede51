// Raster PDF through pdf-lib: one label-sized page per label, each label drawn as a 1-bit image.

import { deflateSync } from 'node:zlib';
import {
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  concatTransformationMatrix,
  drawObject,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import type { Raster } from '../raster/raster.js';
import { bitonalRows, DEFLATE_OPTIONS } from './png.js';

/** PNG predictor "Up" (the row bytes carry their filter type, as in a PNG IDAT). */
const PNG_UP_PREDICTOR = 12;

/** `widthPt`/`heightPt`: the label size in points (72 per inch), e.g. 288x432 for 4x6. */
export async function encodePdf(
  labels: AsyncIterable<Raster> | Iterable<Raster>,
  widthPt: number,
  heightPt: number,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  let n = 0;
  for await (const r of labels)
    encodeRasterPage(doc, doc.addPage([widthPt, heightPt]), r, widthPt, heightPt, `Im${n++}`);
  return doc.save({ useObjectStreams: false });
}

/** A label's pixels as one 1-bit grey image object (drawn into the unit square). */
export function rasterImage(doc: PDFDocument, r: Raster): PDFRef {
  // The bitonal PNG's filtered rows, deflated by node's zlib (pdf-lib's own flate is pure JS and slower).
  const stream = doc.context.stream(deflateSync(bitonalRows(r), DEFLATE_OPTIONS), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: r.width,
    Height: r.height,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 1,
    Filter: 'FlateDecode',
    DecodeParms: { Predictor: PNG_UP_PREDICTOR, Colors: 1, BitsPerComponent: 1, Columns: r.width },
  });
  return doc.context.register(stream);
}

/** Fills a page with a label's pixels as one 1-bit image. */
export function encodeRasterPage(
  doc: PDFDocument,
  page: PDFPage,
  r: Raster,
  widthPt: number,
  heightPt: number,
  name = 'Label',
): void {
  page.node.setXObject(PDFName.of(name), rasterImage(doc, r));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(widthPt, 0, 0, heightPt, 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
}
