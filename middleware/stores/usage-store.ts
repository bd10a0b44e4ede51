// Counters behind the rate limits: fixed-window request counts and daily page allowances. Each backend keeps them
// atomically across its instances (stores/memory, stores/redis, stores/postgres).

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
  /**
   * Applies a correction that must not be lost: a reservation given back (a render that failed, a reservation that
   * came too late) or a settlement. Never refused; when the store cannot take it now it is kept and tried again
   * until the store answers (never dropped), and applied once however often it is tried. Resolves once applied.
   * Optional: without it, the router applies corrections with reserve() and add(), once.
   */
  correct?(op: CorrectionOp): Promise<void>;
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
  /**
   * Lifetime of `held` from when it starts from nothing (new, expired or back to 0), never moved by later changes:
   * a hold lost with its process or its reply goes within this, however busy the key.
   */
  heldTtlMs: number;
}

/** A change to a page bucket and its holds that is never refused (UsageStore.correct). */
export type CorrectionOp = Pick<ReserveOp, 'used' | 'held' | 'usedDelta' | 'heldDelta' | 'ttlMs' | 'heldTtlMs'>;
