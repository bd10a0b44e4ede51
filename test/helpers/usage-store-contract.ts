// What every usage store does (memory, Redis single node, Cluster or Sentinel, PostgreSQL): the counters behind
// the rate limits, declared as mocha cases by usageStoreContract for one backend. Counts under concurrency are
// exact; time windows are checked on a clock the test moves, for the stores that take one (Redis keeps its own).

import { expect } from 'chai';
import type { ReserveOp, UsageStore } from '../../middleware/index.js';
import type { ContractOptions } from './key-store-contract.js';

export interface OpenedUsageStore {
  store: UsageStore;
  /** A second store on the same counters (another instance), when the backend is shared. */
  other?: () => Promise<UsageStore>;
  /** Deletes the counters whose window is over, when the store does that on demand; returns how many went. */
  sweep?: () => Promise<number>;
  /** How many counters the backend holds for this store (to see a sweep work). */
  count?: () => Promise<number>;
  close: () => Promise<void>;
}

/** `now` is the clock in ms the store must use for expiries; undefined when the backend keeps its own. */
export type OpenUsageStore = (now: (() => number) | undefined) => Promise<OpenedUsageStore>;

export interface UsageContractOptions extends ContractOptions {
  /** The store's expiries follow the clock it is given (memory, PostgreSQL), not the backend's own (Redis). */
  injectedClock: boolean;
}

let unique = 0;

export function usageStoreContract(backend: string, open: OpenUsageStore, options: UsageContractOptions): void {
  describe(`usage store contract: ${backend}`, function () {
    this.timeout(60_000);
    let opened: OpenedUsageStore;
    let store: UsageStore;
    let time = Date.UTC(2026, 5, 1, 12);
    const clock = (): number => time;
    const others: UsageStore[] = [];
    // Bucket names of the router's shape; a page bucket and its holds as the router pairs them (one Cluster slot).
    const bucket = (what: string): string => `${what}:${process.pid}-${++unique}`;
    const op = (used: string, patch: Partial<ReserveOp>): ReserveOp => ({
      used,
      held: `${used}:held`,
      usedDelta: 0,
      heldDelta: 0,
      limit: 10,
      countHeld: true,
      ttlMs: 600_000,
      heldTtlMs: 600_000,
      ...patch,
    });

    before(async function () {
      await options.require?.(this);
    });
    beforeEach(async () => {
      time = Date.UTC(2026, 5, 1, 12);
      opened = await open(options.injectedClock ? clock : undefined);
      store = opened.store;
    });
    afterEach(async () => {
      for (const other of others.splice(0)) await other.close();
      await opened?.close();
    });

    it('counts hits per bucket, every one of many concurrent ones exactly once', async () => {
      const a = bucket('rps:key:a');
      const b = bucket('rps:key:b');
      expect(await store.hit(a, 60_000)).to.equal(1);
      expect(await store.hit(a, 60_000)).to.equal(2);
      expect(await store.hit(b, 60_000)).to.equal(1);
      const counts = await Promise.all(Array.from({ length: 40 }, () => store.hit(a, 60_000)));
      expect([...counts].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 3));
      expect(await store.used(a)).to.equal(42);
      expect(await store.used(bucket('rps:key:never'))).to.equal(0);
      expect(store.isReady()).to.equal(true);
    });

    it('takes from an allowance while less than the limit is used, exactly under concurrency', async () => {
      const day = bucket('pages:k:2026-06-01');
      expect(await store.take(day, 5, 3, 600_000)).to.deep.equal({ taken: true, used: 5 });
      expect(await store.take(day, 5, 3, 600_000)).to.deep.equal({ taken: false, used: 5 });
      const burst = bucket('pages:k:burst');
      const results = await Promise.all(Array.from({ length: 25 }, () => store.take(burst, 1, 7, 600_000)));
      expect(results.filter((r) => r.taken)).to.have.length(7);
      expect(await store.used(burst)).to.equal(7);
    });

    it('adds and gives back, and reports the usage', async () => {
      const day = bucket('pages:k:add');
      expect(await store.add(day, 4, 600_000)).to.equal(4);
      expect(await store.add(day, -3, 600_000)).to.equal(1);
      expect(await store.used(day)).to.equal(1);
    });

    it('reserves against used plus held: holds let in exactly the limit, then pages replace them', async () => {
      const day = bucket('pages:k:reserve');
      const opens = await Promise.all(
        Array.from({ length: 12 }, () => store.reserve(op(day, { heldDelta: 1, limit: 5 }))),
      );
      expect(opens.filter((r) => r.taken)).to.have.length(5);
      expect(opens.every((r) => r.used === 0)).to.equal(true);
      // A hold becomes 3 pages (held no longer counted for the document's own reservation).
      expect(await store.reserve(op(day, { usedDelta: 3, heldDelta: -1, limit: 5, countHeld: false }))).to.deep.equal({
        taken: true,
        used: 3,
      });
      // Now used 3 + held 4 >= 5: a new request is refused, and told the pages used.
      expect(await store.reserve(op(day, { heldDelta: 1, limit: 5 }))).to.deep.equal({ taken: false, used: 3 });
      // Settling never refuses (the router's limit is MAX_SAFE_INTEGER): four holds go, one document of 2 comes in.
      for (let i = 0; i < 4; i++)
        await store.reserve(op(day, { heldDelta: -1, limit: Number.MAX_SAFE_INTEGER, countHeld: false }));
      expect(
        await store.reserve(op(day, { usedDelta: 2, limit: Number.MAX_SAFE_INTEGER, countHeld: false })),
      ).to.deep.equal({ taken: true, used: 5 });
      expect(await store.used(day)).to.equal(5);
      expect(await store.used(`${day}:held`)).to.equal(0);
      expect(await store.reserve(op(day, { heldDelta: 1, limit: 5 }))).to.deep.equal({ taken: false, used: 5 });
    });

    it('holds the limit exactly when two instances reserve at once', async function () {
      if (!opened.other) return this.skip(); // one process only: nothing else shares it
      const other = await opened.other();
      others.push(other);
      const day = bucket('pages:k:two');
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? other : store).reserve(op(day, { usedDelta: 1, limit: 9, countHeld: false })),
        ),
      );
      expect(results.filter((r) => r.taken)).to.have.length(9);
      expect(await other.used(day)).to.equal(9);
      const hits = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? other : store).hit(day + ':rps', 60_000)),
      );
      expect([...hits].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
    });

    if (!options.injectedClock) return; // the cases below move the clock

    it('ends a window when its time is over, without sliding it', async () => {
      const second = bucket('rps:key:w');
      expect(await store.hit(second, 2000)).to.equal(1);
      time += 1999;
      expect(await store.hit(second, 2000), 'a hit does not move the expiry').to.equal(2);
      time += 1;
      expect(await store.used(second)).to.equal(0);
      expect(await store.hit(second, 2000)).to.equal(1);
      const day = bucket('pages:k:ttl');
      await store.add(day, 2, 1000);
      time += 500;
      await store.add(day, 1, 5000); // the lifetime applies when the counter is new only
      time += 500;
      expect(await store.used(day)).to.equal(0);
      expect(await store.take(day, 1, 1, 1000)).to.deep.equal({ taken: true, used: 1 });
    });

    it('lets holds go heldTtlMs after they started from nothing, and counts a hold given back late as nothing', async () => {
      const day = bucket('pages:k:holds');
      expect((await store.reserve(op(day, { heldDelta: 1, limit: 1, heldTtlMs: 1000 }))).taken).to.equal(true);
      time += 900;
      expect(
        (await store.reserve(op(day, { heldDelta: 1, limit: 2, heldTtlMs: 1000 }))).taken,
        'second hold at 900',
      ).to.equal(true);
      time += 99; // 999: both holds still count
      expect((await store.reserve(op(day, { heldDelta: 1, limit: 2, heldTtlMs: 1000 }))).taken).to.equal(false);
      time += 1; // 1000: the holds started at 0; the second hold did not move their expiry
      expect(
        (await store.reserve(op(day, { heldDelta: 1, limit: 1, heldTtlMs: 1000 }))).taken,
        'holds expired',
      ).to.equal(true);
      time += 1000;
      // Given back after it expired: counts as nothing, and takes nothing from the next hold.
      await store.reserve(
        op(day, { heldDelta: -1, limit: Number.MAX_SAFE_INTEGER, countHeld: false, heldTtlMs: 1000 }),
      );
      expect(await store.used(`${day}:held`)).to.be.at.most(0);
      expect((await store.reserve(op(day, { heldDelta: 1, limit: 1, heldTtlMs: 1000 }))).taken).to.equal(true);
      expect((await store.reserve(op(day, { heldDelta: 1, limit: 1, heldTtlMs: 1000 }))).taken).to.equal(false);
    });

    it('lets a leaked hold go while other requests keep holding and giving back', async () => {
      const day = bucket('pages:k:leak');
      const hold = (delta: number) =>
        store.reserve(op(day, { heldDelta: delta, limit: Number.MAX_SAFE_INTEGER, countHeld: false, heldTtlMs: 1000 }));
      await hold(1); // never given back
      for (let t = 0; t < 12; t++) {
        await hold(1);
        time += 100;
        await hold(-1);
      }
      // 1200 ms of traffic after the leak: the holds' lifetime from 0 is over, and nothing is held.
      expect(await store.used(`${day}:held`)).to.equal(0);
      await hold(1);
      expect(await store.used(`${day}:held`)).to.equal(1);
    });

    it('applies a correction once, and starts holds given back from nothing at 0', async function () {
      if (!store.correct) return this.skip();
      const day = bucket('pages:k:correct');
      await store.reserve(op(day, { usedDelta: 3, heldDelta: 2 }));
      await store.correct({ ...op(day, {}), usedDelta: -3, heldDelta: -1 });
      expect(await store.used(day)).to.equal(0);
      expect(await store.used(`${day}:held`)).to.equal(1);
      await store.correct({ ...op(day, {}), usedDelta: 2, heldDelta: -5 });
      expect(await store.used(day)).to.equal(2);
      expect(await store.used(`${day}:held`)).to.equal(0);
    });

    it('deletes the counters of windows that are over', async function () {
      if (!opened.sweep || !opened.count) return this.skip(); // memory sweeps as it grows
      for (let i = 0; i < 5; i++) await store.hit(bucket('rps:key:sweep'), 1000);
      await store.add(bucket('pages:k:sweep'), 1, 60_000);
      expect(await opened.count()).to.equal(6);
      time += 1000;
      expect(await opened.sweep()).to.equal(5);
      expect(await opened.count()).to.equal(1);
    });
  });
}
