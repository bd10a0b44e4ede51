// From a label plan to a display list: every field goes to the drawer registered for its kind, which
// records its shapes, glyph runs and images on a canvas.

import { finish, type Steps } from '../steps.js';
import type { DiagnosticLog } from '../diagnostics.js';
import { RenderError } from '../errors.js';
import { isDrawnKind } from '../commands/field-kinds.js';
import type { Field, FieldKind, LabelPlan, StoredObject } from '../model.js';
import { LayoutState, type DrawEnv, type Drawer, type DrawerTable } from '../display/drawer.js';
import { fieldData } from '../serial-number.js';
import { graphicDrawers } from '../graphics/index.js';
import { textDrawers } from '../text/index.js';
import { barcodeDrawers } from '../barcodes/index.js';
import { DisplayListBuilder } from '../display/canvas.js';
import type { DisplayList, OutputKind } from '../display/display-list.js';

/** A drawer for every kind not marked `undrawn` in field-kinds.ts: a kind without one does not compile. */
const drawers: DrawerTable<FieldKind> = {
  ...textDrawers,
  ...graphicDrawers,
  ...barcodeDrawers,
};

/**
 * The drawer of a field's kind. The table gives each kind the drawer of its own field type; across the union
 * TypeScript cannot tie `field.kind` to that parameter type, hence the one cast here.
 */
function drawerOf(field: Field): Drawer | undefined {
  return isDrawnKind(field.kind) ? (drawers[field.kind] as Drawer) : undefined;
}

/** Fields in the plan that no drawer handles yet (`undrawn` kinds): their kind as `^` + command (e.g. `^BD`) and where they start. */
export function undrawableKinds(plans: readonly LabelPlan[]): Array<{ kind: string; at: number }> {
  const out = new Map<string, number>();
  for (const p of plans)
    for (const f of p.fields) if (!drawerOf(f) && !out.has('^' + f.kind)) out.set('^' + f.kind, f.at);
  return [...out].map(([kind, at]) => ({ kind, at }));
}

/** The feature name of a field whose drawer failed: its command (text fields are ^FD). */
function fieldFeature(kind: string): string {
  return kind === 'text' ? '^FD' : '^' + kind;
}

export interface LayoutLabelOptions {
  dpmm: number;
  widthDots: number;
  heightDots: number;
  objects: ReadonlyMap<string, StoredObject>;
  log?: DiagnosticLog;
  /** The backend the list is for (default `vector`: everything any backend draws). */
  output?: OutputKind;
  /** Called before each field; throwing stops the layout (a cancelled or overdue render). */
  checkpoint?: () => void;
  /** Takes the bytes of each display-list record before it is made; throws a `memory` RenderError when spent. */
  claim?: (bytes: number) => void;
  /** Says when the work should pause for the event loop (the request's meter, read after each checkpoint). */
  slices?: { readonly sliceDue: boolean };
}

/** Lays out copy `copy` of a label. Problems in one field never stop the others. */
export function layoutLabel(plan: LabelPlan, copy: number, opts: LayoutLabelOptions): DisplayList {
  return finish(layoutLabelSteps(plan, copy, opts));
}

/** layoutLabel() as steps: it may pause between fields when `opts.slices` says the slice is spent. */
export function* layoutLabelSteps(plan: LabelPlan, copy: number, opts: LayoutLabelOptions): Steps<DisplayList> {
  const canvas = new DisplayListBuilder(opts.widthDots, opts.heightDots, {
    ...(opts.output && { output: opts.output }),
    ...(opts.claim && { claim: opts.claim }),
  });
  yield* drawFields(plan, copy, canvas, opts, false);
  // A ^PW narrower than the label is centred on it, as the legacy service places it.
  const dx = printShift(plan, opts.widthDots);
  const list: DisplayList = {
    width: opts.widthDots,
    height: opts.heightDots,
    elements: canvas.elements,
    mirror: plan.mirror,
    invert: plan.invert,
  };
  // ...and draws no ink outside it.
  if (plan.printWidth !== undefined && plan.printWidth < opts.widthDots)
    list.printArea = { x: dx, width: plan.printWidth };
  return list;
}

/** ^FM origins moved `dx` dots right. */
function shifted(origins: NonNullable<Field['origins']>, dx: number): Field['origins'] {
  return origins.map((o) => o && { x: o.x + dx, y: o.y });
}

/** Columns a ^PW narrower than the label moves its fields right by (a density conversion places bitmaps by it). */
export function printShift(plan: Pick<LabelPlan, 'printWidth'>, widthDots: number): number {
  return plan.printWidth !== undefined && plan.printWidth < widthDots
    ? Math.floor((widthDots - plan.printWidth) / 2)
    : 0;
}

/**
 * Draws copy `copy` of a label's fields, over the image ^MCN kept of the label before (`under`: that image, whose
 * diagnostics its own layout gave already).
 */
function* drawFields(
  plan: LabelPlan,
  copy: number,
  canvas: DisplayListBuilder,
  opts: LayoutLabelOptions,
  under: boolean,
): Steps<void> {
  if (plan.background) yield* drawFields(plan.background.label, plan.background.copy, canvas, opts, true);
  const log = under ? undefined : opts.log;
  const env: DrawEnv = {
    dpmm: opts.dpmm,
    widthDots: opts.widthDots,
    heightDots: opts.heightDots,
    objects: opts.objects,
    log,
    copy,
    state: new LayoutState(),
  };
  const dx = printShift(plan, opts.widthDots);
  for (const placed of plan.fields) {
    opts.checkpoint?.();
    if (opts.slices?.sliceDue) yield;
    const draw = drawerOf(placed);
    if (!draw) continue;
    // Drawers see the copy's own data (^SN/^SF), so none of them needs to know about serialisation.
    const field =
      dx || placed.serial
        ? {
            ...placed,
            x: placed.x + dx,
            data: fieldData(placed, copy),
            ...(placed.origins && { origins: shifted(placed.origins, dx) }),
          }
        : placed;
    if (copy === 0 && (field.x >= opts.widthDots || field.y >= opts.heightDots)) {
      log?.add({
        byteIndex: field.at,
        byteSize: 0,
        command: '',
        param: 0,
        message: `Field at ${field.x},${field.y} is outside the ${opts.widthDots}x${opts.heightDots} label`,
      });
    }
    canvas.span = { start: field.at, end: field.end };
    const before = canvas.elements.length;
    try {
      draw(field, env, canvas);
      // ^FV data is cleared after printing: the kept image loses its ink, the layout state it left stays.
      if (under && placed.variable) canvas.elements.length = before;
    } catch (e) {
      if (stopsDocument(e)) throw e;
      canvas.elements.length = before; // a field that fails draws nothing, not half of itself
      log?.add({
        byteIndex: field.at,
        byteSize: 0,
        command: '',
        param: 0,
        message: `Field not drawn: ${(e as Error).message}`,
        feature: fieldFeature(placed.kind),
      });
    }
  }
}

/** A memory budget spent, a cancel or a time budget is the document's end, not one field's failure. */
function stopsDocument(e: unknown): boolean {
  return e instanceof RenderError && (e.code === 'memory' || e.code === 'cancelled' || e.code === 'timeout');
}
