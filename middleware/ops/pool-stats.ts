// What the operations router reads of the render pool. The pool's own stats() (CONTRACTS.md) is used when it
// has one; until then busy workers and queue depth are derived from the renders in flight through it.

import type { RenderFunction } from '../router.js';

export interface RenderPoolStats {
  threads: number;
  busy: number;
  queued: number;
  recycled: number;
  /** Queued renders at which the pool refuses more (Infinity: never). */
  queueLimit: number;
}

/** A pool with stats() (the contract), the current RenderPool (threads, recycled), or a stats function. */
export type PoolStatsSource =
  | (() => RenderPoolStats)
  | { stats(): RenderPoolStats }
  | { readonly threads: number; readonly recycled: number };

export function readPoolStats(source: PoolStatsSource | undefined): RenderPoolStats {
  if (source === undefined) return { threads: 0, busy: 0, queued: 0, recycled: 0, queueLimit: Infinity };
  if (typeof source === 'function') return source();
  if ('stats' in source && typeof source.stats === 'function') return source.stats();
  const { threads, recycled } = source as { threads: number; recycled: number };
  return { threads, busy: 0, queued: 0, recycled, queueLimit: Infinity };
}

export function isSaturated(stats: RenderPoolStats): boolean {
  return stats.queued >= stats.queueLimit;
}

/**
 * A pool's render function that counts the renders in flight, and the pool's stats: its own stats() when it
 * has one, else busy = min(in flight, threads) and queued = the rest (a pool that is not there has 0 threads).
 */
export function observedRenderer(
  pool: { render: RenderFunction; threads: number; recycled: number; stats?: () => RenderPoolStats } | undefined,
  inline: RenderFunction,
): { render: RenderFunction; stats(): RenderPoolStats } {
  let inFlight = 0;
  const target = pool?.render ?? inline;
  const render: RenderFunction = async (zpl, req) => {
    inFlight++;
    try {
      return await target(zpl, req);
    } finally {
      inFlight--;
    }
  };
  const stats = (): RenderPoolStats => {
    if (pool?.stats) return pool.stats();
    const threads = pool?.threads ?? 0;
    return {
      threads,
      busy: Math.min(inFlight, threads),
      queued: Math.max(0, inFlight - threads),
      recycled: pool?.recycled ?? 0,
      queueLimit: Infinity,
    };
  };
  return { render, stats };
}
