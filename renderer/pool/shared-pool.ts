// The renderer routers use when none is given: one worker pool per process (per thread count and time
// budget), started when the first router asks for it so importing the package starts no threads.

import { render as renderInline } from '../render.js';
import { createRenderPool, DEFAULT_RENDER_TIMEOUT_MS, type RenderFn, type RenderPool, type RenderPoolStats } from './render-pool.js';

export interface SharedRendererOptions {
  /** Worker threads (default: one per core); 0 renders on the calling thread, without a time budget. */
  threads?: number;
  /** Time budget of one render (default 10 s). */
  timeoutMs?: number;
}

const pools = new Map<string, RenderPool>();
const renderers = new Map<string, RenderFn>();

function poolFor(key: string, options: SharedRendererOptions): RenderPool {
  let pool = pools.get(key);
  if (!pool) {
    pool = createRenderPool(options);
    pools.set(key, pool);
  }
  return pool;
}

export function sharedRenderer(options: SharedRendererOptions = {}): RenderFn {
  if (options.threads === 0) return renderInline;
  const key = `${options.threads ?? 'cores'}/${options.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS}`;
  poolFor(key, options); // workers start loading the renderer now, not on the first request
  let renderer = renderers.get(key);
  if (!renderer) {
    // Looks the pool up per call: after closeSharedRenderPools() the next render starts a fresh pool.
    renderer = (zpl, req, hooks) => poolFor(key, options).render(zpl, req, hooks);
    renderers.set(key, renderer);
  }
  return renderer;
}

/** Waits for running renders, then stops every shared pool's workers (graceful shutdown, tests). */
export async function closeSharedRenderPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

/** The shared pools together (threads, busy and queued renders, workers replaced, queue bound), for health and metrics. */
export function sharedRenderPoolStats(): RenderPoolStats {
  const total: RenderPoolStats = { threads: 0, busy: 0, queued: 0, recycled: 0, queueLimit: 0 };
  for (const pool of pools.values()) {
    const s = pool.stats();
    total.threads += s.threads;
    total.busy += s.busy;
    total.queued += s.queued;
    total.recycled += s.recycled;
    total.queueLimit += s.queueLimit;
  }
  return total;
}
