// What every shadow store does (files on one machine, Redis single node, Cluster or Sentinel, PostgreSQL): cases
// and images scoped by owner, newest first, held to the case cap, the byte cap and the retention; summaries per
// owner. Declared as mocha cases by shadowStoreContract for one backend; the stores' clocks are the test's.

import { expect } from 'chai';
import { basename } from 'node:path';
import type { ShadowCaseStore, ShadowRetention, StoredShadowCase } from '../../middleware/index.js';
import { SCORE_BUCKETS } from '../../middleware/stores/shadow-store.js';
import type { ContractOptions } from './key-store-contract.js';

export interface OpenedShadowStore {
  store: ShadowCaseStore;
  /** A second store on the same data (another replica), when the backend is shared. */
  other?: () => Promise<ShadowCaseStore>;
  close: () => Promise<void>;
}

/** Opens a store with these caps whose clock is `now` (ms). */
export type OpenShadowStore = (options: ShadowRetention & { now: () => number }) => Promise<OpenedShadowStore>;

/**
 * Images of this size count alike whether a store keeps them as they are (files, bytea) or in base64 (Redis,
 * 4 bytes per 3): two cases fit under BYTE_CAP either way, three do not.
 */
const IMAGE_BYTES = 3000;
const BYTE_CAP = 16_500;

function image(seed: number, bytes = IMAGE_BYTES): Buffer {
  return Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 31 + seed * 7) & 0xff));
}

export function shadowStoreContract(backend: string, open: OpenShadowStore, options: ContractOptions = {}): void {
  describe(`shadow store contract: ${backend}`, function () {
    this.timeout(60_000);
    let time = Date.UTC(2026, 5, 1, 12);
    const now = (): number => time;
    const opened: OpenedShadowStore[] = [];
    const openStore = async (caps: ShadowRetention = {}): Promise<OpenedShadowStore> => {
      const store = await open({ ttlMs: 3_600_000, ...caps, now });
      opened.push(store);
      return store;
    };
    let sequence = 0;
    /** A case made now (ids start with their time, as shadow mode makes them). */
    const record = (owner: string, requestId = `req-${++sequence}`): StoredShadowCase => ({
      id: `${time}-${requestId}`,
      owner,
      time: new Date(time).toISOString(),
      endpoint: 'POST /printers/8dpmm/labels/2x1/0',
      requestId,
      index: 0,
      labels: { local: 1, upstream: 1 },
      score: 0.5,
      bytes: { local: IMAGE_BYTES, upstream: IMAGE_BYTES },
      upstreamStatus: 200,
    });
    const save = async (store: ShadowCaseStore, owner: string, requestId?: string): Promise<StoredShadowCase> => {
      const made = record(owner, requestId);
      await store.saveCase(made, image(sequence), image(sequence + 1000));
      time += 10;
      return made;
    };

    before(async function () {
      await options.require?.(this);
    });
    beforeEach(() => {
      time = Date.UTC(2026, 5, 1, 12);
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it("lists an owner's cases newest first, up to the limit, and serves both images as saved", async () => {
      const { store } = await openStore();
      const first = record('org:acme', 'one');
      const saved = await store.saveCase(first, image(1), image(2));
      // Where the images went: their names (a file store: the paths of files of those names).
      const names = { local: basename(saved!.local), upstream: basename(saved!.upstream) };
      expect(names).to.deep.equal({ local: `${first.id}.local.png`, upstream: `${first.id}.upstream.png` });
      time += 10;
      const second = await save(store, 'org:acme', 'two');
      const third = await save(store, 'org:acme', 'three');
      const { cases, unreadable } = await store.cases('org:acme', 10);
      expect(cases.map((c) => c.id)).to.deep.equal([third.id, second.id, first.id]);
      expect(cases[2]).to.deep.include({ requestId: 'one', owner: 'org:acme', endpoint: first.endpoint, score: 0.5 });
      expect(unreadable).to.deep.equal([]);
      expect((await store.cases('org:acme', 2)).cases.map((c) => c.id)).to.deep.equal([third.id, second.id]);
      expect(Buffer.from((await store.image('org:acme', names.local))!)).to.deep.equal(image(1));
      expect(Buffer.from((await store.image('org:acme', names.upstream))!)).to.deep.equal(image(2));
    });

    it("shows an owner nothing of another's cases, images or summary", async () => {
      const { store } = await openStore();
      const acme = await save(store, 'org:acme');
      await store.tally('org:acme', { requestId: 'x', outcome: 'same', score: 1 });
      expect((await store.cases('org:globex', 10)).cases).to.deep.equal([]);
      expect((await store.cases('key:0123456789abcdef', 10)).summary).to.include({
        compared: 0,
        matched: 0,
        updatedAt: null,
      });
      expect(await store.image('org:globex', `${acme.id}.local.png`)).to.equal(undefined);
      expect(await store.image('org:acme', `${acme.id}.local.png`)).to.not.equal(undefined);
    });

    it('serves stored image names only', async () => {
      const { store } = await openStore();
      const made = await save(store, 'org:acme');
      for (const name of [
        `${made.id}.json`,
        `../${made.id}.local.png`,
        `${made.id}.local.png.tmp`,
        'summary.json',
        `${made.id}.other.png`,
      ]) {
        expect(await store.image('org:acme', name), name).to.equal(undefined);
      }
      expect(await store.image('org:acme', `${time}-missing.local.png`)).to.equal(undefined);
    });

    it('keeps at most maxCases per owner, dropping the oldest with their images', async () => {
      const { store } = await openStore({ maxCases: 3 });
      const made: StoredShadowCase[] = [];
      for (let i = 0; i < 5; i++) made.push(await save(store, 'org:acme'));
      const other = await save(store, 'org:globex');
      expect((await store.cases('org:acme', 10)).cases.map((c) => c.id)).to.deep.equal([
        made[4]!.id,
        made[3]!.id,
        made[2]!.id,
      ]);
      expect((await store.cases('org:globex', 10)).cases.map((c) => c.id)).to.deep.equal([other.id]);
      expect(await store.image('org:acme', `${made[1]!.id}.local.png`)).to.equal(undefined);
      expect(await store.image('org:acme', `${made[2]!.id}.upstream.png`)).to.not.equal(undefined);
    });

    it('keeps a case whose images are over the byte cap without them, and drops the oldest when images add up past it', async () => {
      const { store } = await openStore({ maxBytes: BYTE_CAP });
      const big = record('org:acme', 'big');
      expect(await store.saveCase(big, image(1, 20_000), image(2, 20_000))).to.equal(undefined);
      time += 10;
      const kept = [await save(store, 'org:acme'), await save(store, 'org:acme'), await save(store, 'org:acme')];
      // Two cases' images fit: the oldest with images went, and the big one, older still, kept none.
      expect((await store.cases('org:acme', 10)).cases.map((c) => c.id)).to.deep.equal([kept[2]!.id, kept[1]!.id]);
      expect(await store.image('org:acme', `${kept[2]!.id}.local.png`)).to.not.equal(undefined);
      expect(await store.image('org:acme', `${kept[0]!.id}.local.png`)).to.equal(undefined);
      expect(await store.image('org:acme', `${big.id}.local.png`)).to.equal(undefined);
    });

    it('keeps cases for ttlMs: older ones go with the next save, images included', async () => {
      const { store } = await openStore({ ttlMs: 60_000 });
      const old = await save(store, 'org:acme');
      time += 30_000;
      const newer = await save(store, 'org:acme');
      time += 30_000; // `old` is now 60 010 ms old
      const newest = await save(store, 'org:acme');
      expect((await store.cases('org:acme', 10)).cases.map((c) => c.id)).to.deep.equal([newest.id, newer.id]);
      expect(await store.image('org:acme', `${old.id}.local.png`)).to.equal(undefined);
    });

    it("sums every settled comparison into the owner's summary", async () => {
      const { store } = await openStore();
      await store.tally('org:acme', { requestId: 'a', outcome: 'same', score: 1 });
      await store.tally('org:acme', { requestId: 'b', outcome: 'same', score: 0.995 });
      await store.tally('org:acme', { requestId: 'c', outcome: 'failed', reason: 'upstream 503' });
      const event = { ...record('org:acme'), score: 0.3 };
      time += 5;
      await store.tally('org:acme', { requestId: 'd', outcome: 'divergent', event });
      await store.tally('org:globex', { requestId: 'e', outcome: 'same', score: 1 });
      const { summary } = await store.cases('org:acme', 10);
      const scores = Object.fromEntries(SCORE_BUCKETS.map((b) => [b.label, 0]));
      expect(summary).to.deep.equal({
        compared: 3,
        matched: 2,
        diverged: 1,
        upstreamErrors: 1,
        scores: { ...scores, '1': 1, '0.99-1': 1, '0-0.50': 1 },
        updatedAt: new Date(time).toISOString(),
      });
      expect((await store.cases('org:globex', 10)).summary).to.include({ compared: 1, matched: 1 });
    });

    it("shows every replica's cases and tallies on each", async function () {
      const first = await openStore();
      if (!first.other) return this.skip(); // one machine only: nothing else shares it
      const second = await first.other();
      const mine = await save(first.store, 'org:acme', 'from-one');
      const theirs = await save(second, 'org:acme', 'from-two');
      await Promise.all([
        first.store.tally('org:acme', { requestId: 'a', outcome: 'same', score: 1 }),
        second.tally('org:acme', { requestId: 'b', outcome: 'same', score: 1 }),
      ]);
      for (const store of [first.store, second]) {
        const { cases, summary } = await store.cases('org:acme', 10);
        expect(cases.map((c) => c.id)).to.deep.equal([theirs.id, mine.id]);
        expect(summary.compared).to.equal(2);
        expect(await store.image('org:acme', `${mine.id}.upstream.png`)).to.not.equal(undefined);
      }
    });
  });
}
