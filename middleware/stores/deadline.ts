// A time budget for key-store and usage-store calls, so a slow or hung store becomes a fast 503, never a hang.

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

/**
 * Settles with `work`, or rejects with StoreUnavailableError once `ms` have passed.
 * The timer yields one turn (setImmediate) before giving up, so a reply that arrived while the
 * event loop was busy (a long render) is still taken instead of being reported as a timeout.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: StoreName): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new StoreUnavailableError(`${what} did not answer within ${ms} ms`, { store: what }));
      });
    }, ms);
    work.then(
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
