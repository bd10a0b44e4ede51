// What every key store does, whatever holds the keys (memory, Redis single node, Cluster or Sentinel, PostgreSQL):
// mocha cases declared by keyStoreContract for one backend. Each case opens its own store and leaves nothing behind.

import { expect } from 'chai';
import { seedKeys, type KeyStore } from '../../middleware/index.js';
import { hashKey } from '../../middleware/keys/key-record.js';

export interface OpenedKeyStore {
  store: KeyStore;
  /** Everything the backend holds for this store, as text (to check no plain key is stored). */
  raw: () => Promise<string>;
  /** A second store on the same data (another instance, or zpl-keys), when the backend is shared. */
  other?: () => Promise<KeyStore>;
  /** Removes what the store wrote and closes it (default: remove every listed key, then close). */
  close?: () => Promise<void>;
}

export interface ContractOptions {
  /** Skips the cases (this.skip()) when the backend is not there, saying why. */
  require?: (ctx: Mocha.Context) => Promise<void>;
}

export function keyStoreContract(
  backend: string,
  open: () => Promise<OpenedKeyStore>,
  options: ContractOptions = {},
): void {
  describe(`key store contract: ${backend}`, function () {
    this.timeout(60_000);
    let opened: OpenedKeyStore;
    let store: KeyStore;
    const others: KeyStore[] = [];

    before(async function () {
      await options.require?.(this);
    });
    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      for (const other of others.splice(0)) await other.close();
      if (!opened) return;
      if (opened.close) return opened.close();
      for (const key of await store.list()) await store.remove(key.hash);
      await store.close();
    });

    it('stores the SHA-256 of a key, never the key, and finds it by its value', async () => {
      const stored = await store.add({
        key: 'k_plain_secret_1',
        scope: 'pdf',
        organization: 'acme',
        requestsPerSecond: 3,
      });
      expect(stored.hash).to.equal(hashKey('k_plain_secret_1'));
      expect(stored.id).to.equal(stored.hash.slice(0, 16));
      expect(await opened.raw())
        .to.contain(stored.hash)
        .and.not.contain('k_plain_secret_1');
      const found = await store.find('k_plain_secret_1');
      expect(found).to.include({ scope: 'pdf', organization: 'acme', requestsPerSecond: 3, revoked: false });
      expect(await store.find('k_plain_secret_2')).to.equal(undefined);
      expect(store.isReady()).to.equal(true);
    });

    it('lists, revokes, expires, updates and removes keys by id, hash or value', async () => {
      const a = await store.add({ key: 'k_a', scope: 'all' });
      const b = await store.add({ key: 'k_b', scope: 'png', pagesPerDay: 10 });
      expect((await store.list()).map((k) => k.id).sort()).to.deep.equal([a.id, b.id].sort());
      expect((await store.revoke(a.id))?.revoked).to.equal(true);
      expect((await store.find('k_a'))?.revoked).to.equal(true);
      const at = new Date('2031-02-03T04:05:06Z');
      expect((await store.expire(b.hash, at))?.expiresAt).to.equal(at.toISOString());
      expect((await store.update('k_b', { scope: 'all' }))?.scope).to.equal('all');
      expect(await store.get(b.id.slice(0, 10))).to.include({
        scope: 'all',
        pagesPerDay: 10,
        expiresAt: at.toISOString(),
      });
      expect(await store.remove(a.id)).to.equal(true);
      expect(await store.remove(a.id)).to.equal(false);
      expect(await store.find('k_a')).to.equal(undefined);
      expect(await store.revoke('k_nobody')).to.equal(undefined);
      expect((await store.list()).map((k) => k.id)).to.deep.equal([b.id]);
    });

    it('deletes a field an update sets to undefined, and keeps strings as written', async () => {
      const added = await store.add({
        key: 'k_fields',
        scope: 'all',
        organization: ':colon-first',
        requestsPerSecond: 4,
      });
      const updated = await store.update(added.id, { requestsPerSecond: undefined, organization: ':still' });
      expect(updated).to.not.have.property('requestsPerSecond');
      expect(updated).to.include({ organization: ':still', scope: 'all', revoked: false });
      const found = await store.get(added.hash);
      expect(found).to.not.have.property('requestsPerSecond');
      expect(found).to.include({ organization: ':still', createdAt: added.createdAt });
    });

    it('validates records before storing them', async () => {
      const bad: unknown[] = [
        { key: '', scope: 'all' },
        { key: 'k', scope: 'gif' },
        { key: 'k', scope: 'all', expiresAt: 'someday' },
        { key: 'k', scope: 'all', requestsPerSecond: 0 },
        { key: 'k', scope: 'all', pagesPerDay: 1.5 },
      ];
      for (const record of bad) {
        let error: unknown;
        await store.add(record as never).catch((e: unknown) => {
          error = e;
        });
        expect(error, JSON.stringify(record)).to.be.instanceOf(TypeError);
      }
      expect(await store.list()).to.deep.equal([]);
    });

    it('is seeded from key records, and lists past one page of them', async () => {
      await seedKeys(store, [
        { key: 'k1', scope: 'all' },
        { key: 'k2', scope: 'pdf', revoked: true },
      ]);
      expect((await store.find('k2'))?.revoked).to.equal(true);
      expect(await store.list()).to.have.length(2);
      const many = Array.from({ length: 130 }, (_, i) => ({ key: `k_many_${i}`, scope: 'all' as const }));
      await seedKeys(store, many);
      const listed = await store.list();
      expect(listed).to.have.length(132);
      expect(new Set(listed.map((k) => k.hash)).size).to.equal(132);
    });

    it('a change made through another store on the same data is seen, and never undone by a concurrent one', async function () {
      if (!opened.other) return this.skip(); // one process only: nothing else shares it
      const other = await opened.other();
      others.push(other);
      const added = await store.add({ key: 'k_shared', scope: 'all', pagesPerDay: 5 });
      // Two instances change two fields of one key at once: both changes hold (each is one step in the store).
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 ? store.revoke(added.id) : other.update(added.id, { pagesPerDay: 6 + i }),
        ),
      );
      const final = await other.get(added.id);
      expect(final?.revoked).to.equal(true);
      expect(final?.pagesPerDay).to.be.oneOf([6, 8, 10, 12, 14]);
      expect((await other.find('k_shared'))?.revoked).to.equal(true);
      expect(await other.remove('k_shared')).to.equal(true);
      expect(await store.get(added.hash)).to.equal(undefined);
    });
  });
}
