// Every stored name comes from storeNames(namespace): the default namespace keeps the Redis names of earlier
// releases (keys, revocations and counters survive an upgrade), a Cluster's names carry the hash tags that keep
// what one script touches in one slot, and a namespace that could break a name is refused.

import { expect } from 'chai';
import { DEFAULT_STORE_NAMESPACE } from '../index.js';
import { storeNames } from '../middleware/stores/store-names.js';

describe('store names', () => {
  it('keeps the names of earlier releases in the default namespace (single node, Sentinel)', () => {
    const names = storeNames();
    expect(names.namespace).to.equal(DEFAULT_STORE_NAMESPACE);
    expect([names.keys, names.keyRecord('ab12'), names.seeded]).to.deep.equal([
      'zpl:keys',
      'zpl:keys::ab12',
      'zpl:seeded',
    ]);
    expect([names.usageCounter('rps:k1:17'), names.usageCounter('pages:k1:2026-12-01:held')]).to.deep.equal([
      'zpl:usage:rps:k1:17',
      'zpl:usage:pages:k1:2026-12-01:held',
    ]);
    expect(names.shadow('org:acme')).to.deep.equal({
      index: 'zpl:shadow:{org%3Aacme}:index',
      records: 'zpl:shadow:{org%3Aacme}:records',
      images: 'zpl:shadow:{org%3Aacme}:images',
      summary: 'zpl:shadow:{org%3Aacme}:summary',
    });
    expect(names.printerFeed).to.deep.equal({
      index: 'zpl:printer:{zpl}:index',
      times: 'zpl:printer:{zpl}:times',
      jobs: 'zpl:printer:{zpl}:jobs',
      images: 'zpl:printer:{zpl}:images',
      sizes: 'zpl:printer:{zpl}:sizes',
      bytes: 'zpl:printer:{zpl}:bytes',
      channel: 'zpl:printer:events',
    });
  });

  it('puts every name under its namespace, with one slot per script in a Cluster', () => {
    const names = storeNames('zpl-staging', { hashTags: true });
    expect([names.keys, names.seeded]).to.deep.equal(['{zpl-staging}:keys', '{zpl-staging}:seeded']);
    expect(names.usageCounter('pages:k1:d')).to.equal('zpl-staging:usage:{pages:k1:d}');
    expect(names.usageCounter('pages:k1:d:held')).to.equal('zpl-staging:usage:{pages:k1:d}:held');
    expect(names.shadow('key:0123').index).to.equal('zpl-staging:shadow:{key%3A0123}:index');
    expect(names.printerFeed.jobs).to.equal('zpl-staging:printer:{zpl-staging}:jobs');
  });

  it('refuses a namespace that is empty, too long, or has spaces, braces or slashes', () => {
    for (const bad of ['', 'a b', '{zpl}', 'a/b', 'x'.repeat(64)]) {
      expect(() => storeNames(bad), JSON.stringify(bad)).to.throw('a store namespace must be 1 to 63 letters');
    }
  });
});
