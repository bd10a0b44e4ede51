// One build's cost per label, measured in a process of its own: `node cost-child.js <dist dir> <rounds> [--phases]`
// prints JSON (CostSamples[]). Two builds in one process share V8's type feedback for the builtins and modules both
// call (from one node_modules, the same bwip-js and fontkit): loaded beside another build, ours rendered the UPS
// label in 6.4-6.6 ms against 2.5 ms alone. So each build gets a process; bench/cost.ts alternates them.

import { constants, deflateSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderRequest } from '../renderer/api.js';
import { COST_REQUEST, loadLabels } from './labels.js';
import { timed } from './stats.js';

type RenderFn = (zpl: Uint8Array, req: RenderRequest) => Promise<{ body: Uint8Array }>;

/** Renders of every label before any is measured: the steady state of a server, not V8 compiling the first labels. */
const WARM_UP_PASSES = 30;

/** The raw samples of one label (CPU ms), for the parent to pool across processes. */
export interface CostSamples {
  id: string;
  bytes: number;
  renderMs: number[];
  /** With --phases (this build's own internals): each phase of render() on its own, and zlib's floor for its rows. */
  phases?: { interpret: number[]; layout: number[]; paint: number[]; encode: number[] };
  floorMs?: number[];
}

/** CPU ms of one call (process CPU time: user + system). */
function cpuOf(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

const load = async <T>(dist: string, path: string): Promise<T> =>
  (await import(pathToFileURL(join(dist, path)).href)) as T;

/** The phase functions of the build in `dist`, as render() runs them (only our own build is asked for these). */
async function phaseRunner(dist: string) {
  const { openDocument } = await load<typeof import('../renderer/layout/document.js')>(
    dist,
    'renderer/layout/document.js',
  );
  const { paintRows } = await load<typeof import('../renderer/raster/paint.js')>(dist, 'renderer/raster/paint.js');
  const { encodePng } = await load<typeof import('../renderer/encoders/png.js')>(dist, 'renderer/encoders/png.js');
  const { greyRows } = await load<typeof import('../renderer/encoders/png-rows.js')>(
    dist,
    'renderer/encoders/png-rows.js',
  );
  const { settle } = await load<typeof import('../renderer/raster/row-order.js')>(dist, 'renderer/raster/row-order.js');
  const { borrowInk, returnInk } = await load<typeof import('../renderer/raster/scratch.js')>(
    dist,
    'renderer/raster/scratch.js',
  );
  return (zpl: Uint8Array) => {
    let doc: ReturnType<typeof openDocument> | undefined;
    const interpret = cpuOf(() => {
      doc = openDocument(zpl, { ...COST_REQUEST, output: 'raster' });
    });
    let list: ReturnType<ReturnType<typeof openDocument>['label']> | undefined;
    const layout = cpuOf(() => {
      list = doc!.label(0);
    });
    let painted: ReturnType<typeof paintRows> | undefined;
    // On the thread's reused pixel buffer, as render() paints.
    const paint = cpuOf(() => {
      painted = paintRows(list!, borrowInk(list!.width * list!.height));
    });
    const encode = cpuOf(() => encodePng(painted!.raster, false, painted!.order));
    const rows = Buffer.from(greyRows(settle(painted!.raster, painted!.order)));
    returnInk(painted!.raster.ink);
    const floor = cpuOf(() => deflateSync(rows, { strategy: constants.Z_RLE }));
    return { interpret, layout, paint, encode, floor };
  };
}

async function main(): Promise<void> {
  const [distArg, roundsArg] = process.argv.slice(2);
  const dist = resolve(distArg!);
  const rounds = Number(roundsArg);
  const withPhases = process.argv.includes('--phases');
  const { render } = await load<{ render: RenderFn }>(dist, 'renderer/render.js');
  const phasesOf = withPhases ? await phaseRunner(dist) : undefined;
  const labels = loadLabels('carrier');
  for (let pass = 0; pass < WARM_UP_PASSES; pass++) for (const label of labels) await render(label.zpl, COST_REQUEST);
  const out: CostSamples[] = [];
  for (const label of labels) {
    const s: CostSamples = { id: label.id, bytes: 0, renderMs: [] };
    if (phasesOf) {
      s.phases = { interpret: [], layout: [], paint: [], encode: [] };
      s.floorMs = [];
    }
    for (let i = 0; i < 3; i++) await render(label.zpl, COST_REQUEST); // this label's own paths, warm
    for (let round = 0; round < rounds; round++) {
      const { value, cpuMs } = await timed(() => render(label.zpl, COST_REQUEST));
      s.renderMs.push(cpuMs);
      s.bytes = value.body.length;
    }
    // The phases after the whole renders, so that a baseline's process (whole renders only) measures the same way.
    for (let round = 0; phasesOf && round < rounds; round++) {
      const p = phasesOf(label.zpl);
      s.phases!.interpret.push(p.interpret);
      s.phases!.layout.push(p.layout);
      s.phases!.paint.push(p.paint);
      s.phases!.encode.push(p.encode);
      s.floorMs!.push(p.floor);
    }
    out.push(s);
  }
  process.stdout.write(JSON.stringify(out));
}

await main();
