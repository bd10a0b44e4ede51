// Admission in front of the worker pool: a bounded queue per tenant (API key), served round robin, so one
// tenant's backlog delays another's jobs by at most one job per tenant ahead of it, never by its whole backlog.

import { RenderError } from '../errors.js';

export interface FairQueueOptions {
  /** Jobs running at once, of any size (the pool's general threads). */
  slots: number;
  /**
   * More slots for small jobs only: an express lane, so small labels are not stuck behind big documents
   * filling every general slot (the operating system shares the CPUs between the threads). It opens only while big
   * jobs hold every general slot: small labels queued behind small labels wait their turn, and the threads running
   * stay one per general slot (a third thread on two cores put the 16-connection p99 at 37-43 ms, against 28-40).
   */
  expressSlots?: number;
  /** Jobs waiting, all tenants together; past it the job is refused at once ('overloaded'). */
  maxQueued: number;
  /** Longest a job may wait for a slot before it is refused ('overloaded'). */
  maxWaitMs: number;
}

type Lane = 'general' | 'express';

/** A job as the queue sees it: it starts when a slot frees and calls `release` when its slot is free again. */
interface Waiting {
  tenant: string;
  small: boolean;
  start: (lane: Lane) => void;
  refuse: (err: Error) => void;
  timer?: NodeJS.Timeout;
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
  readonly #lanes: Record<Lane, { running: number; slots: number }>;
  /** Big jobs running in the general lane: the express lane is open while they fill it. */
  #bigRunning = 0;
  #queued = 0;

  constructor(options: FairQueueOptions) {
    this.#options = options;
    this.#lanes = {
      general: { running: 0, slots: options.slots },
      express: { running: 0, slots: options.expressSlots ?? 0 },
    };
  }

  stats(): FairQueueStats {
    return { running: this.#lanes.general.running + this.#lanes.express.running, queued: this.#queued };
  }

  /**
   * Runs `job` when a slot is free and it is `tenant`'s turn; a `small` job may also take an express slot.
   * `job` gets `release`, to call once its slot is free again (which may be after the job's promise settled:
   * a stopped worker is replaced first). Refused with RenderError 'overloaded' (queue full, waited too long)
   * or 'cancelled' (signal aborted while waiting).
   */
  run<T>(
    tenant: string,
    signal: AbortSignal | undefined,
    job: (release: () => void) => Promise<T>,
    small = false,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(cancelledWhileQueued());
    // Nothing waits and a slot is free: the job starts now, as #dispatch would start it, without a turn in the queue.
    const lane = this.#queued === 0 ? this.#freeLane(small) : undefined;
    if (lane) return new Promise<T>((resolve, reject) => this.#start(tenant, lane, small, job, resolve, reject));
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.#remove(entry);
        reject(cancelledWhileQueued());
      };
      const entry: Waiting = {
        tenant,
        small,
        start: (lane) => {
          signal?.removeEventListener('abort', onAbort);
          this.#start(tenant, lane, small, job, resolve, reject);
        },
        refuse: reject,
        unlisten: () => signal?.removeEventListener('abort', onAbort),
      };
      const waitingBefore = this.#queued;
      this.#enqueue(entry);
      this.#dispatch();
      if (!this.#isWaiting(entry)) return;
      if (waitingBefore >= this.#options.maxQueued && !this.#evictFor(entry)) {
        this.#remove(entry);
        reject(overloaded(`${waitingBefore} renders waiting`));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.timer = setTimeout(() => {
        this.#remove(entry);
        reject(overloaded(`waited ${this.#options.maxWaitMs} ms for a worker`));
      }, this.#options.maxWaitMs);
    });
  }

  /** The lane a job would start in now, as #dispatch would fill them: a general slot, else the express lane if open. */
  #freeLane(small: boolean): Lane | undefined {
    if (this.#lanes.general.running < this.#lanes.general.slots) return 'general';
    return small && this.#expressOpen() ? 'express' : undefined;
  }

  /** The express lane takes a small job: it has a free slot and big jobs hold every general one. */
  #expressOpen(): boolean {
    const { express, general } = this.#lanes;
    return express.running < express.slots && this.#bigRunning >= general.slots;
  }

  /** Runs `job` in a slot of `lane`; its `release` frees the slot and starts whoever waits. */
  #start<T>(
    tenant: string,
    lane: Lane,
    small: boolean,
    job: (release: () => void) => Promise<T>,
    resolve: (value: T) => void,
    reject: (err: unknown) => void,
  ): void {
    const big = lane === 'general' && !small;
    this.#lanes[lane].running++;
    if (big) this.#bigRunning++;
    this.#running.set(tenant, (this.#running.get(tenant) ?? 0) + 1);
    this.#lastServed.set(tenant, ++this.#served);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.#lanes[lane].running--;
      if (big) this.#bigRunning--;
      const n = (this.#running.get(tenant) ?? 1) - 1;
      if (n > 0) this.#running.set(tenant, n);
      else this.#running.delete(tenant);
      if (n === 0 && !this.#waiting.has(tenant)) this.#lastServed.delete(tenant);
      this.#dispatch();
    };
    job(release).then(resolve, reject);
  }

  #isWaiting(entry: Waiting): boolean {
    return this.#waiting.get(entry.tenant)?.includes(entry) ?? false;
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
   * The queue is full: makes room for the newcomer by refusing the newest job of the tenant with the longest
   * queue, when that queue is longer than the newcomer's. A flood fills its own share, not everyone's.
   */
  #evictFor(newcomer: Waiting): boolean {
    let longest: Waiting[] | undefined;
    for (const list of this.#waiting.values()) if (!longest || list.length > longest.length) longest = list;
    // The newcomer is already in its tenant's list: its queue counts it.
    const mine = this.#waiting.get(newcomer.tenant)?.length ?? 0;
    if (!longest || longest.length <= mine) return false;
    const victim = longest[longest.length - 1];
    this.#remove(victim);
    victim.refuse(overloaded(`${this.#options.maxQueued} renders waiting`));
    return true;
  }

  /** Starts waiting jobs while slots are free: anything in turn on the general lane, then small jobs on the express one. */
  #dispatch(): void {
    const general = this.#lanes.general;
    while (general.running < general.slots && this.#queued > 0) if (!this.#startNext('general', () => true)) break;
    while (this.#expressOpen() && this.#queued > 0) if (!this.#startNext('express', (e) => e.small)) break;
  }

  /** Starts the next waiting job that `fits` in `lane`; false when none fits. */
  #startNext(lane: Lane, fits: (e: Waiting) => boolean): boolean {
    const entry = this.#next(fits);
    if (!entry) return false;
    this.#remove(entry);
    entry.start(lane);
    return true;
  }

  /**
   * Round robin: the first job that `fits` of the waiting tenant with the fewest jobs running, then of the
   * one served longest ago.
   */
  #next(fits: (e: Waiting) => boolean): Waiting | undefined {
    let best: Waiting | undefined;
    let bestRunning = Infinity;
    let bestServed = Infinity;
    for (const [tenant, list] of this.#waiting) {
      const running = this.#running.get(tenant) ?? 0;
      const served = this.#lastServed.get(tenant) ?? 0;
      if (running > bestRunning || (running === bestRunning && served >= bestServed)) continue;
      const entry = list.find(fits);
      if (!entry) continue;
      best = entry;
      bestRunning = running;
      bestServed = served;
    }
    return best;
  }
}

function cancelledWhileQueued(): RenderError {
  return new RenderError('cancelled', 'The request was cancelled before rendering started');
}
