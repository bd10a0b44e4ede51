// One label rendered in process, batch after batch on request: `fork(render-batch-child.js, [<label id>])`, then
// messages { count } each answered with { cpuMs, count }: the process's CPU time (every thread, collections included)
// over `count` back-to-back renders. A server's CPU per request is the same kind of total over a count, so the two can
// be read side by side, batch by batch, while the machine's speed drifts (bench/overhead.ts).

import { render } from '../renderer/render.js';
import type { RenderRequest } from '../renderer/api.js';
import { loadLabels } from './labels.js';

/** 4x6 in, 8 dpmm, 8-bit PNG: what the HTTP benchmark asks the server for. */
const REQUEST: RenderRequest = { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 };

/** Renders before the first batch: about what each render thread of the HTTP benchmark's server gets in its warm-up. */
const WARM_UP_RENDERS = 1_000;

export interface BatchRequest { count: number }
export interface BatchResult { cpuMs: number; count: number }

async function main(): Promise<void> {
  const label = loadLabels('carrier').find((l) => l.id === process.argv[2]);
  if (!label) throw new Error(`no carrier label ${process.argv[2]}`);
  for (let i = 0; i < WARM_UP_RENDERS; i++) await render(label.zpl, REQUEST);
  process.on('message', (msg: BatchRequest) => {
    void (async () => {
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < msg.count; i++) await render(label.zpl, REQUEST);
      const cpu = process.cpuUsage(cpu0);
      process.send!({ cpuMs: (cpu.user + cpu.system) / 1000, count: msg.count } satisfies BatchResult);
    })();
  });
  process.send!({ cpuMs: 0, count: 0 } satisfies BatchResult);
}

await main();
