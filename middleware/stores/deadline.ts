// A time budget for key-store and usage-store calls, so a slow or hung store becomes a fast 503, never a hang.

import { AsyncLocalStorage } from 'node:async_hooks';

export type StoreName = 'key store' | 'usage store';

export class StoreUnavailableError extends Error {
  /** Which store failed (the `cause` of 503 metrics and logs). */
  readonly store: StoreName;

  constructor(message: string, options: { cause?: unknown; store?: StoreName } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'StoreUnavailableError';
    this.store = options.store ?? 'key store';
  }
}

/** The clock of one withDeadline call, as the store code it runs sees it. */
export interface StoreDeadline {
  /** Stops the clock while a connection is opened for this call (connecting has its own, longer wait); returns the resume. */
  pause(): () => void;
}

const running = new AsyncLocalStorage<StoreDeadline>();
/** Whether work runs in the deadline's context: on once a store that pauses deadlines is opened (trackDeadlines). */
let tracking = false;

/**
 * Called by a store that pauses deadlines (PostgreSQL's connection): from then on work given as a function runs
 * in its deadline's context. Off until then, so processes with other stores never turn on Node's promise hooks.
 */
export function trackDeadlines(): void {
  tracking = true;
}

/** The deadline of the withDeadline call this code runs in (given `work` as a function), or undefined. */
export function currentDeadline(): StoreDeadline | undefined {
  return running.getStore();
}

/**
 * Settles with `work`, or rejects with StoreUnavailableError once `ms` have passed.
 * The timer yields one turn (setImmediate) before giving up, so a reply that arrived while the
 * event loop was busy (a long render) is still taken instead of being reported as a timeout.
 * Given `work` as a function, it runs under this deadline: a store may pause the clock while it opens a connection
 * (currentDeadline), so the budget judges queries on a ready connection, not a connect.
 */
export function withDeadline<T>(work: Promise<T> | (() => Promise<T>), ms: number, what: StoreName): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let left = ms;
    let armedAt = 0;
    let pauses = 0;
    const arm = (): void => {
      armedAt = Date.now();
      timer = setTimeout(() => {
        setImmediate(() => {
          if (settled || pauses > 0) return;
          settled = true;
          reject(new StoreUnavailableError(`${what} did not answer within ${ms} ms`, { store: what }));
        });
      }, left);
    };
    const deadline: StoreDeadline = {
      pause: () => {
        if (pauses++ === 0 && !settled) {
          clearTimeout(timer);
          left = Math.max(0, left - (Date.now() - armedAt));
        }
        let resumed = false;
        return () => {
          if (resumed) return;
          resumed = true;
          if (--pauses === 0 && !settled) arm();
        };
      },
    };
    arm();
    let promise: Promise<T>;
    try {
      promise = typeof work !== 'function' ? work : tracking ? running.run(deadline, work) : work();
    } catch (err) {
      promise = Promise.reject(err);
    }
    promise.then(
      (value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(
          err instanceof StoreUnavailableError
            ? err
            : new StoreUnavailableError(`${what} failed`, { cause: err, store: what }),
        );
      },
    );
  });
}
