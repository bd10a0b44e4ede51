// One label rendered in process, batch after batch on request: `fork(render-batch-child.js, [<label id>])`, then
// messages { count } each answered with { cpuMs, count }: the process's CPU time (every thread, collections included)
// over `count` back-to-back renders. A server's CPU per request is the same kind of total over a count, so the two can
// be read side by side, batch by batch, while the machine's speed drifts (bench/overhead.ts).

import { render } from '../renderer/render.js';
import { COST_REQUEST, loadLabels } from './labels.js';

/** Renders before the first batch: about what each render thread of the HTTP benchmark's server gets in its warm-up. */
const WARM_UP_RENDERS = 1_000;

export interface BatchRequest {
  count: number;
}
export interface BatchResult {
  cpuMs: number;
  count: number;
}

async function main(): Promise<void> {
  const label = loadLabels('carrier').find((l) => l.id === process.argv[2]);
  if (!label) throw new Error(`no carrier label ${process.argv[2]}`);
  for (let i = 0; i < WARM_UP_RENDERS; i++) await render(label.zpl, COST_REQUEST);
  process.on('message', (msg: BatchRequest) => {
    void (async () => {
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < msg.count; i++) await render(label.zpl, COST_REQUEST);
      const cpu = process.cpuUsage(cpu0);
      process.send!({ cpuMs: (cpu.user + cpu.system) / 1000, count: msg.count } satisfies BatchResult);
    })();
  });
  process.send!({ cpuMs: 0, count: 0 } satisfies BatchResult);
}

await main();
