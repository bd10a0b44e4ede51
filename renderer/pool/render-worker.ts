// Worker-thread entry of the render pool: one render per task, the PNG/PDF body transferred, not copied.
// The render stops itself at its next checkpoint when the caller cancels or its time budget is spent, so
// the worker survives; the pool terminates it only when a checkpoint is not reached in time.

import { getHeapStatistics } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { RenderHooks, RenderPlan } from '../api.js';
import { RenderError } from '../errors.js';
import { render } from '../render.js';
import {
  CONTROL_STOP, errorToWire, ownBuffer, STOP, type AdmitAnswer, type AdmitAsk, type RenderReply, type RenderTask, type WorkerHealth,
  renderBudgetMs,
} from './wire.js';

/** A worker whose heap (with array buffers) stays above this after a task asks to be replaced, so RSS comes back. */
export const RETIRE_HEAP_BYTES = Number(process.env.ZPL_WORKER_RETIRE_MB ?? 384) * 1024 * 1024;

export default async function renderTask(task: RenderTask): Promise<unknown> {
  const control = new Int32Array(task.control);
  let budgetMs = task.budgetMs;
  const started = performance.now();
  const ask = task.admitPort && askAdmission(task.admitPort);
  const hooks: RenderHooks = {
    checkpoint: () => {
      if (Atomics.load(control, CONTROL_STOP) === STOP.cancelled) throw new RenderError('cancelled', 'The request was cancelled while rendering');
      if (performance.now() - started > budgetMs) throw new RenderError('timeout', `Rendering took longer than ${budgetMs} ms and was stopped`);
    },
    admit: async (plan) => {
      budgetMs = renderBudgetMs(task.budgetMs, task.pageBudgetMs, plan.pages);
      await ask?.(plan);
    },
  };
  try {
    const { body, ...rest } = await render(task.zpl, task.req, hooks);
    const buffer = ownBuffer(body);
    const reply: RenderReply = { ok: true, result: { ...rest, body: buffer }, worker: health() };
    // Piscina posts `valueSymbol` with everything under `transferableSymbol` in the transfer list.
    return move({ [transferableSymbol]: [buffer], [valueSymbol]: reply });
  } catch (err) {
    const reply: RenderReply = { ok: false, error: errorToWire(err), worker: health() };
    return reply;
  } finally {
    task.admitPort?.close();
  }
}

/** Asks the calling thread to admit the plan and waits for its answer; a refusal stops the render. */
function askAdmission(port: MessagePort): (plan: RenderPlan) => Promise<void> {
  return (plan) => new Promise<void>((resolve, reject) => {
    port.once('message', (answer: AdmitAnswer) => {
      if (answer.admitted) resolve();
      else reject(new RenderError('cancelled', 'The caller did not admit the render'));
    });
    port.postMessage({ plan } satisfies AdmitAsk);
  });
}

function health(): WorkerHealth {
  const heap = getHeapStatistics();
  const heapBytes = heap.used_heap_size + heap.external_memory;
  return { retire: heapBytes > RETIRE_HEAP_BYTES, heapBytes };
}
