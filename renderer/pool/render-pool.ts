// Renders in worker threads so a slow or hostile label neither blocks the event loop nor outlives its
// time budget. Requests wait in a fair, bounded queue (per tenant, round robin) for a free thread; the time
// budget counts rendering only, queueing has its own bound. A cancelled or overdue render stops itself at
// its next checkpoint; a worker that does not reach one within a grace period is terminated and replaced.

import { availableParallelism } from 'node:os';
import {
  DEFAULT_RENDER_TIMEOUT_MS,
  drawsEveryLabel,
  type RenderHooks,
  type RenderPlan,
  type RenderRequest,
  type RenderResult,
} from '../api.js';
import type { FieldBoxes, LayoutOptions } from '../layout/inspect.js';
import { RenderError } from '../errors.js';
import { checkEstimate, estimateCost } from '../cost-estimate.js';
import { FairQueue } from './fair-queue.js';
import {
  errorFromWire,
  PAGES_WITH_OWN_BUDGET,
  renderBudgetMs,
  type FieldBoxesReply,
  type PoolTask,
  type RenderReply,
  type WireRequest,
} from './wire.js';
import { WorkerGone, WorkerSet, type TaskCall } from './worker-set.js';

export { DEFAULT_RENDER_TIMEOUT_MS } from '../api.js';
/** Renders that may wait for a thread, all tenants together. */
export const DEFAULT_QUEUE_LIMIT = 128;
/** How long past its budget (or its cancellation) a render may run before its worker is terminated. */
const STOP_GRACE_MS = 1_000;

export type RenderFn = (zpl: Uint8Array | string, req: RenderRequest, hooks?: RenderHooks) => Promise<RenderResult>;

/** `fieldBoxes()` on a worker, queued fairly like a render: `signal` cancels it, `tenant` is its fair-scheduling key. */
export type PoolFieldBoxesFn = (
  zpl: Uint8Array | string,
  req: LayoutOptions & { signal?: AbortSignal; tenant?: string },
) => Promise<FieldBoxes>;

export { EXPRESS_MAX_BYTES, EXPRESS_MAX_PIXELS } from '../cost-estimate.js';

export interface RenderPoolOptions {
  /** Worker threads for any render (default: one per core). */
  threads?: number;
  /**
   * More threads for small renders only (one label of up to EXPRESS_MAX_PIXELS from up to EXPRESS_MAX_BYTES of ZPL), default 1: small labels
   * are not stuck behind big documents filling every other thread. They take small labels only while big ones hold every other thread.
   */
  expressThreads?: number;
  /** Milliseconds a render may take once started before it fails with a `timeout` RenderError (default 10 s). */
  timeoutMs?: number;
  /** Milliseconds each page after the first of a PDF of up to 50 pages adds to its budget (default timeoutMs / 10). */
  pageTimeoutMs?: number;
  /** Renders that may wait for a thread (default 128); more are refused at once with `overloaded`. */
  queueLimit?: number;
  /** Milliseconds a render may wait for a thread before it is refused with `overloaded` (default: timeoutMs). */
  queueTimeoutMs?: number;
  /** V8 heap limits of each worker; a render past them fails instead of taking the process down. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

/** What the pool is doing now (for health checks and metrics); saturated when queued >= queueLimit. */
export interface RenderPoolStats {
  threads: number;
  busy: number;
  queued: number;
  recycled: number;
  queueLimit: number;
}

export interface RenderPool {
  /** Same contract as `render()` from renderer/render.ts, plus queueing: `req.tenant`, `req.signal`. */
  render: RenderFn;
  /** Same contract as `fieldBoxes()` from renderer/layout/inspect.ts, with a render's queue, time budget and cancellation. */
  fieldBoxes: PoolFieldBoxesFn;
  readonly threads: number;
  readonly timeoutMs: number;
  /** Workers replaced so far: stopped past their time budget, retired for memory, or crashed. */
  readonly recycled: number;
  stats(): RenderPoolStats;
  /** Lets running renders finish (each within its budget), then stops the workers. Idempotent. */
  close(): Promise<void>;
}

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const generalThreads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const expressThreads = Math.max(0, Math.floor(options.expressThreads ?? 1));
  const threads = generalThreads + expressThreads;
  const timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const pageTimeoutMs = options.pageTimeoutMs ?? timeoutMs / 10;
  const queueLimit = Math.max(0, Math.floor(options.queueLimit ?? DEFAULT_QUEUE_LIMIT));
  let closing: Promise<void> | undefined;
  let recycled = 0;
  const workers = new WorkerSet({
    threads,
    ...(options.resourceLimits && { resourceLimits: options.resourceLimits }),
    onReplaced: () => {
      recycled++;
    },
  });
  const queue = new FairQueue({
    slots: generalThreads,
    expressSlots: expressThreads,
    maxQueued: queueLimit,
    maxWaitMs: options.queueTimeoutMs ?? timeoutMs,
  });

  /**
   * One task on a worker; `release` frees its slot once the worker is free (or replaced). Cancelling stops it at
   * its next checkpoint; past `budgetMs` plus a grace period (or the grace after a cancel) its worker is terminated.
   */
  const runOnWorker = <T>(job: WorkerJob<T>, signal: AbortSignal | undefined, release: () => void): Promise<T> =>
    new Promise((resolve, reject) => {
      if (closing) {
        // queued before close(): its turn came after
        release();
        reject(new RenderError('failed', 'The renderer is shutting down'));
        return;
      }
      const attempt: Attempt = { stopped: false };
      const hardStop = (): void => {
        attempt.stopped = true;
        attempt.call?.stop();
      };
      let backstop: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        settle();
      };
      const onAbort = (): void => {
        attempt.call?.cancel();
        clearTimeout(backstop);
        backstop = setTimeout(hardStop, STOP_GRACE_MS);
        finish(() => reject(new RenderError('cancelled', 'The request was cancelled while rendering')));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      backstop = setTimeout(hardStop, job.budgetMs + STOP_GRACE_MS);
      job
        .run(attempt)
        .then(
          (value) => finish(() => resolve(value)),
          (err: unknown) =>
            finish(() => reject(err instanceof PoolReplyError ? err.error : workerFailure(err, job.budgetMs))),
        )
        .finally(() => {
          clearTimeout(backstop);
          signal?.removeEventListener('abort', onAbort);
          release();
        });
    });

  /** Posts `task`; again, once, when its worker retired (exited between tasks) before taking it. */
  const post = async <R>(task: PoolTask, attempt: Attempt, admit?: (plan: RenderPlan) => Promise<void>): Promise<R> => {
    for (let retries = 1; ; retries--) {
      attempt.call = workers.post(task, admit);
      try {
        return (await attempt.call.reply) as R;
      } catch (err) {
        if (err instanceof WorkerGone && err.unstarted && !attempt.stopped && retries > 0 && !closing) continue;
        throw err;
      }
    }
  };

  /** A render: its PDF budget allows every page, and the worker asks `hooks.admit` between interpreting and drawing. */
  const renderJob = (zpl: Uint8Array | string, req: WireRequest, hooks: RenderHooks): WorkerJob<RenderResult> => ({
    // Past its budget the worker stops itself at a checkpoint; the backstop only catches one stuck between
    // checkpoints, so it allows the most pages the request may have.
    budgetMs: drawsEveryLabel(req) ? renderBudgetMs(timeoutMs, pageTimeoutMs, PAGES_WITH_OWN_BUDGET) : timeoutMs,
    run: async (attempt) => {
      // A refused admission ends the render with the caller's own error.
      let refusal: { error: unknown } | undefined;
      const admit =
        hooks.admit &&
        (async (plan: RenderPlan): Promise<void> => {
          try {
            await hooks.admit!(plan);
          } catch (error) {
            refusal = { error };
            throw error;
          }
        });
      const task: PoolTask = {
        kind: 'render',
        zpl,
        req,
        budgetMs: timeoutMs,
        pageBudgetMs: pageTimeoutMs,
        admits: admit !== undefined,
      };
      const reply = await post<RenderReply>(task, attempt, admit);
      if (reply.ok) {
        const { body, ...rest } = reply.result;
        return { ...rest, body: new Uint8Array(body) };
      }
      throw new PoolReplyError(refusal ? refusal.error : errorFromWire(reply.error));
    },
  });

  const fieldBoxesJob = (zpl: Uint8Array | string, req: LayoutOptions): WorkerJob<FieldBoxes> => ({
    budgetMs: timeoutMs,
    run: async (attempt) => {
      const reply = await post<FieldBoxesReply>({ kind: 'fieldBoxes', zpl, req, budgetMs: timeoutMs }, attempt);
      if (reply.ok) return reply.boxes;
      throw new PoolReplyError(errorFromWire(reply.error));
    },
  });

  const render: RenderFn = async (zpl, req, hooks = {}) => {
    if (closing) throw new RenderError('failed', 'The renderer is shutting down');
    const { signal, tenant, ...wireReq } = req;
    // Known before any work: a request over a budget is refused without a thread, and only small work goes express.
    const estimate = estimateCost(zpl, req);
    checkEstimate(estimate, req);
    const small = estimate.small;
    return queue.run(
      tenant ?? '',
      signal,
      (release) => {
        hooks.started?.();
        return runOnWorker(renderJob(zpl, wireReq, hooks), signal, release);
      },
      small,
    );
  };

  const fieldBoxes: PoolFieldBoxesFn = async (zpl, req) => {
    if (closing) throw new RenderError('failed', 'The renderer is shutting down');
    const { signal, tenant, ...options } = req;
    return queue.run(
      tenant ?? '',
      signal,
      (release) => runOnWorker(fieldBoxesJob(zpl, options), signal, release),
      estimateCost(zpl, { ...req, format: 'png', index: 0 }).small,
    );
  };

  return {
    render,
    fieldBoxes,
    threads,
    timeoutMs,
    get recycled() {
      return recycled;
    },
    stats: () => {
      const { running, queued } = queue.stats();
      return { threads, busy: running, queued, recycled, queueLimit };
    },
    close: () => (closing ??= workers.close()),
  };
}

/** One task's way through the workers: the call posted last (a retry posts anew), and whether it was hard-stopped. */
interface Attempt {
  call?: TaskCall;
  stopped: boolean;
}

/** A task for runOnWorker: its backstop budget, and posting it to a worker (settling with its result or error). */
interface WorkerJob<T> {
  budgetMs: number;
  run(attempt: Attempt): Promise<T>;
}

/** A worker's own answer (a render error, a refused admission): passed to the caller as it is, never as a worker failure. */
class PoolReplyError {
  constructor(readonly error: unknown) {}
}

/** A task whose worker went away before answering: stopped past its budget, out of memory, crashed or retired. */
function workerFailure(err: unknown, timeoutMs: number): Error {
  if (!(err instanceof WorkerGone)) return err instanceof Error ? err : new Error(String(err));
  if (err.stopped) return new RenderError('timeout', `Rendering took longer than ${timeoutMs} ms and was stopped`);
  if ((err.error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new RenderError('memory', 'Rendering ran out of memory');
  return err.error instanceof Error ? err.error : err;
}
