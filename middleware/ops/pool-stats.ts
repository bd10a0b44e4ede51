// What the operations router reads of the render pool: the pool's own stats() (CONTRACTS.md), the shared pools'
// (sharedRenderPoolStats) by default; a renderer without stats gets busy workers and queue depth derived from
// the renders in flight through it.

import { sharedRenderPoolStats, type RenderPoolStats } from '../../renderer/pool/index.js';
import type { RenderFunction } from '../router/router.js';

export type { RenderPoolStats };

/** A pool with stats() (the contract), the current RenderPool (threads, recycled), or a stats function. */
export type PoolStatsSource =
  | (() => RenderPoolStats)
  | { stats(): RenderPoolStats }
  | { readonly threads: number; readonly recycled: number };

/** The source's stats; without one, the shared pools the legacy routers lease by default. */
export function readPoolStats(source: PoolStatsSource | undefined): RenderPoolStats {
  if (source === undefined) return sharedRenderPoolStats();
  if (typeof source === 'function') return source();
  if ('stats' in source && typeof source.stats === 'function') return source.stats();
  const { threads, recycled } = source as { threads: number; recycled: number };
  return { threads, busy: 0, queued: 0, recycled, queueLimit: Infinity };
}

/** Its queue is full (a pool that queues nothing is saturated once every thread is busy). */
export function isSaturated(stats: RenderPoolStats): boolean {
  return stats.threads > 0 && stats.queued >= stats.queueLimit && stats.busy >= stats.threads;
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
  const render: RenderFunction = async (zpl, req, hooks) => {
    inFlight++;
    try {
      return await target(zpl, req, hooks);
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
