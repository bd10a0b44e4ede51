// A whole document laid out on demand: size and label-count limits checked once, then any printed
// label (^PQ copies included) as a display list. render() and layout() share it.

import type { Dpmm, RenderClock, RenderLimits } from '../api.js';
import { labelDots } from './dots.js';
import { ordinal, RenderError } from '../errors.js';
import { interpretSteps, type DocumentPlan } from '../interpreter.js';
import { finish, type Steps } from '../steps.js';
import { WorkMeter } from '../work-meter.js';
import type { LabelPlan } from '../model.js';
import type { DisplayList, OutputKind } from '../display/display-list.js';
import { layoutLabelSteps, undrawableKinds } from './layout.js';

import { DEFAULT_MAX_LABELS, DEFAULT_MAX_PIXELS } from '../api.js';

export { DEFAULT_MAX_LABELS, DEFAULT_MAX_PIXELS } from '../api.js';

export { dotsPerInch, labelDots } from './dots.js';

export interface DocumentRequest extends RenderLimits, RenderClock {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  /** The backend the labels are laid out for (default `vector`: everything any backend draws). */
  output?: OutputKind;
}

/** What a caller may add while a document is laid out. */
export interface DocumentHooks {
  /** Claimed from the document's budget before interpreting (e.g. the raster a backend will paint into). */
  reserveBytes?: { bytes: number; what: string };
  /** Called before each label and each field; throwing stops the document (cancel, time budget). */
  checkpoint?: (() => void) | undefined;
  /** The request's work meter, when the caller made it (a render meters its painting and encoding too). */
  meter?: WorkMeter;
}

/** The request's work meter: its byte budget and deadline from the request, the caller's checkpoint in it. */
export function requestMeter(req: RenderLimits, checkpoint?: () => void, sliceMs?: number): WorkMeter {
  return new WorkMeter({ maxBytes: req.maxDocumentBytes, timeoutMs: req.timeoutMs, checkpoint, sliceMs });
}

export interface LaidOutDocument {
  plan: DocumentPlan;
  /** The request's work meter (maxDocumentBytes, timeoutMs): interpreting claimed its graphics and objects here. */
  memory: WorkMeter;
  widthDots: number;
  heightDots: number;
  totalCount: number;
  /**
   * Features the picture lacks (Diagnostic.feature: unknown commands, fields of a kind without a drawer,
   * what drawers skip or approximate), as far as known: call it after the labels wanted were laid out.
   */
  unsupported(): string[];
  /** The i-th printed label's display list (0-based; the caller checks the index first), valid until the next call. */
  label(i: number): DisplayList;
  /** label() as steps: laying out may pause between fields when the meter's slice is spent. */
  labelSteps(i: number): Steps<DisplayList>;
}

/** Interprets a document and checks its limits; labels are laid out one at a time when asked for. */
export function openDocument(
  zpl: Uint8Array | string,
  req: DocumentRequest,
  hooks: DocumentHooks = {},
): LaidOutDocument {
  return finish(openDocumentSteps(zpl, req, hooks));
}

/** openDocument() as steps: interpreting may pause between commands when the meter's slice is spent. */
export function* openDocumentSteps(
  zpl: Uint8Array | string,
  req: DocumentRequest,
  hooks: DocumentHooks = {},
): Steps<LaidOutDocument> {
  const bytes = typeof zpl === 'string' ? new TextEncoder().encode(zpl) : zpl;
  const widthDots = Math.max(1, labelDots(req.widthIn, req.dpmm));
  const heightDots = Math.max(1, labelDots(req.heightIn, req.dpmm));
  const maxPixels = req.maxPixels ?? DEFAULT_MAX_PIXELS;
  if (widthDots * heightDots > maxPixels) {
    throw new RenderError(
      'too-large',
      `Label size ${widthDots}x${heightDots} dots exceeds the limit of ${maxPixels} pixels`,
    );
  }
  const memory = hooks.meter ?? requestMeter(req, hooks.checkpoint);
  if (hooks.reserveBytes) memory.claim(hooks.reserveBytes.bytes, hooks.reserveBytes.what);
  const plan = yield* interpretSteps(bytes, req.dpmm, { meter: memory, ...(req.now && { now: req.now }) });
  const maxLabels = req.maxLabels ?? DEFAULT_MAX_LABELS;
  if (plan.totalCount > maxLabels) {
    throw new RenderError(
      'too-many-labels',
      `Too many labels: the ZPL generates ${plan.totalCount} labels; the maximum is ${maxLabels}`,
    );
  }
  for (const { kind, at } of undrawableKinds(plan.labels)) {
    plan.log.add({
      byteIndex: at,
      byteSize: 0,
      command: kind,
      param: 0,
      message: `Field ${kind} is not drawn`,
      feature: kind,
    });
  }
  // Callers hold one label's display list at a time: laying out the next one gives back what the last one claimed.
  let heldByLastLabel = 0;
  // Laying out is charged by what it makes (each element and placed glyph, in bytes): a drawer that emits millions of
  // rects meets the deadline inside its field, not after it.
  const claim = (bytes: number): void => {
    memory.claim(bytes, 'The display list');
    memory.charge(bytes);
    heldByLastLabel += bytes;
  };
  const opts = {
    dpmm: req.dpmm,
    widthDots,
    heightDots,
    objects: plan.objects,
    log: plan.log,
    checkpoint: () => memory.checkpoint(),
    slices: memory,
    output: req.output,
    claim,
  };
  const labelSteps = (i: number): Steps<DisplayList> => {
    memory.checkpoint();
    memory.release(heldByLastLabel);
    heldByLastLabel = 0;
    const { label, copy } = locate(plan, i);
    return layoutLabelSteps(label, copy, opts);
  };
  return {
    plan,
    memory,
    widthDots,
    heightDots,
    totalCount: plan.totalCount,
    unsupported: () => plan.log.features(),
    label: (i) => finish(labelSteps(i)),
    labelSteps,
  };
}

/** Throws the legacy service's error for an index the document does not have. */
export function checkIndex(index: number, total: number): void {
  if (total === 0)
    throw new RenderError('no-labels', `Requested ${ordinal(index + 1)} label but ZPL generated no labels`);
  if (index >= total) {
    throw new RenderError(
      'index-out-of-range',
      `Requested ${ordinal(index + 1)} label but ZPL only generated ${total} label${total === 1 ? '' : 's'}`,
    );
  }
}

/** The plan and copy number behind the i-th printed label. */
function locate(doc: DocumentPlan, i: number): { label: LabelPlan; copy: number } {
  let rest = i;
  for (const label of doc.labels) {
    if (rest < label.copies) return { label, copy: rest };
    rest -= label.copies;
  }
  throw new RenderError('index-out-of-range', `label ${i} does not exist`);
}
