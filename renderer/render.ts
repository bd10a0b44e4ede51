// ZPL bytes -> interpreter -> display lists -> raster -> PNG/PDF. The one call the HTTP layer and CLI use.

import { isMainThread } from 'node:worker_threads';
import {
  DEFAULT_RENDER_TIMEOUT_MS,
  DEFAULT_SLICE_MS,
  drawsEveryLabel,
  isPrinterLanguage,
  OUTPUT_TYPES,
  renderBudgetMs,
  type RenderHooks,
  type RenderRequest,
  type RenderResult,
  type Rotation,
} from './api.js';
import { encodePdf } from './encoders/pdf.js';
import { encodeVectorPdf } from './encoders/pdf-vector.js';
import { encodeSheets } from './encoders/pdf-sheet.js';
import { encodePngSteps } from './encoders/png.js';
import { bitonalDots, PRINT_JOB_ENCODERS, type LabelDots } from './encoders/printer-jobs/index.js';
import { renderDataOutput } from './outputs/index.js';
import { rotateClockwise } from './encoders/rotate.js';
import { withOmitted } from './diagnostics.js';
import { RenderError } from './errors.js';
import { checkIndex, dotsPerInch, labelDots, openDocumentSteps, requestMeter } from './layout/document.js';
import { finishSliced, pauseIfDue } from './steps.js';
import type { WorkMeter } from './work-meter.js';
import type { DisplayList, OutputKind } from './display/display-list.js';
import type { Raster } from './raster/raster.js';
import { paintRowsSteps, paintSteps } from './raster/paint.js';
import { settle, UPRIGHT } from './raster/row-order.js';
import { borrowInk, returnInk, trimInk } from './raster/scratch.js';

export { DEFAULT_MAX_LABELS, DEFAULT_MAX_PIXELS, dotsPerInch, labelDots } from './layout/document.js';

/**
 * Renders a document. `hooks.admit` runs between interpreting and drawing (the caller reserves pages there);
 * `hooks.checkpoint` between labels and fields (the caller stops a cancelled or overdue render there).
 */
export async function render(
  zpl: Uint8Array | string,
  req: RenderRequest,
  hooks: RenderHooks = {},
): Promise<RenderResult> {
  try {
    return await renderDocument(zpl, req, hooks);
  } finally {
    trimInk();
  }
}

async function renderDocument(zpl: Uint8Array | string, req: RenderRequest, hooks: RenderHooks): Promise<RenderResult> {
  // One meter for the whole request, started now: its deadline is the render pool's, wherever this runs.
  const meter = requestMeter(req, hooks.checkpoint, hooks.sliceMs ?? (isMainThread ? DEFAULT_SLICE_MS : undefined));
  if (req.format === 'json' || req.format === 'zpl') return renderDataOutput(zpl, req, hooks, meter);
  hooks.started?.();
  const widthDots = Math.max(1, labelDots(req.widthIn, req.dpmm));
  const heightDots = Math.max(1, labelDots(req.heightIn, req.dpmm));
  const pixels = widthDots * heightDots;
  // One label's raster at a time (PNG, raster PDF, print job, or a vector page too full of XOR painted as pixels), its
  // encoding rows and a turned copy are claimed before interpreting.
  const rotation = req.rotation ?? 0;
  const turned = (req.format === 'png' || isPrinterLanguage(req.format)) && rotation !== 0;
  // Only vector pages draw glyph curves: a PNG or raster PDF is laid out without them.
  const output: OutputKind = req.format === 'pdf' && req.pdf !== 'raster' ? 'vector' : 'raster';
  const doc = await finishSliced(
    openDocumentSteps(
      zpl,
      { ...req, output },
      {
        reserveBytes: { bytes: pixels * (turned ? 3 : 2) + heightDots, what: `A ${widthDots}x${heightDots} dot label` },
        meter,
      },
    ),
    meter,
  );
  const all = drawsEveryLabel(req);
  if (all && doc.totalCount === 0) throw new RenderError('no-labels', 'no labels generated');
  if (!all) checkIndex(req.index ?? 0, doc.totalCount);
  meter.checkpoint();
  const pages = all ? doc.totalCount : 1;
  await hooks.admit?.({ totalCount: doc.totalCount, pages });
  extendForPages(meter, req, pages);

  // Each label drawn for a raster PDF or a print job: painted (charged per element), then encoded (charged here).
  const draw = async (i: number): Promise<Raster> => {
    meter.charge(pixels);
    const list = await finishSliced(doc.labelSteps(i), meter);
    await pauseIfDue(meter);
    return finishSliced(paintSteps(list, borrowInk(pixels), meter), meter);
  };
  const result = (body: Uint8Array, contentType: RenderResult['contentType'], pages: number): RenderResult => ({
    body,
    contentType,
    totalCount: doc.totalCount,
    pages,
    warnings: doc.plan.log.entries,
    ...withOmitted(doc.plan.log),
    unsupported: doc.unsupported(),
  });

  if (req.format === 'pdf') {
    const indices = all ? Array.from({ length: doc.totalCount }, (_, i) => i) : [req.index!];
    const widthPt = req.widthIn * 72,
      heightPt = req.heightIn * 72;
    const dotPt = 72 / dotsPerInch(req.dpmm);
    const lists = (): AsyncGenerator<DisplayList> =>
      each(indices, async (i) => metered(await finishSliced(doc.labelSteps(i), meter), meter), meter);
    const body = req.page
      ? await encodeSheets(lists(), req.page, {
          labelWidthPt: widthPt,
          labelHeightPt: heightPt,
          dotPt,
          mode: req.pdf ?? 'vector',
        })
      : req.pdf === 'raster'
        ? await encodePdf(eachRaster(indices, draw), widthPt, heightPt)
        : await encodeVectorPdf(lists(), { widthPt, heightPt, dotPt });
    return result(body, 'application/pdf', indices.length);
  }
  if (isPrinterLanguage(req.format)) {
    const indices = all ? Array.from({ length: doc.totalCount }, (_, i) => i) : [req.index ?? 0];
    // The job describes the label as printed: turned a quarter, its width and height trade places.
    const quarter = rotation === 90 || rotation === 270;
    const body = await PRINT_JOB_ENCODERS[req.format](eachLabelDots(indices, draw, rotation), {
      dpmm: req.dpmm,
      widthIn: quarter ? req.heightIn : req.widthIn,
      heightIn: quarter ? req.widthIn : req.heightIn,
    });
    return result(body, OUTPUT_TYPES[req.format].mediaType, indices.length);
  }
  // ^PM Y and ^PO I are left to the 8-bit encoder, which reads the rows in that order; a turned label settles first.
  const list = await finishSliced(doc.labelSteps(req.index ?? 0), meter);
  await pauseIfDue(meter);
  const { raster, order } = await finishSliced(paintRowsSteps(list, borrowInk(pixels), meter), meter);
  try {
    await pauseIfDue(meter);
    const bitonal = req.quality === 'bitonal';
    // The encoding share of what was reserved before interpreting goes to the encoder, which claims what it holds,
    // charges its pass row by row, and may pause between rows.
    meter.release(pixels + heightDots);
    const encoding =
      rotation === 0
        ? encodePngSteps(raster, bitonal, order, meter)
        : encodePngSteps(rotateClockwise(settle(raster, order), rotation), bitonal, UPRIGHT, meter);
    return result(await finishSliced(encoding, meter), 'image/png', 1);
  } finally {
    returnInk(raster.ink);
  }
}

/** A page of a PDF charged before its encoder walks it: each element's work, about. */
function metered(list: DisplayList, meter: WorkMeter): DisplayList {
  meter.charge(list.elements.length * ELEMENT_UNITS);
  return list;
}

/** What encoding one display element charges (a PDF operator string or two). */
const ELEMENT_UNITS = 256;

/** A document drawing many pages gets the time the render pool gives it (renderBudgetMs), once their count is known. */
export function extendForPages(meter: WorkMeter, req: RenderRequest, pages: number): void {
  if (pages <= 1) return;
  const base = req.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  meter.setTimeout(renderBudgetMs(base, req.pageTimeoutMs ?? base / 10, pages));
}

/** Lays out labels one at a time as the PDF encoder asks for them, so only one is alive at once. */
async function* each<T>(
  indices: readonly number[],
  make: (i: number) => Promise<T>,
  meter: WorkMeter,
): AsyncGenerator<T> {
  for (const i of indices) {
    await pauseIfDue(meter);
    yield await make(i);
  }
}

/**
 * A print job's labels as bitonal dots, turned as a PNG is, drawn one at a time as the encoder asks for them (each
 * raster's pixels go back for reuse once its dots are taken).
 */
async function* eachLabelDots(
  indices: readonly number[],
  draw: (i: number) => Promise<Raster>,
  rotation: Rotation,
): AsyncGenerator<LabelDots> {
  for (const i of indices) {
    const raster = await draw(i);
    let dots: LabelDots;
    try {
      dots = bitonalDots(rotateClockwise(raster, rotation));
    } finally {
      returnInk(raster.ink);
    }
    yield dots;
  }
}

/**
 * Draws labels one at a time as the PDF encoder asks for them; each raster's pixels go back for reuse when the
 * encoder asks for the next (it has encoded this one by then).
 */
async function* eachRaster(indices: readonly number[], draw: (i: number) => Promise<Raster>): AsyncGenerator<Raster> {
  for (const i of indices) {
    const raster = await draw(i);
    try {
      yield raster;
    } finally {
      returnInk(raster.ink);
    }
  }
}
