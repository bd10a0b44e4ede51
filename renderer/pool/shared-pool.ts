// The renderer routers use when none is given: one worker pool per process (per thread count and time
// budget), shared by every router that asks for the same. A router leases it: the pool starts on the
// lease's first render (importing the package or creating a router starts no threads) and stops when the
// last lease that used it is released.

import { RenderError } from '../errors.js';
import {
  createRenderPool,
  DEFAULT_RENDER_TIMEOUT_MS,
  type RenderFn,
  type RenderPool,
  type RenderPoolStats,
} from './render-pool.js';

export interface SharedRendererOptions {
  /** Worker threads (default: one per core); 0 renders on the calling thread, stopped at the same time budget. */
  threads?: number;
  /** Time budget of one render (default 10 s). */
  timeoutMs?: number;
}

interface SharedPool {
  pool: RenderPool;
  /** Who rendered on it and has not let go yet: leases, or PERMANENT for sharedRenderer(). */
  holders: Set<object>;
}

const pools = new Map<string, SharedPool>();
const renderers = new Map<string, RenderFn>();
const PERMANENT = {};

function poolKey(options: SharedRendererOptions): string {
  return `${options.threads ?? 'cores'}/${options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS}`;
}

/**
 * Rendering on this thread (threads: 0): the renderer is loaded on the first call, so a process whose workers render
 * never loads it. Its meter stops it at the pool's deadline; between interpreting and drawing it gives the event loop a
 * turn (health checks, other sockets) before drawing.
 */
const renderInline =
  (timeoutMs: number | undefined): RenderFn =>
  async (zpl, req, hooks = {}) =>
    (await import('../render.js')).render(zpl, timeoutMs === undefined ? req : { timeoutMs, ...req }, {
      ...hooks,
      admit: async (plan) => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await hooks.admit?.(plan);
      },
    });

function acquire(key: string, options: SharedRendererOptions, holder: object): RenderPool {
  let shared = pools.get(key);
  if (!shared) {
    shared = { pool: createRenderPool(options), holders: new Set() };
    pools.set(key, shared);
  }
  shared.holders.add(holder);
  return shared.pool;
}

export interface RendererLease {
  render: RenderFn;
  /** Stops using the pool; the last holder to let go stops its workers (after running renders). */
  release(): Promise<void>;
}

/** The shared renderer for `options`, started on first use; after release() renders fail as shutting down. */
export function leaseSharedRenderer(options: SharedRendererOptions = {}): RendererLease {
  if (options.threads === 0) return { render: renderInline(options.timeoutMs), release: async () => {} };
  const key = poolKey(options);
  const holder = {};
  let released = false;
  return {
    render: async (zpl, req, hooks) => {
      if (released) throw new RenderError('failed', 'The renderer is shutting down');
      return acquire(key, options, holder).render(zpl, req, hooks);
    },
    release: async () => {
      released = true;
      const shared = pools.get(key);
      if (!shared?.holders.delete(holder) || shared.holders.size > 0) return;
      pools.delete(key);
      await shared.pool.close();
    },
  };
}

/** A process-wide renderer that is never released (its workers start now); closeSharedRenderPools() stops it. */
export function sharedRenderer(options: SharedRendererOptions = {}): RenderFn {
  if (options.threads === 0) return renderInline(options.timeoutMs);
  const key = poolKey(options);
  acquire(key, options, PERMANENT); // workers start loading the renderer now, not on the first request
  let renderer = renderers.get(key);
  if (!renderer) {
    // Looks the pool up per call: after closeSharedRenderPools() the next render starts a fresh pool.
    renderer = (zpl, req, hooks) => acquire(key, options, PERMANENT).render(zpl, req, hooks);
    renderers.set(key, renderer);
  }
  return renderer;
}

/** Waits for running renders, then stops every shared pool's workers, leased or not (tests). */
export async function closeSharedRenderPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.pool.close()));
}

/** The shared pools together (threads, busy and queued renders, workers replaced, queue bound), for health and metrics. */
export function sharedRenderPoolStats(): RenderPoolStats {
  const total: RenderPoolStats = { threads: 0, busy: 0, queued: 0, recycled: 0, queueLimit: 0 };
  for (const { pool } of pools.values()) {
    const s = pool.stats();
    total.threads += s.threads;
    total.busy += s.busy;
    total.queued += s.queued;
    total.recycled += s.recycled;
    total.queueLimit += s.queueLimit;
  }
  // No pool started yet (workers start on the first render): nothing can be refused.
  if (pools.size === 0) total.queueLimit = Infinity;
  return total;
}
