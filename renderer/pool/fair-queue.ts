// Admission in front of the worker pool: a bounded queue per tenant (API key), served round robin, so one
// tenant's backlog delays another's jobs by at most one job per tenant ahead of it, never by its whole backlog.

import { RenderError } from '../errors.js';

export interface FairQueueOptions {
  /** Jobs running at once (the pool's threads). */
  slots: number;
  /** Jobs waiting, all tenants together; past it the job is refused at once ('overloaded'). */
  maxQueued: number;
  /** Longest a job may wait for a slot before it is refused ('overloaded'). */
  maxWaitMs: number;
}

/** A job as the queue sees it: it starts when a slot frees and calls `release` when its slot is free again. */
interface Waiting {
  tenant: string;
  start: () => void;
  refuse: (err: Error) => void;
  timer: NodeJS.Timeout;
  unlisten: () => void;
}

export interface FairQueueStats {
  running: number;
  queued: number;
}

export const RETRY_AFTER_SECONDS = 1;

export function overloaded(reason: string): RenderError {
  return new RenderError('overloaded', `The renderer is busy (${reason}); retry in ${RETRY_AFTER_SECONDS} s`);
}

export class FairQueue {
  readonly #options: FairQueueOptions;
  /** Waiting jobs per tenant, in arrival order; a tenant is in the map only while it has some. */
  readonly #waiting = new Map<string, Waiting[]>();
  /** Running jobs per tenant: with others waiting, a tenant already running gets its turn after them. */
  readonly #running = new Map<string, number>();
  /** When each active tenant was last given a slot (a counter): among equals the longest unserved goes first. */
  readonly #lastServed = new Map<string, number>();
  #served = 0;
  #runningTotal = 0;
  #queued = 0;

  constructor(options: FairQueueOptions) {
    this.#options = options;
  }

  stats(): FairQueueStats {
    return { running: this.#runningTotal, queued: this.#queued };
  }

  /**
   * Runs `job` when a slot is free and it is `tenant`'s turn. `job` gets `release`, to call once its slot is
   * free again (which may be after the job's promise settled: a stopped worker is replaced first).
   * Refused with RenderError 'overloaded' (queue full, waited too long) or 'cancelled' (signal aborted while waiting).
   */
  run<T>(tenant: string, signal: AbortSignal | undefined, job: (release: () => void) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(cancelledWhileQueued());
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.#runningTotal++;
        this.#running.set(tenant, (this.#running.get(tenant) ?? 0) + 1);
        this.#lastServed.set(tenant, ++this.#served);
        let released = false;
        const release = (): void => {
          if (released) return;
          released = true;
          this.#runningTotal--;
          const n = (this.#running.get(tenant) ?? 1) - 1;
          if (n > 0) this.#running.set(tenant, n); else this.#running.delete(tenant);
          if (n === 0 && !this.#waiting.has(tenant)) this.#lastServed.delete(tenant);
          this.#dispatch();
        };
        job(release).then(resolve, reject);
      };
      if (this.#runningTotal < this.#options.slots && this.#queued === 0) {
        start();
        return;
      }
      if (this.#queued >= this.#options.maxQueued && !this.#evictFor(tenant)) {
        reject(overloaded(`${this.#queued} renders waiting`));
        return;
      }
      const onAbort = (): void => {
        this.#remove(entry);
        reject(cancelledWhileQueued());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const entry: Waiting = {
        tenant,
        start,
        refuse: reject,
        timer: setTimeout(() => {
          this.#remove(entry);
          reject(overloaded(`waited ${this.#options.maxWaitMs} ms for a worker`));
        }, this.#options.maxWaitMs),
        unlisten: () => signal?.removeEventListener('abort', onAbort),
      };
      this.#enqueue(entry);
    });
  }

  #enqueue(entry: Waiting): void {
    let list = this.#waiting.get(entry.tenant);
    if (!list) {
      list = [];
      this.#waiting.set(entry.tenant, list);
    }
    list.push(entry);
    this.#queued++;
  }

  #remove(entry: Waiting): void {
    const list = this.#waiting.get(entry.tenant);
    const i = list?.indexOf(entry) ?? -1;
    if (!list || i < 0) return;
    list.splice(i, 1);
    this.#queued--;
    clearTimeout(entry.timer);
    entry.unlisten();
    if (list.length === 0) {
      this.#waiting.delete(entry.tenant);
      if (!this.#running.has(entry.tenant)) this.#lastServed.delete(entry.tenant);
    }
  }

  /**
   * The queue is full: makes room for `tenant` by refusing the newest job of the tenant with the longest
   * queue, when that queue is longer than `tenant`'s would become. A flood fills its own share, not everyone's.
   */
  #evictFor(tenant: string): boolean {
    let longest: Waiting[] | undefined;
    for (const list of this.#waiting.values()) if (!longest || list.length > longest.length) longest = list;
    const mine = this.#waiting.get(tenant)?.length ?? 0;
    if (!longest || longest.length <= mine + 1) return false;
    const victim = longest[longest.length - 1];
    this.#remove(victim);
    victim.refuse(overloaded(`${this.#options.maxQueued} renders waiting`));
    return true;
  }

  /** Starts waiting jobs while slots are free, each from the tenant whose turn it is. */
  #dispatch(): void {
    while (this.#runningTotal < this.#options.slots && this.#queued > 0) {
      const entry = this.#waiting.get(this.#nextTenant())![0];
      this.#remove(entry);
      entry.start();
    }
  }

  /** Round robin: the waiting tenant with the fewest jobs running, then the one served longest ago. */
  #nextTenant(): string {
    let best = '';
    let bestRunning = Infinity;
    let bestServed = Infinity;
    for (const t of this.#waiting.keys()) {
      const running = this.#running.get(t) ?? 0;
      const served = this.#lastServed.get(t) ?? 0;
      if (running < bestRunning || (running === bestRunning && served < bestServed)) {
        best = t;
        bestRunning = running;
        bestServed = served;
      }
    }
    return best;
  }
}

function cancelledWhileQueued(): RenderError {
  return new RenderError('cancelled', 'The request was cancelled before rendering started');
}
