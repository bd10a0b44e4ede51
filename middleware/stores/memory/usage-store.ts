// Usage counters in this process: the memory backend's, and the router's when it is given none.

import type { CorrectionOp, ReserveOp, UsageStore } from '../usage-store.js';

interface Counter {
  count: number;
  expiresAt: number;
}

const SWEEP_THRESHOLD = 10_000;

/** Counters in this process only: limits hold per instance. */
export class MemoryUsageStore implements UsageStore {
  readonly #counters = new Map<string, Counter>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  isReady(): boolean {
    return true;
  }

  async hit(bucket: string, windowMs: number): Promise<number> {
    return this.#bump(bucket, 1, windowMs);
  }

  async take(bucket: string, amount: number, limit: number, ttlMs: number): Promise<{ taken: boolean; used: number }> {
    const used = this.#current(bucket)?.count ?? 0;
    if (used >= limit) return { taken: false, used };
    return { taken: true, used: this.#bump(bucket, amount, ttlMs) };
  }

  async reserve(op: ReserveOp): Promise<{ taken: boolean; used: number }> {
    const used = this.#current(op.used)?.count ?? 0;
    const held = Math.max(0, this.#current(op.held)?.count ?? 0); // add() may take a hold below 0: that counts nothing
    if (used + (op.countHeld ? held : 0) >= op.limit) return { taken: false, used };
    if (op.heldDelta !== 0) this.#hold(op.held, op.heldDelta, op.heldTtlMs);
    return { taken: true, used: op.usedDelta !== 0 ? this.#bump(op.used, op.usedDelta, op.ttlMs) : used };
  }

  async correct(op: CorrectionOp): Promise<void> {
    if (op.heldDelta !== 0) this.#hold(op.held, op.heldDelta, op.heldTtlMs);
    if (op.usedDelta !== 0) this.#bump(op.used, op.usedDelta, op.ttlMs);
  }

  /** Holds live `ttlMs` from when they start from nothing, never moved by later changes; never below 0. */
  #hold(bucket: string, delta: number, ttlMs: number): void {
    const counter = this.#current(bucket);
    if (counter && counter.count > 0) counter.count = Math.max(0, counter.count + delta);
    else this.#counters.set(bucket, { count: Math.max(0, delta), expiresAt: this.#now() + ttlMs });
  }

  async add(bucket: string, amount: number, ttlMs: number): Promise<number> {
    return this.#bump(bucket, amount, ttlMs);
  }

  async used(bucket: string): Promise<number> {
    return this.#current(bucket)?.count ?? 0;
  }

  async close(): Promise<void> {
    this.#counters.clear();
  }

  #current(bucket: string): Counter | undefined {
    const counter = this.#counters.get(bucket);
    if (counter && counter.expiresAt <= this.#now()) {
      this.#counters.delete(bucket);
      return undefined;
    }
    return counter;
  }

  #bump(bucket: string, amount: number, ttlMs: number): number {
    if (this.#counters.size >= SWEEP_THRESHOLD) this.#sweep();
    const counter = this.#current(bucket) ?? { count: 0, expiresAt: this.#now() + ttlMs };
    counter.count += amount;
    this.#counters.set(bucket, counter);
    return counter.count;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [bucket, counter] of this.#counters) if (counter.expiresAt <= now) this.#counters.delete(bucket);
  }
}
