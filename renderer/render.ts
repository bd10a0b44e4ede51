// ZPL bytes -> interpreter -> label plans -> raster -> PNG/PDF. The one call the HTTP layer and CLI use.

import type { Dpmm, RenderHooks, RenderRequest, RenderResult } from './api.js';
import { drawLabel, undrawableKinds } from './draw.js';
import { encodePdf } from './encoders/pdf.js';
import { encodePng } from './encoders/png.js';
import { rotateClockwise } from './encoders/rotate.js';
import { ordinal, RenderError } from './errors.js';
import { interpret, type DocumentPlan } from './interpreter.js';
import type { LabelPlan } from './model.js';
import { MemoryBudget } from './memory-budget.js';
import type { Raster } from './raster/raster.js';
import { borrowInk, returnInk, trimInk } from './raster/scratch.js';

export const DEFAULT_MAX_LABELS = 50;
/** Enough for a 15x15 inch label at 24 dpmm (9135 x 9135 dots). */
export const DEFAULT_MAX_PIXELS = 9135 * 9135;

/** Dots per inch as the legacy service computes it: floor(dpmm x 25.4). */
export function dotsPerInch(dpmm: Dpmm): number {
  return Math.floor(dpmm * 25.4);
}

/** Label size in dots: trunc(inches x dpi) per axis (4x6 at 8 dpmm = 812x1218). */
export function labelDots(inches: number, dpmm: Dpmm): number {
  return Math.floor(inches * dotsPerInch(dpmm) + 1e-9);
}

/**
 * Renders a document. `hooks.admit` runs between interpreting and drawing (the caller reserves pages there);
 * `hooks.checkpoint` between fields and labels (the caller stops a cancelled or overdue render there).
 */
export async function render(zpl: Uint8Array | string, req: RenderRequest, hooks: RenderHooks = {}): Promise<RenderResult> {
  try {
    return await renderDocument(zpl, req, hooks);
  } finally {
    trimInk();
  }
}

async function renderDocument(zpl: Uint8Array | string, req: RenderRequest, hooks: RenderHooks): Promise<RenderResult> {
  const bytes = typeof zpl === 'string' ? new TextEncoder().encode(zpl) : zpl;
  const widthDots = Math.max(1, labelDots(req.widthIn, req.dpmm));
  const heightDots = Math.max(1, labelDots(req.heightIn, req.dpmm));
  const maxPixels = req.maxPixels ?? DEFAULT_MAX_PIXELS;
  if (widthDots * heightDots > maxPixels) {
    throw new RenderError('too-large', `Label size ${widthDots}x${heightDots} dots exceeds the limit of ${maxPixels} pixels`);
  }
  // The raster (one label at a time), its encoding rows and a turned copy are claimed before interpreting.
  const memory = new MemoryBudget(req.maxDocumentBytes);
  const pixels = widthDots * heightDots;
  const turned = req.format === 'png' && (req.rotation ?? 0) !== 0;
  memory.claim(pixels * (turned ? 3 : 2) + heightDots, `A ${widthDots}x${heightDots} dot label`);
  const doc = interpret(bytes, req.dpmm, undefined, memory);
  const maxLabels = req.maxLabels ?? DEFAULT_MAX_LABELS;
  if (doc.totalCount > maxLabels) {
    throw new RenderError('too-many-labels', `Too many labels: the ZPL generates ${doc.totalCount} labels; the maximum is ${maxLabels}`);
  }
  const allLabels = req.format === 'pdf' && req.index === undefined;
  if (allLabels && doc.totalCount === 0) throw new RenderError('no-labels', 'no labels generated');
  if (!allLabels) checkIndex(req.index ?? 0, doc.totalCount);
  hooks.checkpoint?.();
  await hooks.admit?.({ totalCount: doc.totalCount, pages: allLabels ? doc.totalCount : 1 });
  const unsupported = [...new Set([...doc.unsupported, ...undrawableKinds(doc.labels)])];
  const drawOpts = {
    dpmm: req.dpmm, widthDots, heightDots, objects: doc.objects, log: doc.log, checkpoint: hooks.checkpoint,
    blankInk: () => borrowInk(pixels),
  };
  const draw = (i: number): Raster => {
    const { plan, copy } = locate(doc, i);
    return drawLabel(plan, copy, drawOpts);
  };
  const result = (body: Uint8Array, contentType: RenderResult['contentType'], pages: number): RenderResult =>
    ({ body, contentType, totalCount: doc.totalCount, pages, warnings: doc.log.entries, unsupported });

  if (allLabels) {
    const body = await encodePdf(eachLabel(doc.totalCount, draw), req.widthIn * 72, req.heightIn * 72);
    return result(body, 'application/pdf', doc.totalCount);
  }
  const raster = draw(req.index ?? 0);
  if (req.format === 'pdf') return result(await encodePdf(eachLabel(1, () => raster), req.widthIn * 72, req.heightIn * 72), 'application/pdf', 1);
  try {
    return result(encodePng(rotateClockwise(raster, req.rotation ?? 0), req.quality === 'bitonal'), 'image/png', 1);
  } finally {
    returnInk(raster.ink);
  }
}

function checkIndex(index: number, total: number): void {
  if (total === 0) throw new RenderError('no-labels', `Requested ${ordinal(index + 1)} label but ZPL generated no labels`);
  if (index >= total) {
    throw new RenderError('index-out-of-range', `Requested ${ordinal(index + 1)} label but ZPL only generated ${total} label${total === 1 ? '' : 's'}`);
  }
}

/** The plan and copy number behind the i-th printed label. */
function locate(doc: DocumentPlan, i: number): { plan: LabelPlan; copy: number } {
  let rest = i;
  for (const plan of doc.labels) {
    if (rest < plan.copies) return { plan, copy: rest };
    rest -= plan.copies;
  }
  throw new RenderError('index-out-of-range', `label ${i} does not exist`);
}

/**
 * Draws labels one at a time as the PDF encoder asks for them, so only one raster is alive at once; each
 * raster's pixels go back for reuse when the encoder asks for the next (it has encoded this one by then).
 */
function* eachLabel(total: number, draw: (i: number) => Raster): Generator<Raster> {
  for (let i = 0; i < total; i++) {
    const raster = draw(i);
    try {
      yield raster;
    } finally {
      returnInk(raster.ink);
    }
  }
}
