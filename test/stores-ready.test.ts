// Redis stores at start-up: key management right after createRedisStores() waits for the first connection
// (the docs' snippet used to fail with ClientOfflineError), and an unreachable Redis fails clearly.

import { expect } from 'chai';
import { createRedisStores } from '../index.js';
import {
  freePort,
  REDIS_URL,
  redisServerAvailable,
  requireRedis,
  startRedisServer,
  stopProcess,
  uniqueNamespace,
} from './helpers/http-redis.js';

describe('Redis stores at start-up', function () {
  this.timeout(20_000);

  it('adds and lists keys right after createRedisStores(), before the connection is up', async function () {
    await requireRedis(this);
    const stores = createRedisStores({ url: REDIS_URL, namespace: uniqueNamespace() });
    try {
      expect(stores.connection.isReady()).to.equal(false);
      const added = await stores.keyStore.add({ key: 'k_start_up', scope: 'all' });
      expect((await stores.keyStore.list()).map((k) => k.id)).to.deep.equal([added.id]);
      await stores.ready;
      expect(await stores.keyStore.remove(added.id)).to.equal(true);
    } finally {
      await stores.close();
    }
  });

  it('rejects ready and key management with a clear error when Redis never answers', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const stores = createRedisStores({ url, readyTimeoutMs: 300 });
    try {
      const failure = `Redis at ${url} did not accept a connection within 300 ms`;
      await stores.ready.then(
        () => expect.fail('ready resolved'),
        (err: Error) => expect(err.message).to.equal(failure),
      );
      await stores.keyStore.add({ key: 'k_never', scope: 'all' }).then(
        () => expect.fail('add resolved'),
        (err: Error) => expect(err.message).to.equal(failure),
      );
      expect(stores.keyStore.isReady()).to.equal(false); // requests get 503 at once meanwhile
    } finally {
      await stores.close();
    }
  });

  it('serves key management once a Redis that came up after the wait gave up answers (no rejection that sticks)', async function () {
    if (!(await redisServerAvailable())) this.skip();
    const port = await freePort();
    const stores = createRedisStores({
      url: `redis://127.0.0.1:${port}`,
      readyTimeoutMs: 300,
      maxReconnectDelayMs: 100,
    });
    try {
      await stores.keyStore.add({ key: 'k_too_early', scope: 'all' }).then(
        () => expect.fail('add resolved'),
        (err: Error) => expect(err.message).to.match(/within 300 ms/),
      );
      expect(stores.isReady()).to.equal(false);
      const redis = await startRedisServer(port);
      try {
        await stores.connected; // resolves however late Redis answers
        const added = await stores.keyStore.add({ key: 'k_late_but_fine', scope: 'all' });
        expect((await stores.keyStore.list()).map((k) => k.id)).to.deep.equal([added.id]);
        expect(stores.isReady()).to.equal(true);
      } finally {
        await stopProcess(redis);
      }
    } finally {
      await stores.close();
    }
  });
});
