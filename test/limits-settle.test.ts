// Booking a rendered document's pages and giving back its hold are one atomic step: a request that opens
// between the two must not find the day's place free. The store below lets another request open right after
// each store call the booking makes, which is where a two-step booking let it in.

import { expect } from 'chai';
import { toStoredKey } from '../middleware/keys/key-record.js';
import { PageAccount } from '../middleware/limits/rate-limits.js';
import { MemoryUsageStore } from '../middleware/stores/memory/usage-store.js';
import type { UsageStore } from '../middleware/stores/usage-store.js';

const NOW = new Date(Date.UTC(2026, 5, 1, 12));

/** The store, with `after` run once each call of a watched kind has finished (before its caller goes on). */
function interleaved(store: UsageStore, after: () => Promise<void>): UsageStore & { watching: boolean } {
  const wrapped = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (wrapped.watching && (name === 'add' || name === 'reserve' || name === 'correct')) {
          wrapped.watching = false; // the other request's own calls are not watched
          await after();
          wrapped.watching = true;
        }
        return result;
      };
    },
  }) as UsageStore & { watching: boolean };
  wrapped.watching = false;
  return wrapped;
}

describe('pages per day: booking is one step', () => {
  it('never frees the place between giving back the hold and booking the pages', async () => {
    const key = toStoredKey({ key: 'k_pages_one', scope: 'all', pagesPerDay: 1 });
    const opened: boolean[] = [];
    const store = interleaved(new MemoryUsageStore(() => NOW.getTime()), async () => {
      opened.push((await new PageAccount(store, key, NOW, 1000).open()) === undefined);
    });
    const first = new PageAccount(store, key, NOW, 1000);
    expect(await first.open(), 'the first document gets the only page').to.equal(undefined);
    store.watching = true;
    expect(await first.settle(1)).to.equal(undefined);
    store.watching = false;
    expect(opened.length, 'another request opened during the booking').to.be.greaterThan(0);
    expect(opened, 'a request opening during the booking is refused').to.not.include(true);
    expect(await store.used(`pages:${key.id}:2026-06-01`)).to.equal(1);
  });
});
