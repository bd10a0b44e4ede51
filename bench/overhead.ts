// What serving a label costs beyond rendering it: the server's CPU per request at one connection next to the CPU of a
// render in process, measured in turns (a batch of renders in a process of its own, then the server for a while, then
// again), so that the machine's speed, which drifts by a third over minutes on a shared VM, moves both sides of each
// round alike. Each side is a total over a count, collections included; the figure is the median of the rounds' ratios.
// Each round also measures the floor (bench/floor-server.ts: bare node:http rendering in process), so that the ratio
// reads against what a node:http server that does nothing else costs on the same machine at the same minute.

import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureLevel, withBenchServer, type BenchServer, type BenchServerOptions } from './http.js';
import type { BenchLabel } from './labels.js';
import type { BatchRequest, BatchResult } from './render-batch-child.js';
import { median } from './stats.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHILD = join(HERE, 'render-batch-child.js');
const FLOOR_SERVER = join(HERE, 'floor-server.js');

export interface OverheadRound {
  /** Server CPU (every thread) per answered request, one keep-alive connection. */
  serverMs: number;
  /** In-process CPU (every thread) per render, over a batch of back-to-back renders. */
  renderMs: number;
  ratio: number;
  /** The floor server's CPU (every thread) per answered request, one keep-alive connection. */
  floorMs: number;
  floorRatio: number;
}

export interface Overhead {
  rounds: OverheadRound[];
  medianRatio: number;
  medianFloorRatio: number;
}

/** A process rendering `label` in batches on request (render-batch-child.ts); resolves once it is warm. */
function startRenderer(label: BenchLabel): Promise<{ batch(count: number): Promise<number>; stop(): void }> {
  const child = fork(CHILD, [label.id], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let pending: ((r: BatchResult) => void) | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`render-batch-child exited (${code})`)));
  });
  failed.catch(() => {});
  const next = (): Promise<BatchResult> =>
    Promise.race([
      new Promise<BatchResult>((resolve) => {
        pending = resolve;
      }),
      failed,
    ]);
  child.on('message', (msg: BatchResult) => {
    const p = pending;
    pending = undefined;
    p?.(msg);
  });
  const ready = next();
  return ready.then(() => ({
    async batch(count: number) {
      const result = next();
      child.send({ count } satisfies BatchRequest);
      const { cpuMs } = await result;
      return cpuMs / count;
    },
    stop() {
      child.removeAllListeners('exit');
      child.kill();
    },
  }));
}

export async function benchOverhead(
  label: BenchLabel,
  opts: BenchServerOptions & { rounds: number; seconds: number; renders: number },
): Promise<Overhead> {
  const renderer = await startRenderer(label);
  const cpuPerRequest = async (s: BenchServer): Promise<number> => {
    const { serverCpuMsPerRequest } = await measureLevel(s, 1, opts.seconds);
    if (serverCpuMsPerRequest === undefined) throw new Error("the server's CPU time cannot be read (no /proc)");
    return serverCpuMsPerRequest;
  };
  try {
    const rounds = await withBenchServer(label, { ...opts, serverScript: FLOOR_SERVER }, (floor) =>
      withBenchServer(label, opts, async (server) => {
        const out: OverheadRound[] = [];
        for (let i = 0; i < opts.rounds; i++) {
          const renderMs = await renderer.batch(opts.renders);
          const serverMs = await cpuPerRequest(server);
          const floorMs = await cpuPerRequest(floor);
          out.push({ serverMs, renderMs, ratio: serverMs / renderMs, floorMs, floorRatio: floorMs / renderMs });
        }
        return out;
      }),
    );
    return {
      rounds,
      medianRatio: median(rounds.map((r) => r.ratio)),
      medianFloorRatio: median(rounds.map((r) => r.floorRatio)),
    };
  } finally {
    renderer.stop();
  }
}
