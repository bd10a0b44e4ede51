// One render pool for the fuzz, regression and load suites (a worker takes seconds to load the renderer,
// so suites share it); closed after the whole run.

import { availableParallelism } from 'node:os';
import { createRenderPool, type RenderPool } from '../../renderer/pool/index.js';

/** Generous: a bound against hangs, not a speed test (the machine may be busy with other suites). */
export const FUZZ_TIME_BUDGET_MS = Number(process.env.FUZZ_TIMEOUT_MS) || 15_000;

let pool: RenderPool | undefined;

export function fuzzPool(): RenderPool {
  pool ??= createRenderPool({ threads: availableParallelism(), timeoutMs: FUZZ_TIME_BUDGET_MS });
  return pool;
}

after(async () => {
  const p = pool;
  pool = undefined;
  await p?.close();
});
