// ZPL bytes -> interpreter -> display lists -> raster -> PNG/PDF. The one call the HTTP layer and CLI use.

import type { RenderRequest, RenderResult } from './api.js';
import { encodePdf } from './encoders/pdf.js';
import { encodeVectorPdf } from './encoders/pdf-vector.js';
import { encodeSheets } from './encoders/pdf-sheet.js';
import { encodePng } from './encoders/png.js';
import { rotateClockwise } from './encoders/rotate.js';
import { RenderError } from './errors.js';
import { checkIndex, dotsPerInch, openDocument } from './layout/document.js';
import type { DisplayList } from './layout/display-list.js';
import type { Raster } from './raster/raster.js';
import { paint } from './raster/paint.js';

export { DEFAULT_MAX_LABELS, DEFAULT_MAX_PIXELS, dotsPerInch, labelDots } from './layout/document.js';

export async function render(zpl: Uint8Array | string, req: RenderRequest): Promise<RenderResult> {
  const doc = openDocument(zpl, req);
  const draw = (i: number): Raster => paint(doc.label(i));
  const result = (body: Uint8Array, contentType: RenderResult['contentType'], pages: number): RenderResult =>
    ({ body, contentType, totalCount: doc.totalCount, pages, warnings: doc.plan.log.entries, unsupported: doc.unsupported });

  if (req.format === 'pdf') {
    const all = req.index === undefined;
    if (all && doc.totalCount === 0) throw new RenderError('no-labels', 'no labels generated');
    if (!all) checkIndex(req.index!, doc.totalCount);
    const indices = all ? Array.from({ length: doc.totalCount }, (_, i) => i) : [req.index!];
    const widthPt = req.widthIn * 72, heightPt = req.heightIn * 72;
    const dotPt = 72 / dotsPerInch(req.dpmm);
    const body = req.page
      ? await encodeSheets(each(indices, (i): DisplayList => doc.label(i)), req.page, { labelWidthPt: widthPt, labelHeightPt: heightPt, dotPt, mode: req.pdf ?? 'vector' })
      : req.pdf === 'raster'
      ? await encodePdf(each(indices, draw), widthPt, heightPt)
      : await encodeVectorPdf(each(indices, (i): DisplayList => doc.label(i)), { widthPt, heightPt, dotPt });
    return result(body, 'application/pdf', indices.length);
  }
  const index = req.index ?? 0;
  checkIndex(index, doc.totalCount);
  const raster = draw(index);
  const turned = rotateClockwise(raster, req.rotation ?? 0);
  return result(encodePng(turned, req.quality === 'bitonal'), 'image/png', 1);
}

/** Lays out (and draws) labels one at a time as the PDF encoder asks for them, so only one is alive at once. */
function* each<T>(indices: readonly number[], make: (i: number) => T): Generator<T> {
  for (const i of indices) yield make(i);
}
