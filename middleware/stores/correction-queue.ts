// Corrections a usage store must not lose (UsageStore.correct: give-backs and settlements), kept in order and
// applied once each by id whenever the store answers: the queue every backend with a shared store uses (PostgreSQL,
// Redis), so that a store that is away, stalled or refusing never drops one.

import { randomUUID } from 'node:crypto';
import { withDeadline } from './deadline.js';
import type { CorrectionOp } from './usage-store.js';

/** What the queue needs of a store. */
export interface CorrectionTarget {
  /**
   * Applies `op` under `id`, atomically; the store applies an id at most once however often it is sent (a retry after
   * a reply that never came must not give back twice). Rejects when it was not taken.
   */
  apply(id: string, op: CorrectionOp): Promise<unknown>;
  isReady(): boolean;
  /** `listener` runs at every (re)connection: what waits is applied then (at start-up too). */
  onReady(listener: () => void): void;
  /** An attempt not answered within this long counts as failed and is sent again (default: none, the store's own). */
  attemptMs?: number;
  /** Told when a correction fails while the store answers otherwise (it is tried again), and what is left at close. */
  log?: (message: string) => void;
}

/** A correction refused (or not answered) while the store is up is sent again after this long, doubling to max. */
export const CORRECTION_RETRY_MS = { first: 50, max: 1000 } as const;
/** close() waits this long at most for what is pending, while the store answers. */
const CLOSE_DRAIN_MS = 1000;

interface PendingCorrection {
  /** Applied at most once under this id, however often it is sent. */
  id: string;
  op: CorrectionOp;
  applied: () => void;
}

export class CorrectionQueue {
  readonly #target: CorrectionTarget;
  readonly #log: (message: string) => void;
  /** Corrections not yet applied, oldest first: applied whenever the store answers (and at each (re)connection). */
  readonly #pending = new Map<string, PendingCorrection>();
  #flushing = false;
  #retry: NodeJS.Timeout | undefined;
  /** Failures in a row while the store answered: the backoff's exponent (0 after a success). */
  #failures = 0;
  #closed = false;
  /** Told each time the queue empties (close() waits for it). */
  #emptied: Array<() => void> = [];

  constructor(target: CorrectionTarget) {
    this.#target = target;
    this.#log = target.log ?? (() => {});
    // Corrections made while the store was away are applied as soon as it answers again, and at start-up.
    target.onReady(() => this.#flush());
  }

  /** Keeps `op` until the store has applied it; resolves then. Never rejects. */
  add(op: CorrectionOp): Promise<void> {
    return new Promise((applied) => {
      const id = randomUUID();
      this.#pending.set(id, { id, op, applied });
      this.#flush();
    });
  }

  /** Corrections waiting for the store. */
  get size(): number {
    return this.#pending.size;
  }

  /** Applies what is pending while the store answers (up to CLOSE_DRAIN_MS), then stops; says what was left. */
  async close(): Promise<void> {
    if (this.#pending.size > 0 && this.#target.isReady() && !this.#closed) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.#emptied.push(resolve)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, CLOSE_DRAIN_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    this.#closed = true;
    clearTimeout(this.#retry);
    for (const resolve of this.#emptied.splice(0)) resolve();
    if (this.#pending.size > 0)
      this.#log(`usage store: closed with ${this.#pending.size} corrections the store has not taken`);
  }

  /** Applies the pending corrections in order while the store answers; stops at the first failure. */
  #flush(): void {
    if (this.#flushing || this.#closed) return;
    this.#flushing = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    void (async () => {
      try {
        for (;;) {
          const next = this.#pending.values().next();
          if (next.done) {
            for (const resolve of this.#emptied.splice(0)) resolve();
            return;
          }
          if (this.#closed || !this.#target.isReady()) return; // onReady starts the next round
          const { id, op, applied } = next.value;
          try {
            const attempt = this.#target.apply(id, op);
            const { attemptMs } = this.#target;
            await (attemptMs === undefined ? attempt : withDeadline(attempt, attemptMs, 'usage store'));
          } catch (err) {
            // Away (not ready): onReady retries. Refused, or no answer while it otherwise answers: after a backoff.
            if (this.#target.isReady()) {
              if (this.#failures === 0)
                this.#log(`usage store: a correction failed, retrying: ${(err as Error).message}`);
              const delay = Math.min(CORRECTION_RETRY_MS.first * 2 ** this.#failures, CORRECTION_RETRY_MS.max);
              this.#failures++;
              this.#retry = setTimeout(() => this.#flush(), delay);
              this.#retry.unref();
            }
            return;
          }
          this.#failures = 0;
          this.#pending.delete(id);
          applied();
        }
      } finally {
        this.#flushing = false;
      }
    })();
  }
}
