// Worker-thread entry of the render pool: one task at a time from the calling thread (a render, or one label's
// field boxes), answered with one reply; a render's PNG/PDF body is copied, never transferred: detaching one
// ArrayBuffer turns off V8's detach protector for the thread for good, and every typed-array loop of the renderer
// then checks for detached buffers (deflate and blits ran 12-22 % slower than in process).
// The render stops itself at its next checkpoint when the caller cancels or its time budget is spent, so
// the worker survives; the pool terminates it only when a checkpoint is not reached in time.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderHooks, RenderPlan } from '../api.js';
import { MAX_REUSED_ROWS_BYTES } from '../encoders/png.js';
import { RenderError } from '../errors.js';
import { OUTLINE_CACHE_BYTES } from '../fonts/face.js';
import { fieldBoxes } from '../layout/inspect.js';
import { GLYPH_CACHE_BYTES } from '../raster/glyph-mask.js';
import { MAX_KEPT_INK_BYTES } from '../raster/scratch.js';
import { render } from '../render.js';
import {
  CONTROL_STOP,
  errorToWire,
  ownBuffer,
  STOP,
  type FieldBoxesReply,
  type FieldBoxesTask,
  type FromWorker,
  type PoolTask,
  type RenderReply,
  type RenderTask,
  renderBudgetMs,
  type ToWorker,
  type WorkerData,
} from './wire.js';

/** Idle this long after a task, the worker looks at its memory (big renders leave big garbage behind). */
const IDLE_CHECK_MS = 1_000;
/**
 * Heap and array buffers above this when idle (what big renders leave behind) are collected at once, so RSS comes
 * back. Below it is what a worker keeps on purpose: glyph masks, placed outlines, the spare raster and the PNG row
 * buffer, each bounded, plus about 32 MB of code and heap. Collecting those bought nothing back (they stay
 * referenced) and cost the next burst: a forced collection drops compiled code and shrinks the young generation,
 * and a worker idle for a second took 200 ms longer over its next few labels.
 */
const COLLECT_ABOVE_BYTES =
  GLYPH_CACHE_BYTES + OUTLINE_CACHE_BYTES + MAX_KEPT_INK_BYTES + MAX_REUSED_ROWS_BYTES + 32 * 1024 * 1024;
/** Still above this a while after collecting: the worker exits and the pool starts a fresh one. */
const RETIRE_ABOVE_BYTES = 256 * 1024 * 1024;

const port = parentPort!;
const control = new Int32Array((workerData as WorkerData).control);
let idleCheck: NodeJS.Timeout | undefined;
let running = 0;
/** The running render's wait for the caller's admission (one task at a time). */
let awaitingAdmission: ((admitted: boolean) => void) | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'admitted') {
    const answer = awaitingAdmission;
    awaitingAdmission = undefined;
    answer?.(message.admitted);
    return;
  }
  void runTask(message.task).then((reply) => port.postMessage({ type: 'reply', reply } satisfies FromWorker));
});
port.postMessage({ type: 'ready' } satisfies FromWorker);

async function runTask(task: PoolTask): Promise<RenderReply | FieldBoxesReply> {
  clearTimeout(idleCheck);
  running++;
  try {
    return task.kind === 'fieldBoxes' ? fieldBoxesOne(task) : await renderOne(task);
  } finally {
    running--;
    if (running === 0) idleCheck = setTimeout(checkMemoryWhenIdle, IDLE_CHECK_MS);
  }
}

/** Throws at a checkpoint once the caller has cancelled or the budget (read at each call) is spent. */
function stopCheck(budgetMs: () => number): () => void {
  const started = performance.now();
  return () => {
    if (Atomics.load(control, CONTROL_STOP) === STOP.cancelled)
      throw new RenderError('cancelled', 'The request was cancelled while rendering');
    const budget = budgetMs();
    if (performance.now() - started > budget)
      throw new RenderError('timeout', `Rendering took longer than ${budget} ms and was stopped`);
  };
}

function fieldBoxesOne(task: FieldBoxesTask): FieldBoxesReply {
  try {
    // The pool's budget is the layout's deadline too (the meter would otherwise stop it at the default 10 s).
    const req = { ...task.req, timeoutMs: task.budgetMs };
    return { ok: true, boxes: fieldBoxes(task.zpl, req, { checkpoint: stopCheck(() => task.budgetMs) }) };
  } catch (err) {
    return { ok: false, error: errorToWire(err) };
  }
}

async function renderOne(task: RenderTask): Promise<RenderReply> {
  let budgetMs = task.budgetMs;
  const hooks: RenderHooks = {
    checkpoint: stopCheck(() => budgetMs),
    admit: async (plan) => {
      budgetMs = renderBudgetMs(task.budgetMs, task.pageBudgetMs, plan.pages);
      if (task.admits) await askAdmission(plan);
    },
  };
  try {
    // The render's own meter reads the same deadline as this thread's checkpoint (the pool's budget, per page too).
    const req = { ...task.req, timeoutMs: task.budgetMs, pageTimeoutMs: task.pageBudgetMs };
    const { body, ...rest } = await render(task.zpl, req, hooks);
    return { ok: true, result: { ...rest, body: ownBuffer(body) } };
  } catch (err) {
    return { ok: false, error: errorToWire(err) };
  }
}

/** Asks the calling thread to admit the plan and waits for its answer; a refusal stops the render. */
function askAdmission(plan: RenderPlan): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    awaitingAdmission = (admitted) => {
      if (admitted) resolve();
      else reject(new RenderError('cancelled', 'The caller did not admit the render'));
    };
    port.postMessage({ type: 'admit', plan } satisfies FromWorker);
  });
}

/** This thread's V8 heap and array buffers (process.memoryUsage() counts those per thread; rss is the process's). */
function heldBytes(): number {
  const { heapTotal, arrayBuffers } = process.memoryUsage();
  return heapTotal + arrayBuffers;
}

/** V8's collector on demand (the flag is set at run time; workers cannot be started with --expose-gc). */
const collect = ((): (() => void) | undefined => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

/** Collects when idle and holding much; retires when still holding too much once freed buffers are counted out. */
function checkMemoryWhenIdle(collected = false): void {
  if (running > 0) return;
  if (!collected) {
    if (heldBytes() <= COLLECT_ABOVE_BYTES) return;
    collect?.();
    // Freed array buffers leave the count a moment after the collection.
    idleCheck = setTimeout(() => checkMemoryWhenIdle(true), IDLE_CHECK_MS);
    return;
  }
  // Only between tasks: a task sent meanwhile has not started, and the pool sends it again to another worker.
  if (heldBytes() > RETIRE_ABOVE_BYTES) process.exit(0);
}
