// Vector PDF through pdf-lib: each display list becomes one label-sized page (encoders/pdf/ paints it), or, when
// reverse ink would replay too much, the label's pixels as one image.

import { PDFDocument } from 'pdf-lib';
import type { DisplayList } from '../display/display-list.js';
import { paint } from '../raster/paint.js';
import { encodeRasterPage } from './pdf.js';
import { pageContent, type LabelFrame } from './pdf/painter.js';
import { PdfResources } from './pdf/resources.js';

export type VectorPdfOptions = LabelFrame;

export async function encodeVectorPdf(
  labels: AsyncIterable<DisplayList> | Iterable<DisplayList>,
  opts: VectorPdfOptions,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const pdf = new PdfResources(doc);
  for await (const list of labels) {
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
