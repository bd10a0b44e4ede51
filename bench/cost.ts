// What a label costs and where: CPU per render next to the zlib floor of the label's own PNG rows (zlib's run-length
// deflate of the Up-filtered rows, what any zlib-based encoder pays), the phase split (interpret, layout, paint,
// encode), and, given the dist/ of another build (`--baseline=DIR`), the same renders through it interleaved with
// ours, label by label, so load changes hit both alike.

import { constants, deflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import type { RenderRequest } from '../renderer/api.js';
import { encodePng } from '../renderer/encoders/png.js';
import { greyRows } from '../renderer/encoders/png-rows.js';
import { openDocument } from '../renderer/layout/document.js';
import { paintRows } from '../renderer/raster/paint.js';
import { settle } from '../renderer/raster/row-order.js';
import { render } from '../renderer/render.js';
import type { BenchLabel } from './labels.js';
import { median } from './stats.js';

type RenderFn = (zpl: Uint8Array, req: RenderRequest) => Promise<{ body: Uint8Array }>;

/** Renders of every label, by each build, before any is measured. */
const WARM_UP_PASSES = 30;

export const UPS_4X6: Omit<RenderRequest, 'index'> & { index: number } = { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 };

/** CPU ms of one call (process CPU time: user + system). */
function cpuOf(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

async function cpuOfAsync(f: () => Promise<unknown>): Promise<number> {
  const t = process.cpuUsage();
  await f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

export interface LabelCost {
  id: string;
  /** Median CPU ms of a whole render (ours), and of the baseline build's when given. */
  renderMs: number;
  baselineMs?: number;
  /** Median CPU ms of zlib deflateSync (Z_RLE) over the label's filtered rows. */
  floorMs: number;
  phases: { interpret: number; layout: number; paint: number; encode: number };
  bytes: number;
  baselineBytes?: number;
}

/** Loads `render` from another build's dist/ (its renderer/render.js). */
export async function loadBaseline(dir: string): Promise<RenderFn> {
  const mod = await import(pathToFileURL(join(resolve(dir), 'renderer', 'render.js')).href) as { render: RenderFn };
  return mod.render;
}

/** The cost of each label at 4x6 in, 8 dpmm, 8-bit PNG: `rounds` renders each, interleaved with the baseline's. */
export async function benchCost(labels: readonly BenchLabel[], rounds: number, baseline?: RenderFn): Promise<LabelCost[]> {
  const req = UPS_4X6;
  const out: LabelCost[] = [];
  // Warm-up over every label first, both builds: a server renders thousands of labels, so the figures are the
  // steady state, not V8 compiling the code paths the first labels happen to reach.
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) {
    for (const label of labels) { await render(label.zpl, req); await baseline?.(label.zpl, req); }
  }
  for (const label of labels) {
    const ours: number[] = [], theirs: number[] = [], floor: number[] = [];
    const phases = { interpret: [] as number[], layout: [] as number[], paint: [] as number[], encode: [] as number[] };
    let bytes = 0, baselineBytes = 0;
    for (let i = 0; i < 3; i++) { await render(label.zpl, req); await baseline?.(label.zpl, req); } // warm-up
    for (let round = 0; round < rounds; round++) {
      ours.push(await cpuOfAsync(async () => { bytes = (await render(label.zpl, req)).body.length; }));
      if (baseline) theirs.push(await cpuOfAsync(async () => { baselineBytes = (await baseline(label.zpl, req)).body.length; }));
      // The phases one by one, as render() runs them.
      let doc: ReturnType<typeof openDocument> | undefined;
      phases.interpret.push(cpuOf(() => { doc = openDocument(label.zpl, { ...req, output: 'raster' }); }));
      let list: ReturnType<ReturnType<typeof openDocument>['label']> | undefined;
      phases.layout.push(cpuOf(() => { list = doc!.label(0); }));
      let painted: ReturnType<typeof paintRows> | undefined;
      phases.paint.push(cpuOf(() => { painted = paintRows(list!); }));
      phases.encode.push(cpuOf(() => encodePng(painted!.raster, false, painted!.order)));
      const rows = Buffer.from(greyRows(settle(painted!.raster, painted!.order)));
      floor.push(cpuOf(() => deflateSync(rows, { strategy: constants.Z_RLE })));
    }
    out.push({
      id: label.id, renderMs: median(ours), floorMs: median(floor), bytes,
      phases: { interpret: median(phases.interpret), layout: median(phases.layout), paint: median(phases.paint), encode: median(phases.encode) },
      ...(baseline && { baselineMs: median(theirs), baselineBytes }),
    });
  }
  return out;
}
