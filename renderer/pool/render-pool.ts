// Renders in worker threads so a slow or hostile label neither blocks the event loop nor outlives its
// time budget: past the budget the request fails with RenderError('timeout') and its worker is replaced.

import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { RenderRequest, RenderResult } from '../api.js';
import { RenderError } from '../errors.js';
import { errorFromWire, type RenderReply, type RenderTask } from './wire.js';

/** Time one request may take, waiting for a worker included. */
export const DEFAULT_RENDER_TIMEOUT_MS = 10_000;

export type RenderFn = (zpl: Uint8Array | string, req: RenderRequest) => Promise<RenderResult>;

export interface RenderPoolOptions {
  /** Worker threads (default: one per core). */
  threads?: number;
  /** Milliseconds a request may take before it fails with a `timeout` RenderError (default 10 s). */
  timeoutMs?: number;
  /** V8 heap limits of each worker; a render past them fails instead of taking the process down. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

export interface RenderPool {
  /** Same contract as `render()` from renderer/render.ts. */
  render: RenderFn;
  readonly threads: number;
  readonly timeoutMs: number;
  /** Workers replaced so far: stopped past their time budget, or crashed. */
  readonly recycled: number;
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
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const timeoutMs = options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const piscina = new Piscina<RenderTask, RenderReply>({
    filename: WORKER_URL,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    ...(WORKER_EXEC_ARGV && { execArgv: WORKER_EXEC_ARGV }),
    closeTimeout: timeoutMs + 1000,
    ...(options.resourceLimits && { resourceLimits: options.resourceLimits }),
  });
  // Piscina reports a close that outlived closeTimeout as an 'error' event; without a listener that would throw.
  piscina.on('error', () => {});
  let closing: Promise<void> | undefined;
  let recycled = 0;
  piscina.on('workerDestroy', () => { if (!closing) recycled++; });

  const render: RenderFn = async (zpl, req) => {
    if (closing) throw new RenderError('failed', 'The renderer is shutting down');
    // Piscina aborts a queued task by dropping it and a running one by terminating its worker.
    const signal = AbortSignal.timeout(timeoutMs);
    let reply: RenderReply;
    try {
      reply = await piscina.run({ zpl, req }, { signal });
    } catch (err) {
      throw workerFailure(err, signal.aborted, timeoutMs);
    }
    if (!reply.ok) throw errorFromWire(reply.error);
    const { body, ...rest } = reply.result;
    return { ...rest, body: Buffer.from(body) };
  };

  return {
    render,
    threads,
    timeoutMs,
    get recycled() { return recycled; },
    close: () => (closing ??= piscina.close()),
  };
}

/** A rejection from the pool itself (never a render's own error: those come back as replies). */
function workerFailure(err: unknown, timedOut: boolean, timeoutMs: number): Error {
  if (timedOut) return new RenderError('timeout', `Rendering took longer than ${timeoutMs} ms and was stopped`);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new RenderError('failed', 'Rendering ran out of memory');
  if ((err as Error | null)?.name === 'AbortError' || /Terminating worker thread/.test(String((err as Error)?.message))) {
    return new RenderError('failed', 'The renderer is shutting down');
  }
  return err instanceof Error ? err : new Error(String(err));
}
