// Memory check: resident set size across many in-process renders must stay flat (no leak per request).

import type { Dpmm } from '../renderer/api.js';
import { render } from '../renderer/render.js';
import { FORMATS, renderRequest } from './in-process.js';
import type { BenchLabel } from './labels.js';

export interface MemoryFigures {
  renders: number;
  seconds: number;
  startRssBytes: number;
  endRssBytes: number;
  startHeapBytes: number;
  endHeapBytes: number;
  /** RSS after each tenth of the run. */
  trace: number[];
}

const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Cycles through every label and every output format at `dpmm`; warm-up renders are not counted. */
export async function benchMemory(
  labels: readonly BenchLabel[],
  renders: number,
  dpmm: Dpmm = 8,
): Promise<MemoryFigures> {
  const one = (i: number) => {
    const label = labels[i % labels.length];
    return render(
      label.zpl,
      renderRequest(label, dpmm, FORMATS[Math.floor(i / labels.length) % FORMATS.length], { name: 'native' }),
    );
  };
  for (let i = 0; i < labels.length * FORMATS.length * 4; i++) await one(i);
  collect();
  const start = process.memoryUsage();
  const trace: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < renders; i++) {
    await one(i);
    if ((i + 1) % Math.max(1, Math.floor(renders / 10)) === 0) trace.push(process.memoryUsage.rss());
  }
  const seconds = (performance.now() - t0) / 1000;
  collect();
  const end = process.memoryUsage();
  return {
    renders,
    seconds,
    startRssBytes: start.rss,
    endRssBytes: end.rss,
    startHeapBytes: start.heapUsed + start.external,
    endHeapBytes: end.heapUsed + end.external,
    trace,
  };
}
