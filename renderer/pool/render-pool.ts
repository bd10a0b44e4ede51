// Renders in worker threads so a slow or hostile label neither blocks the event loop nor outlives its
// time budget. Requests wait in a fair, bounded queue (per tenant, round robin) for a free thread; the time
// budget counts rendering only, queueing has its own bound. A cancelled or overdue render stops itself at
// its next checkpoint; a worker that does not reach one within a grace period is terminated and replaced.

import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { RenderHooks, RenderPlan, RenderRequest, RenderResult } from '../api.js';
import type { FieldBoxes, LayoutOptions } from '../layout/inspect.js';
import { RenderError } from '../errors.js';
import { labelDots } from '../layout/dots.js';
import { FairQueue } from './fair-queue.js';
import {
  CONTROL_STOP, errorFromWire, PAGES_WITH_OWN_BUDGET, renderBudgetMs, STOP, type AdmitAnswer, type AdmitAsk, type FieldBoxesReply, type PoolTask,
  type RenderReply, type RenderTask, type WireRequest,
} from './wire.js';

/** Time one render may take, from the moment a worker starts it. */
export const DEFAULT_RENDER_TIMEOUT_MS = 10_000;
/** Renders that may wait for a thread, all tenants together. */
export const DEFAULT_QUEUE_LIMIT = 128;
/** How long past its budget (or its cancellation) a render may run before its worker is terminated. */
const STOP_GRACE_MS = 1_000;

export type RenderFn = (zpl: Uint8Array | string, req: RenderRequest, hooks?: RenderHooks) => Promise<RenderResult>;

/** `fieldBoxes()` on a worker, queued fairly like a render: `signal` cancels it, `tenant` is its fair-scheduling key. */
export type PoolFieldBoxesFn = (zpl: Uint8Array | string, req: LayoutOptions & { signal?: AbortSignal; tenant?: string }) => Promise<FieldBoxes>;

/** Labels up to this many pixels (4x6 in at 12 dpmm is 2.2 million), one at a time, may use the express threads. */
export const EXPRESS_MAX_PIXELS = 3_000_000;
/**
 * ...and documents of up to this many bytes (carrier labels are 2-10 KB): 1 MiB of QR codes on a 4x6 label takes
 * seconds, and in the express lane it kept small labels of other keys waiting for a worker.
 */
export const EXPRESS_MAX_BYTES = 32 * 1024;

/** One label, small in pixels and in ZPL: it may take an express thread. */
function isSmall(zpl: Uint8Array | string, label: { dpmm: RenderRequest['dpmm']; widthIn: number; heightIn: number }): boolean {
  return zpl.length <= EXPRESS_MAX_BYTES && labelDots(label.widthIn, label.dpmm) * labelDots(label.heightIn, label.dpmm) <= EXPRESS_MAX_PIXELS;
}

export interface RenderPoolOptions {
  /** Worker threads for any render (default: one per core). */
  threads?: number;
  /**
   * More threads for small renders only (one label of up to EXPRESS_MAX_PIXELS from up to EXPRESS_MAX_BYTES of ZPL), default 1: small labels
   * are not stuck behind big documents filling every other thread.
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

const WORKER_URL = new URL('./render-worker.js', import.meta.url).href;

// Piscina require()s the task file before it falls back to import(). On Node 20.19+ that require() of our
// ES module graph can leave it half-loaded, and the import() that follows then trips a Node internal
// assertion that takes the whole process down (seen when a worker was stopped while loading). With
// require(esm) off in the workers, require() fails at once and cleanly, and Piscina import()s the file.
// Only this flag: given execArgv replaces what workers inherit, and the parent's V8 and process flags
// (--max-old-space-size, --expose-gc, --title...) would make every worker fail to start.
const REQUIRE_ESM_OFF = '--no-experimental-require-module';
const WORKER_EXEC_ARGV = process.allowedNodeEnvironmentFlags.has(REQUIRE_ESM_OFF) ? [REQUIRE_ESM_OFF] : undefined;

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const generalThreads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const expressThreads = Math.max(0, Math.floor(options.expressThreads ?? 1));
  const threads = generalThreads + expressThreads;
  const timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const pageTimeoutMs = options.pageTimeoutMs ?? timeoutMs / 10;
  const queueLimit = Math.max(0, Math.floor(options.queueLimit ?? DEFAULT_QUEUE_LIMIT));
  const piscina = new Piscina<PoolTask, RenderReply | FieldBoxesReply>({
    filename: WORKER_URL,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // Workers wait for tasks on their event loop, not blocked in Atomics.wait, so their idle memory check runs.
    atomics: 'disabled',
    ...(WORKER_EXEC_ARGV && { execArgv: WORKER_EXEC_ARGV }),
    closeTimeout: timeoutMs + STOP_GRACE_MS,
    ...(options.resourceLimits && { resourceLimits: options.resourceLimits }),
  });
  // Piscina reports a close that outlived closeTimeout as an 'error' event; without a listener that would throw.
  piscina.on('error', () => {});
  let closing: Promise<void> | undefined;
  let recycled = 0;
  piscina.on('workerDestroy', () => { if (!closing) recycled++; });
  const queue = new FairQueue({
    slots: generalThreads, expressSlots: expressThreads, maxQueued: queueLimit, maxWaitMs: options.queueTimeoutMs ?? timeoutMs,
  });

  /**
   * One task on a worker; `release` frees its slot once the worker is free (or replaced). Cancelling stops it at
   * its next checkpoint; past `budgetMs` plus a grace period (or the grace after a cancel) its worker is terminated.
   */
  const runOnWorker = <T>(job: WorkerJob<T>, signal: AbortSignal | undefined, release: () => void): Promise<T> => new Promise((resolve, reject) => {
    if (closing) { // queued before close(): its turn came after
      release();
      reject(new RenderError('failed', 'The renderer is shutting down'));
      return;
    }
    const control = new SharedArrayBuffer(4);
    const hardStop = new AbortController();
    let backstop: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      settle();
    };
    const onAbort = (): void => {
      Atomics.store(new Int32Array(control), CONTROL_STOP, STOP.cancelled);
      clearTimeout(backstop);
      backstop = setTimeout(() => hardStop.abort(), STOP_GRACE_MS);
      finish(() => reject(new RenderError('cancelled', 'The request was cancelled while rendering')));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    backstop = setTimeout(() => hardStop.abort(), job.budgetMs + STOP_GRACE_MS);
    job.run(control, hardStop.signal).then(
      (value) => finish(() => resolve(value)),
      (err: unknown) => finish(() => reject(err instanceof PoolReplyError ? err.error : workerFailure(err, hardStop.signal.aborted, job.budgetMs))),
    ).finally(() => {
      clearTimeout(backstop);
      signal?.removeEventListener('abort', onAbort);
      release();
    });
  });

  /** Posts the task `make` makes; again, once (made anew), when its worker retired (exited between tasks) before taking it. */
  const post = <R>(make: () => { task: PoolTask; transferList?: MessagePort[]; asked?: () => boolean }, hardStop: AbortSignal, retries = 1): Promise<R> => {
    const { task, transferList, asked } = make();
    return (piscina.run(task, { signal: hardStop, ...(transferList && { transferList }) }) as Promise<R>).catch((err: unknown) => {
      const retired = !hardStop.aborted && !asked?.() && /^worker exited with code: 0$/.test(String((err as Error)?.message));
      if (retired && retries > 0 && !closing) return post<R>(make, hardStop, retries - 1);
      throw err;
    });
  };

  /** A render: its PDF budget allows every page, and the worker asks `hooks.admit` over a port between interpreting and drawing. */
  const renderJob = (zpl: Uint8Array | string, req: WireRequest, hooks: RenderHooks): WorkerJob<RenderResult> => ({
    // Past its budget the worker stops itself at a checkpoint; the backstop only catches one stuck between
    // checkpoints, so it allows the most pages the request may have.
    budgetMs: req.format === 'pdf' && req.index === undefined ? renderBudgetMs(timeoutMs, pageTimeoutMs, PAGES_WITH_OWN_BUDGET) : timeoutMs,
    run: async (control, hardStop) => {
      let admission: ReturnType<typeof admitOverPort> | undefined;
      try {
        const reply = await post<RenderReply>(() => {
          admission?.close();
          admission = hooks.admit ? admitOverPort(hooks.admit) : undefined;
          const task: RenderTask = {
            kind: 'render', zpl, req, control, budgetMs: timeoutMs, pageBudgetMs: pageTimeoutMs, ...(admission && { admitPort: admission.workerPort }),
          };
          return { task, ...(admission && { transferList: [admission.workerPort], asked: admission.asked }) };
        }, hardStop);
        if (reply.ok) {
          const { body, ...rest } = reply.result;
          return { ...rest, body: new Uint8Array(body) };
        }
        // A refused admission ends the render with the caller's own error.
        throw new PoolReplyError(admission?.refusal() ?? errorFromWire(reply.error));
      } finally {
        admission?.close();
      }
    },
  });

  const fieldBoxesJob = (zpl: Uint8Array | string, req: LayoutOptions): WorkerJob<FieldBoxes> => ({
    budgetMs: timeoutMs,
    run: async (control, hardStop) => {
      const reply = await post<FieldBoxesReply>(() => ({ task: { kind: 'fieldBoxes', zpl, req, control, budgetMs: timeoutMs } }), hardStop);
      if (reply.ok) return reply.boxes;
      throw new PoolReplyError(errorFromWire(reply.error));
    },
  });

  const render: RenderFn = async (zpl, req, hooks = {}) => {
    if (closing) throw new RenderError('failed', 'The renderer is shutting down');
    const { signal, tenant, ...wireReq } = req;
    const small = !(req.format === 'pdf' && req.index === undefined) && isSmall(zpl, req);
    return queue.run(tenant ?? '', signal, (release) => {
      hooks.started?.();
      return runOnWorker(renderJob(zpl, wireReq, hooks), signal, release);
    }, small);
  };

  const fieldBoxes: PoolFieldBoxesFn = async (zpl, req) => {
    if (closing) throw new RenderError('failed', 'The renderer is shutting down');
    const { signal, tenant, ...options } = req;
    return queue.run(tenant ?? '', signal, (release) => runOnWorker(fieldBoxesJob(zpl, options), signal, release), isSmall(zpl, req));
  };

  return {
    render,
    fieldBoxes,
    threads,
    timeoutMs,
    get recycled() { return recycled; },
    stats: () => {
      const { running, queued } = queue.stats();
      return { threads, busy: running, queued, recycled, queueLimit };
    },
    close: () => (closing ??= piscina.close()),
  };
}

/** A task for runOnWorker: its backstop budget, and posting it to a worker (settling with its result or error). */
interface WorkerJob<T> {
  budgetMs: number;
  run(control: SharedArrayBuffer, hardStop: AbortSignal): Promise<T>;
}

/** A worker's own answer (a render error, a refused admission): passed to the caller as it is, never as a worker failure. */
class PoolReplyError {
  constructor(readonly error: unknown) {}
}

/** The calling side of the worker's admission question: runs `admit` and answers; remembers a refusal. */
function admitOverPort(admit: (plan: RenderPlan) => Promise<void> | void): {
  workerPort: MessagePort; asked: () => boolean; refusal: () => unknown; close: () => void;
} {
  const { port1, port2 } = new MessageChannel();
  let refused: { error: unknown } | undefined;
  let asked = false;
  port1.on('message', (ask: AdmitAsk) => {
    asked = true;
    Promise.resolve().then(() => admit(ask.plan)).then(
      () => port1.postMessage({ admitted: true } satisfies AdmitAnswer),
      (error: unknown) => {
        refused = { error };
        port1.postMessage({ admitted: false } satisfies AdmitAnswer);
      },
    );
  });
  return { workerPort: port2, asked: () => asked, refusal: () => refused?.error, close: () => port1.close() };
}

/** A rejection from the pool itself (never a render's own error: those come back as replies). */
function workerFailure(err: unknown, stopped: boolean, timeoutMs: number): Error {
  if (stopped) return new RenderError('timeout', `Rendering took longer than ${timeoutMs} ms and was stopped`);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new RenderError('memory', 'Rendering ran out of memory');
  if ((err as Error | null)?.name === 'AbortError' || /Terminating worker thread/.test(String((err as Error)?.message))) {
    return new RenderError('failed', 'The renderer is shutting down');
  }
  return err instanceof Error ? err : new Error(String(err));
}
