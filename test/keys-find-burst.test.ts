// A burst of requests with one key asks the store once: concurrent look-ups of one key share the store's answer
// (a burst of 30 after the look-up cache expired was 30 queries on the pool, each judged by the store deadline).

import { expect } from 'chai';
import { Keyv } from 'keyv';
import type { StoredKey } from '../middleware/keys/key-record.js';
import { KeyvKeyStore } from '../middleware/stores/key-store.js';

describe('key look-ups in a burst', () => {
  it('reads the store once for concurrent look-ups of one key, and afresh after a change', async () => {
    const map = new Map<string, unknown>();
    let reads = 0;
    const counting = new Proxy(map, {
      get(target, name) {
        if (name === 'get') reads++;
        const value = Reflect.get(target, name) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = new KeyvKeyStore(new Keyv<StoredKey>({ store: counting, throwOnErrors: true }), { findCacheMs: 0 });
    await store.add({ key: 'k_burst', scope: 'all' });
    reads = 0;
    const found = await Promise.all(Array.from({ length: 30 }, () => store.find('k_burst')));
    expect(found.every((key) => key?.scope === 'all')).to.equal(true);
    expect(reads, 'store reads for 30 concurrent look-ups').to.equal(1);
    const pending = store.find('k_burst');
    await store.revoke('k_burst');
    expect((await store.find('k_burst'))?.revoked, 'a look-up after the change reads it').to.equal(true);
    await pending;
    await store.close();
  });
});
