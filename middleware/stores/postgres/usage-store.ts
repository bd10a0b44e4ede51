// Counters in PostgreSQL, shared by every instance on the same database and namespace: each update is one
// call of a function of schema.ts (an upsert, or the reservation), so concurrent requests never lose an increment
// and a limit is never passed by two requests that each saw room. Expired windows are deleted by sweep().

import { CorrectionQueue } from '../correction-queue.js';
import type { CorrectionOp, ReserveOp, UsageStore } from '../usage-store.js';
import type { PostgresConnection } from './connection.js';

/** How often expired counters are deleted (each instance sweeps; a sweep is one indexed DELETE). */
export const COUNTER_SWEEP_MS = 60_000;
/** Rows one sweep deletes at most, so a sweep after a long pause never holds locks for long. */
const SWEEP_BATCH = 10_000;

export interface PostgresUsageStoreOptions {
  /** The clock of expiries, in ms (default: the database's, so instances with skewed clocks agree). */
  now?: () => number;
  /** Sweep expired counters every this many ms (default COUNTER_SWEEP_MS; 0: only when sweep() is called). */
  sweepMs?: number;
  /** Told when a correction fails while the database answers otherwise (it is tried again). */
  log?: (message: string) => void;
}

export class PostgresUsageStore implements UsageStore {
  readonly #connection: PostgresConnection;
  readonly #now: (() => number) | undefined;
  readonly #sweeper: NodeJS.Timeout | undefined;
  readonly #add: string;
  readonly #reserve: string;
  readonly #used: string;
  readonly #sweep: string;
  readonly #sweepCorrections: string;
  readonly #correct: string;
  /** Corrections not yet applied: applied whenever the database answers (and at each (re)connection), once each. */
  readonly #corrections: CorrectionQueue;

  constructor(connection: PostgresConnection, options: PostgresUsageStoreOptions = {}) {
    this.#connection = connection;
    this.#now = options.now;
    const { counters, reserve, add, correct, corrections } = connection.names;
    this.#correct = `SELECT ${correct}($1, $2, $3, $4, $5, $6, $7, $8) AS applied`;
    this.#add = `SELECT ${add}($1, $2, $3, $4) AS count`;
    this.#reserve = `SELECT taken, used FROM ${reserve}($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
    // The clock given, else the database's ($n is null).
    const now = (n: number): string =>
      `COALESCE($${n}::bigint, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint)`;
    this.#used = `SELECT count FROM ${counters} WHERE bucket = $1 AND expires_at > ${now(2)}`;
    this.#sweep = `DELETE FROM ${counters} WHERE bucket IN (SELECT bucket FROM ${counters} WHERE expires_at <= ${now(1)} LIMIT ${SWEEP_BATCH})`;
    this.#sweepCorrections = `DELETE FROM ${corrections} WHERE id IN (SELECT id FROM ${corrections} WHERE expires_at <= ${now(1)} LIMIT ${SWEEP_BATCH})`;
    this.#corrections = new CorrectionQueue({
      apply: (id, op) =>
        connection.query(
          this.#correct,
          [
            id,
            op.used,
            op.held,
            Math.trunc(op.usedDelta),
            Math.trunc(op.heldDelta),
            Math.ceil(op.ttlMs),
            Math.ceil(op.heldTtlMs),
            this.#clock(),
          ],
          'usage store',
        ),
      isReady: connection.isReady,
      onReady: (listener) => connection.onReady(listener),
      ...(options.log && { log: options.log }),
    });
    const every = options.sweepMs ?? COUNTER_SWEEP_MS;
    if (every > 0) {
      this.#sweeper = setInterval(() => {
        if (connection.isReady()) this.sweep().catch(() => undefined); // the next sweep tries again
      }, every);
      this.#sweeper.unref();
    }
  }

  isReady(): boolean {
    return this.#connection.isReady();
  }

  hit(bucket: string, windowMs: number): Promise<number> {
    return this.add(bucket, 1, windowMs);
  }

  take(bucket: string, amount: number, limit: number, ttlMs: number): Promise<{ taken: boolean; used: number }> {
    return this.reserve({
      used: bucket,
      held: bucket,
      usedDelta: amount,
      heldDelta: 0,
      limit,
      countHeld: false,
      ttlMs,
      heldTtlMs: ttlMs,
    });
  }

  async reserve(op: ReserveOp): Promise<{ taken: boolean; used: number }> {
    const { rows } = await this.#connection.query<{ taken: boolean; used: string }>(
      this.#reserve,
      [
        op.used,
        op.held,
        Math.trunc(op.usedDelta),
        Math.trunc(op.heldDelta),
        Math.min(op.limit, Number.MAX_SAFE_INTEGER),
        op.countHeld,
        Math.ceil(op.ttlMs),
        Math.ceil(op.heldTtlMs),
        this.#clock(),
      ],
      'usage store',
    );
    return { taken: rows[0]!.taken, used: Number(rows[0]!.used) };
  }

  async add(bucket: string, amount: number, ttlMs: number): Promise<number> {
    const values = [bucket, Math.trunc(amount), Math.ceil(ttlMs), this.#clock()];
    const { rows } = await this.#connection.query<{ count: string }>(this.#add, values, 'usage store');
    return Number(rows[0]!.count);
  }

  async used(bucket: string): Promise<number> {
    const { rows } = await this.#connection.query<{ count: string }>(
      this.#used,
      [bucket, this.#clock()],
      'usage store',
    );
    return Number(rows[0]?.count ?? 0);
  }

  correct(op: CorrectionOp): Promise<void> {
    return this.#corrections.add(op);
  }

  /** Corrections waiting for the database (for tests, benches and logs). */
  get pendingCorrections(): number {
    return this.#corrections.size;
  }

  /** Deletes counters whose window is over (and corrections too old to be retried); returns how many counters went. */
  async sweep(): Promise<number> {
    const deleted = (await this.#connection.query(this.#sweep, [this.#clock()], 'usage store')).rowCount ?? 0;
    await this.#connection.query(this.#sweepCorrections, [this.#clock()], 'usage store');
    return deleted;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.#corrections.close();
    await this.#connection.close();
  }

  /** The injected clock's time, or null: the database's clock. */
  #clock(): number | null {
    return this.#now ? Math.floor(this.#now()) : null;
  }
}
