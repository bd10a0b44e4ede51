// `valgrind --tool=callgrind node dist/bench/carrier-instructions.js <dist dir> [passes]`: renders every corpus
// carrier label `passes` times (default 5) with the build in <dist dir>, so callgrind's instruction count (stable
// under load, unlike a clock) compares two builds' cost of a carrier label.

import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderHooks, RenderRequest } from '../renderer/api.js';
import { COST_REQUEST, loadLabels } from './labels.js';

type RenderFn = (zpl: Uint8Array, req: RenderRequest, hooks: RenderHooks) => Promise<{ body: Uint8Array }>;

const dist = resolve(process.argv[2] ?? 'dist');
const passes = Number(process.argv[3] ?? 5);
const { render } = (await import(pathToFileURL(join(dist, 'renderer/render.js')).href)) as { render: RenderFn };
let bytes = 0;
// No deadline: under callgrind a label takes 50 times as long (a build before the work meter ignores the field).
const req: RenderRequest = { ...COST_REQUEST, timeoutMs: Number.POSITIVE_INFINITY };
// Run through as a render thread runs it: on the main thread render() would give the event loop a turn every 10 ms,
// which under callgrind (50 times slower) is every few hundred microseconds of real work (a build before slices
// ignores the hook).
const WHOLE: RenderHooks = { sliceMs: Number.POSITIVE_INFINITY };
for (let pass = 0; pass < passes; pass++)
  for (const label of loadLabels('carrier')) bytes += (await render(label.zpl, req, WHOLE)).body.length;
console.log(`${passes} passes, ${bytes} PNG bytes`);
