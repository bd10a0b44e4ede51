// ZPL bytes -> interpreter -> display lists -> raster -> PNG/PDF. The one call the HTTP layer and CLI use.

import type { RenderRequest, RenderResult } from './api.js';
import { encodePdf } from './encoders/pdf.js';
import { encodePng } from './encoders/png.js';
import { rotateClockwise } from './encoders/rotate.js';
import { RenderError } from './errors.js';
import { checkIndex, openDocument } from './layout/document.js';
import type { Raster } from './raster/raster.js';
import { paint } from './raster/paint.js';

export { DEFAULT_MAX_LABELS, DEFAULT_MAX_PIXELS, dotsPerInch, labelDots } from './layout/document.js';

export async function render(zpl: Uint8Array | string, req: RenderRequest): Promise<RenderResult> {
  const doc = openDocument(zpl, req);
  const draw = (i: number): Raster => paint(doc.label(i));
  const result = (body: Uint8Array, contentType: RenderResult['contentType'], pages: number): RenderResult =>
    ({ body, contentType, totalCount: doc.totalCount, pages, warnings: doc.plan.log.entries, unsupported: doc.unsupported });

  if (req.format === 'pdf' && req.index === undefined) {
    if (doc.totalCount === 0) throw new RenderError('no-labels', 'no labels generated');
    const body = await encodePdf(eachLabel(doc.totalCount, draw), req.widthIn * 72, req.heightIn * 72);
    return result(body, 'application/pdf', doc.totalCount);
  }
  const index = req.index ?? 0;
  checkIndex(index, doc.totalCount);
  const raster = draw(index);
  if (req.format === 'pdf') return result(await encodePdf([raster], req.widthIn * 72, req.heightIn * 72), 'application/pdf', 1);
  const turned = rotateClockwise(raster, req.rotation ?? 0);
  return result(encodePng(turned, req.quality === 'bitonal'), 'image/png', 1);
}

/** Draws labels one at a time as the PDF encoder asks for them, so only one raster is alive at once. */
function* eachLabel(total: number, draw: (i: number) => Raster): Generator<Raster> {
  for (let i = 0; i < total; i++) yield draw(i);
}
