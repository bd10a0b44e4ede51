// Soft rate limits: requests per second per key and per organization (fixed one-second windows), and
// rendered pages per UTC day per key. Counters live in the UsageStore, so with Redis they hold across instances.

import type { ServerResponse } from 'node:http';
import { StoreUnavailableError, withDeadline } from '../stores/deadline.js';
import type { Emit } from '../events/service-events.js';
import { setResponseHeaders } from '../api-table/index.js';
import { sendJsonError } from '../http/http-errors.js';
import type { LegacyRequest, LegacyResponse, NextFunction } from '../http/http.js';
import type { StoredKey } from '../keys/key-record.js';
import { requestKey, requestKeyLabel, requestState } from '../http/request-state.js';
import type { UsageStore } from '../stores/usage-store.js';

export type LimitType = 'requests_per_sec' | 'pages_per_day';
export type LimitScope = 'key' | 'organization';

export interface LimitExceeded {
  type: LimitType;
  scope: LimitScope;
  limit: number;
  message: string;
  /** Unix time in seconds when the limit resets. */
  resetAt: number;
  retryAfterSeconds: number;
}

const DAY_MS = 86_400_000;
/** Counters outlive their window a little so a clock step between instances cannot resurrect one. */
const SECOND_WINDOW_TTL_MS = 2_000;

/** Answers 429 (and says so on the event sink). */
export function sendRateLimited(res: ServerResponse, exceeded: LimitExceeded, emit: Emit): void {
  emit({
    type: 'rate_limited',
    requestId: requestState(res).requestId,
    keyId: requestKeyLabel(res),
    limitType: exceeded.type,
    limitScope: exceeded.scope,
    limit: exceeded.limit,
  });
  setResponseHeaders(res, {
    'Retry-After': exceeded.retryAfterSeconds,
    'X-RateLimit-Limit': exceeded.limit,
    'X-RateLimit-Remaining': 0,
    'X-RateLimit-Reset': exceeded.resetAt,
  });
  sendJsonError(res, 429, {
    error: 'rate_limited',
    message: exceeded.message,
    limit_type: exceeded.type,
    limit_scope: exceeded.scope,
    limit: exceeded.limit,
    retry_after_seconds: exceeded.retryAfterSeconds,
  });
}

export interface RequestRateOptions {
  usageStore: UsageStore;
  /** Requests per second shared by all keys of one organization; 0 or Infinity turns it off. */
  organizationRequestsPerSecond: number;
  storeTimeoutMs: number;
  now: () => Date;
  emit: Emit;
}

interface RequestWindow {
  bucket: string;
  limit: number;
  scope: LimitScope;
  who: string;
}

/** The per-second windows a request counts against: the key's own limit and its organization's ceiling. */
function requestWindows(key: StoredKey, organizationRequestsPerSecond: number): RequestWindow[] {
  const windows: RequestWindow[] = [];
  if (key.requestsPerSecond !== undefined) {
    windows.push({ bucket: `rps:key:${key.id}`, limit: key.requestsPerSecond, scope: 'key', who: 'API key' });
  }
  if (
    key.organization !== undefined &&
    organizationRequestsPerSecond > 0 &&
    Number.isFinite(organizationRequestsPerSecond)
  ) {
    windows.push({
      bucket: `rps:org:${encodeURIComponent(key.organization)}`,
      limit: organizationRequestsPerSecond,
      scope: 'organization',
      who: `Organization ${key.organization}`,
    });
  }
  return windows;
}

/** Counts the request against the key's and its organization's per-second limits; 429 when over either. */
export function limitRequestRate({
  usageStore,
  organizationRequestsPerSecond,
  storeTimeoutMs,
  now,
  emit,
}: RequestRateOptions) {
  return async (_req: LegacyRequest, res: LegacyResponse, next: NextFunction): Promise<void> => {
    const windows = requestWindows(requestKey(res), organizationRequestsPerSecond);
    if (windows.length > 0 && !usageStore.isReady())
      throw new StoreUnavailableError('usage store is not ready', { store: 'usage store' });
    const second = Math.floor(now().getTime() / 1000);
    const deadline = Date.now() + storeTimeoutMs;
    for (const { bucket, limit, scope, who } of windows) {
      const budget = Math.max(1, deadline - Date.now());
      const count = await withDeadline(
        () => usageStore.hit(`${bucket}:${second}`, SECOND_WINDOW_TTL_MS),
        budget,
        'usage store',
      );
      if (count > limit) {
        sendRateLimited(
          res,
          {
            type: 'requests_per_sec',
            scope,
            limit,
            message: `${who} exceeded its limit of ${limit} requests per second.`,
            resetAt: second + 1,
            retryAfterSeconds: 1,
          },
          emit,
        );
        return;
      }
    }
    next();
  };
}

/** The last day utcDay named: every request of a day asks for the same one. */
let lastDay = { number: NaN, text: '' };

/** `YYYY-MM-DD` of the UTC day containing `now`. */
function utcDay(now: Date): string {
  const number = Math.floor(now.getTime() / DAY_MS);
  if (number !== lastDay.number) lastDay = { number, text: now.toISOString().slice(0, 10) };
  return lastDay.text;
}

/** Unix seconds of the next 00:00 UTC after `now`. */
export function nextUtcMidnight(now: Date): number {
  return Math.floor(now.getTime() / DAY_MS + 1) * (DAY_MS / 1000);
}

/** A hold outlives its last change by this much at most (a request's render takes seconds, not minutes). */
const HOLD_TTL_MS = 120_000;

/**
 * The pages-per-day account of one request. `open` lets the request in while the day's pages plus the
 * holds of requests in flight are under the limit, and holds one place (atomically, so concurrent requests
 * cannot all slip in); `reserve` turns the hold into the document's whole page count once the renderer
 * knows it, before drawing, granted while the pages reserved or booked are under the limit (so concurrent
 * documents overshoot it by at most one document); `settle` books the pages actually rendered and gives
 * back what was not. "Soft": a document that starts under the limit is rendered whole.
 */
export class PageAccount {
  readonly #usageStore: UsageStore;
  readonly #storeTimeoutMs: number;
  readonly #key: StoredKey;
  readonly #bucket: string;
  readonly #holds: string;
  readonly #ttlMs: number;
  readonly #resetAt: number;
  readonly #nowSeconds: number;
  #holding = false;
  #reserved = 0;
  /** The give-back of a reservation whose answer came too late, while it waits for that answer; settle goes after it. */
  #undoing: Promise<void> | undefined;

  constructor(usageStore: UsageStore, key: StoredKey, now: Date, storeTimeoutMs: number) {
    this.#usageStore = usageStore;
    this.#storeTimeoutMs = storeTimeoutMs;
    this.#key = key;
    this.#bucket = `pages:${key.id}:${utcDay(now)}`;
    this.#holds = `${this.#bucket}:held`;
    this.#resetAt = nextUtcMidnight(now);
    this.#ttlMs = this.#resetAt * 1000 - now.getTime() + DAY_MS;
    this.#nowSeconds = Math.floor(now.getTime() / 1000);
  }

  /** Whether the key has a daily page limit at all (without one there is nothing to reserve). */
  get limited(): boolean {
    return this.#key.pagesPerDay !== undefined;
  }

  /** Lets the request in and holds its place; returns the 429 to send when the key's day is used up. Keys without a limit pass. */
  async open(): Promise<LimitExceeded | undefined> {
    const taken = await this.#reserve(0, 1, true);
    if (taken === undefined || taken) {
      this.#holding = taken === true;
      return undefined;
    }
    return this.#exceeded();
  }

  /**
   * Reserves the document's `pages` in place of the hold; returns the 429 to send when the pages reserved
   * or booked today have reached the limit (the hold stays until `settle`).
   */
  async reserve(pages: number): Promise<LimitExceeded | undefined> {
    const taken = await this.#reserve(pages - this.#reserved, this.#holding ? -1 : 0, false);
    if (taken === false) return this.#exceeded();
    if (taken) {
      this.#holding = false;
      this.#reserved = pages;
    }
    return undefined;
  }

  /** Books `pages` rendered pages (0 when the render failed); failures to book are returned, not thrown. */
  async settle(pages: number): Promise<Error | undefined> {
    const delta = pages - this.#reserved;
    const holding = this.#holding;
    this.#reserved = 0;
    this.#holding = false;
    if (!holding && delta === 0) return undefined;
    // The hold goes and the pages come in one step: between two steps another request would see neither, and
    // slip in past the limit.
    const op = { ...this.#names(), usedDelta: delta, heldDelta: holding ? -1 : 0 };
    const correct = this.#usageStore.correct?.bind(this.#usageStore);
    if (correct && this.#undoing) {
      // After the give-back, in this request's order: a hold given back before the late reservation that took it
      // would count nothing (holds never go below 0), and the give-back would then hold it again for good.
      void this.#undoing.then(() => correct(op));
      return undefined;
    }
    try {
      if (correct) {
        // Kept and retried by the store until it answers: past the deadline it is late, not lost.
        await withDeadline(correct(op), this.#storeTimeoutMs, 'usage store');
      } else {
        await withDeadline(
          this.#usageStore.reserve({ ...op, limit: Number.MAX_SAFE_INTEGER, countHeld: false }),
          this.#storeTimeoutMs,
          'usage store',
        );
      }
      return undefined;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  /** The account's buckets and their lifetimes, as every reservation and correction names them. */
  #names(): { used: string; held: string; ttlMs: number; heldTtlMs: number } {
    return { used: this.#bucket, held: this.#holds, ttlMs: this.#ttlMs, heldTtlMs: HOLD_TTL_MS };
  }

  /** One atomic reservation; undefined when the key has no daily limit. */
  async #reserve(usedDelta: number, heldDelta: number, countHeld: boolean): Promise<boolean | undefined> {
    const limit = this.#key.pagesPerDay;
    if (limit === undefined) return undefined;
    if (!this.#usageStore.isReady())
      throw new StoreUnavailableError('usage store is not ready', { store: 'usage store' });
    const op = { ...this.#names(), usedDelta, heldDelta, limit, countHeld };
    let work: Promise<{ taken: boolean }> | undefined;
    try {
      return (await withDeadline(() => (work = this.#usageStore.reserve(op)), this.#storeTimeoutMs, 'usage store'))
        .taken;
    } catch (err) {
      if (work) this.#undoIfLate(work, usedDelta, heldDelta);
      throw err;
    }
  }

  /**
   * The client got a 503 for this reservation; should the store still apply it (its answer came after the
   * deadline, e.g. during a stall or a failover), it is given back as soon as that answer arrives, so no pages stay
   * booked for a request that was refused. A store with `correct` keeps the give-back until it answers. (A reply
   * lost with its connection cannot be told apart: the hold expires.)
   */
  #undoIfLate(work: Promise<{ taken: boolean }>, usedDelta: number, heldDelta: number): void {
    const previous = this.#undoing ?? Promise.resolve();
    this.#undoing = previous
      .then(() => work)
      .then(async ({ taken }) => {
        if (!taken) return;
        if (this.#usageStore.correct) {
          await this.#usageStore.correct({ ...this.#names(), usedDelta: -usedDelta, heldDelta: -heldDelta });
          return;
        }
        if (usedDelta !== 0) await this.#usageStore.add(this.#bucket, -usedDelta, this.#ttlMs);
        if (heldDelta !== 0) await this.#usageStore.add(this.#holds, -heldDelta, HOLD_TTL_MS);
      })
      .catch(() => {}); // a store without `correct` failed again: its hold expires (HOLD_TTL_MS)
  }

  #exceeded(): LimitExceeded {
    const limit = this.#key.pagesPerDay ?? 0;
    return {
      type: 'pages_per_day',
      scope: 'key',
      limit,
      message: `API key exceeded its limit of ${limit} pages per day (UTC).`,
      resetAt: this.#resetAt,
      retryAfterSeconds: Math.max(1, this.#resetAt - this.#nowSeconds),
    };
  }
}

/** Thrown from the render's admission when the document's pages would not fit the day: answered 429. */
export class PagesExceededError extends Error {
  readonly exceeded: LimitExceeded;

  constructor(exceeded: LimitExceeded) {
    super(exceeded.message);
    this.name = 'PagesExceededError';
    this.exceeded = exceeded;
  }
}
