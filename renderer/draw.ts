// From a label plan to a raster: every field goes to the drawer registered for its kind.

import type { DiagnosticLog } from './diagnostics.js';
import type { DrawEnv, FieldRenderer, LabelPlan, StoredObject } from './model.js';
import { Raster } from './raster/raster.js';
import { fieldData } from './serial.js';
import { graphicRenderers } from './graphics/index.js';
import { textRenderers } from './text/index.js';
import { barcodeRenderers } from './barcodes/index.js';

const fieldRenderers: Record<string, FieldRenderer> = {
  ...textRenderers,
  ...graphicRenderers,
  ...barcodeRenderers,
};

/** Field kinds in the plan that no drawer handles yet, as `^` + command (e.g. `^BD`). */
export function undrawableKinds(plans: readonly LabelPlan[]): string[] {
  const out = new Set<string>();
  for (const p of plans) for (const f of p.fields) if (!fieldRenderers[f.kind]) out.add('^' + f.kind);
  return [...out];
}

export interface DrawOptions {
  dpmm: number;
  widthDots: number;
  heightDots: number;
  objects: ReadonlyMap<string, StoredObject>;
  log?: DiagnosticLog;
  /** Called before each field; throwing stops the drawing (a cancelled or overdue render). */
  checkpoint?: () => void;
  /** Blank pixels to draw on (`widthDots * heightDots` zeros), e.g. a reused buffer; default a fresh one. */
  blankInk?: () => Uint8Array;
}

/** Draws copy `copy` of a label. Drawing problems in one field never stop the others. */
export function drawLabel(plan: LabelPlan, copy: number, opts: DrawOptions): Raster {
  const raster = new Raster(opts.widthDots, opts.heightDots, opts.blankInk?.());
  const env: DrawEnv = { dpmm: opts.dpmm, widthDots: opts.widthDots, heightDots: opts.heightDots, objects: opts.objects, log: opts.log, copy };
  // A ^PW narrower than the label is centred on it, as the legacy service places it.
  const dx = plan.printWidth !== undefined && plan.printWidth < opts.widthDots ? Math.floor((opts.widthDots - plan.printWidth) / 2) : 0;
  for (const placed of plan.fields) {
    opts.checkpoint?.();
    const renderer = fieldRenderers[placed.kind];
    if (!renderer) continue;
    // Drawers see the copy's own data (^SN/^SF), so none of them needs to know about serialisation.
    const field = dx || placed.serial ? { ...placed, x: placed.x + dx, data: fieldData(placed, copy) } : placed;
    if (copy === 0 && (field.x >= opts.widthDots || field.y >= opts.heightDots)) {
      opts.log?.add({ byteIndex: field.at, byteSize: 0, command: '', param: 0, message: `Field at ${field.x},${field.y} is outside the ${opts.widthDots}x${opts.heightDots} label` });
    }
    try {
      for (const el of renderer(field, env)) el.draw(raster);
    } catch (e) {
      opts.log?.add({ byteIndex: field.at, byteSize: 0, command: '', param: 0, message: `Field not drawn: ${(e as Error).message}` });
    }
  }
  if (plan.mirror) mirrorInPlace(raster);
  if (plan.invert) rotate180InPlace(raster);
  return raster;
}

function mirrorInPlace(r: Raster): void {
  for (let y = 0; y < r.height; y++) r.ink.subarray(y * r.width, (y + 1) * r.width).reverse();
}

function rotate180InPlace(r: Raster): void {
  r.ink.reverse();
}
