// A page reservation that the store applies but answers after the deadline (a failover, a stalled Redis): the
// client got 503, so what was reserved for it is given back as soon as the late answer arrives.

import { expect } from 'chai';
import type { ReserveOp } from '../middleware/index.js';
import { MemoryUsageStore } from '../middleware/stores/memory/usage-store.js';
import { StoreUnavailableError } from '../middleware/stores/deadline.js';
import { PageAccount } from '../middleware/limits/rate-limits.js';

/** A memory store whose reservations are applied at once but answered only when the test says so. */
function lateStore() {
  const store = new MemoryUsageStore();
  const answers: Array<() => void> = [];
  const reserve = store.reserve.bind(store);
  store.reserve = (op: ReserveOp) => {
    const applied = reserve(op);
    return new Promise((resolve) => {
      answers.push(() => resolve(applied));
    });
  };
  return {
    store,
    answerAll: () => {
      for (const answer of answers.splice(0)) answer();
    },
    pending: () => answers.length,
  };
}

const KEY = {
  id: 'k1',
  hash: 'h',
  scope: 'all' as const,
  revoked: false,
  createdAt: '2026-01-01T00:00:00Z',
  pagesPerDay: 5,
};
const NOW = new Date(Date.UTC(2026, 5, 1, 12));
const used = 'pages:k1:2026-06-01';

/** Resolves once `check` holds, on later turns of the event loop (no clock involved). */
async function settles(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return true;
    await new Promise((r) => setImmediate(r));
  }
  return false;
}

describe('a page reservation answered after the store deadline', () => {
  it('gives back the hold of a request refused with 503', async () => {
    const { store, answerAll, pending } = lateStore();
    const account = new PageAccount(store, KEY, NOW, 1);
    const opened = await account.open().then(
      () => 'opened',
      (err: unknown) => err,
    );
    expect(opened).to.be.instanceOf(StoreUnavailableError);
    expect(await store.used(`${used}:held`)).to.equal(1); // applied, not yet answered
    expect(pending()).to.equal(1);
    answerAll();
    expect(await settles(async () => (await store.used(`${used}:held`)) === 0)).to.equal(true);
  });

  it('gives back the pages of a document refused with 503, and the request settling meanwhile books nothing twice', async () => {
    const { store, answerAll } = lateStore();
    const account = new PageAccount(store, KEY, NOW, 1);
    const opening = account.open();
    answerAll(); // in time: the request is let in with a hold
    expect(await opening).to.equal(undefined);
    const reserving = account.reserve(3).then(
      () => 'reserved',
      (err: unknown) => err,
    );
    expect(await reserving).to.be.instanceOf(StoreUnavailableError);
    expect(await store.used(used)).to.equal(3); // applied: 3 pages reserved, the hold turned into them
    // The router settles the refused request (0 pages), then the late answer arrives.
    await account.settle(0); // applied at once (its own answer comes late too: it reports a failure to count)
    answerAll();
    expect(
      await settles(async () => (await store.used(used)) === 0 && (await store.used(`${used}:held`)) === 0),
    ).to.equal(true);
  });
});
