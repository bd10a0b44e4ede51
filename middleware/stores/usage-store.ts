// Counters behind the rate limits: fixed-window request counts and daily page allowances.

export interface UsageStore {
  /** False while the backing store is connecting or unreachable. */
  isReady(): boolean;
  /** Counts one request in `bucket` (a window that lives `windowMs`) and returns the count including it. */
  hit(bucket: string, windowMs: number): Promise<number>;
  /**
   * Takes `amount` from the allowance in `bucket` when less than `limit` is used, atomically.
   * Returns whether it was taken and the usage after the call.
   */
  take(bucket: string, amount: number, limit: number, ttlMs: number): Promise<{ taken: boolean; used: number }>;
  /**
   * A reservation against a limit shared by two counters, atomically: `used` (pages reserved or booked) and
   * `held` (requests let in whose page count is not known yet). Allowed when `used` (plus `held` when
   * `countHeld`) is below `limit`; then `usedDelta` is added to `used` and `heldDelta` to `held`.
   * Returns whether it was allowed and `used` after the call.
   */
  reserve(op: ReserveOp): Promise<{ taken: boolean; used: number }>;
  /** Adds `amount` (negative gives back) to `bucket` and returns the new usage. */
  add(bucket: string, amount: number, ttlMs: number): Promise<number>;
  /** Current usage of `bucket` (0 when unused). */
  used(bucket: string): Promise<number>;
  close(): Promise<void>;
}

export interface ReserveOp {
  used: string;
  held: string;
  usedDelta: number;
  heldDelta: number;
  limit: number;
  countHeld: boolean;
  /** Lifetime of `used` when it is new. */
  ttlMs: number;
  /** Lifetime of `held` from its last change: a hold lost with its process does not outlive it by much. */
  heldTtlMs: number;
}

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
    const held = Math.max(0, this.#current(op.held)?.count ?? 0); // a hold given back after it expired counts nothing
    if (used + (op.countHeld ? held : 0) >= op.limit) return { taken: false, used };
    if (op.heldDelta !== 0) {
      this.#bump(op.held, op.heldDelta, op.heldTtlMs);
      this.#counters.get(op.held)!.expiresAt = this.#now() + op.heldTtlMs;
    }
    return { taken: true, used: op.usedDelta !== 0 ? this.#bump(op.used, op.usedDelta, op.ttlMs) : used };
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
