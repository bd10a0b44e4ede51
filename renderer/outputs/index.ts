// The legacy service's other outputs, from the interpreted document (no drawing): label data as JSON, and the
// ZPL itself, converted to another density (X-Target-Dpmm) and laid out one field a line (X-Formatter) on request.

import type { RenderHooks, RenderRequest, RenderResult } from '../api.js';
import { checkEstimate, estimateCost } from '../cost-estimate.js';
import { withOmitted } from '../diagnostics.js';
import { RenderError } from '../errors.js';
import { checkIndex, openDocumentSteps, requestMeter } from '../layout/document.js';
import { finishSliced } from '../steps.js';
import type { WorkMeter } from '../work-meter.js';
import { dotsPerInch, labelDots } from '../layout/dots.js';
import { convertDensity } from './density/convert.js';
import { fieldBitmaps } from './field-bitmap.js';
import { documentData } from './label-data.js';
import { layoutZpl } from './zpl-layout.js';

export { convertDensity } from './density/convert.js';
export { resample } from './density/bitmap.js';
export { documentData } from './label-data.js';
export type { DocumentData, FieldData, LabelData } from './label-data.js';
export { layoutZpl } from './zpl-layout.js';

/**
 * JSON: every printed label on the all-labels path (no index), the one label asked for otherwise, in the same
 * `{"labels":[...]}` shape. ZPL: always the whole document (a label may need the formats and objects before it);
 * the index is still checked, as for a PNG. Pages admitted: the labels in the answer.
 */
export async function renderDataOutput(
  zpl: Uint8Array | string,
  req: RenderRequest,
  hooks: RenderHooks = {},
  meter: WorkMeter = requestMeter(req, hooks.checkpoint),
): Promise<RenderResult> {
  hooks.started?.();
  const bytes = typeof zpl === 'string' ? new TextEncoder().encode(zpl) : zpl;
  // A conversion's resampled bitmaps are known from their headers: one too large is refused before any work.
  if (req.targetDpmm !== undefined) checkEstimate(estimateCost(bytes, req, Infinity), req);
  // Laid out as the raster backend draws: a field drawn as a bitmap is the PNG's picture of it.
  const doc = await finishSliced(openDocumentSteps(bytes, { ...req, output: 'raster' }, { meter }), meter);
  const total = doc.totalCount;
  if (req.index !== undefined) checkIndex(req.index, total);
  else if (req.format === 'json' && total === 0) throw new RenderError('no-labels', 'no labels generated');
  const pages = req.format === 'json' && req.index !== undefined ? 1 : total;
  meter.checkpoint();
  await hooks.admit?.({ totalCount: total, pages });
  const result = (
    body: Uint8Array,
    contentType: RenderResult['contentType'],
    notices: RenderResult['notices'] = [],
  ): RenderResult => ({
    body,
    contentType,
    totalCount: total,
    pages,
    warnings: doc.plan.log.entries,
    ...withOmitted(doc.plan.log),
    notices,
    unsupported: doc.unsupported(),
  });
  if (req.format === 'json') {
    return result(
      new TextEncoder().encode(JSON.stringify(documentData(doc.plan, req.index, meter))),
      'application/json',
    );
  }
  const to = req.targetDpmm;
  const memory = {
    claim: (n: number, what: string) => meter.claim(n, what),
    checkpoint: () => meter.checkpoint(),
    meter,
    ...(req.maxPixels !== undefined && { maxPixels: req.maxPixels }),
  };
  const fieldBitmap =
    to !== undefined &&
    req.lossyFields === 'bitmap' &&
    fieldBitmaps(
      doc,
      { width: labelDots(req.widthIn, to), height: labelDots(req.heightIn, to) },
      dotsPerInch(to) / dotsPerInch(req.dpmm),
      { ...memory, release: (n) => meter.release(n) },
    );
  const converted =
    to === undefined
      ? { bytes, warnings: [] }
      : convertDensity(bytes, req.dpmm, to, doc.plan, req, {
          ...memory,
          ...(fieldBitmap && { fieldBitmap }),
        });
  meter.checkpoint();
  return result(
    req.formatter ? layoutZpl(converted.bytes, meter) : converted.bytes,
    'application/zpl',
    converted.warnings,
  );
}
