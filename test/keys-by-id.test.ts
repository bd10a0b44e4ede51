// Keys looked up by id (ANONYMOUS_KEY_ID, zpl-keys <id>) through the id index: one read, never a listing of the
// store per request. With 5,000 keys in Redis and an unknown anonymous id, a key-less flood issues no SCAN, and keyed
// requests are served during and right after it.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import express from 'express';
import { Keyv } from 'keyv';
import { createLegacyRouter, createRedisStores, LEGACY_MOUNT_PATH, type Stores } from '../index.js';
import { KeyvKeyStore } from '../middleware/stores/key-store.js';
import { toStoredKey, type StoredKey } from '../middleware/keys/key-record.js';
import { listen, recordingRender, type Listening } from './helpers/http-app.js';
import {
  freePort,
  redisServerAvailable,
  startRedisServer,
  stopProcess,
  uniqueNamespace,
} from './helpers/http-redis.js';

const PATH = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0`;
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

/** A Keyv on a Map whose listings are counted. */
function countingKeyv(): { keyv: Keyv<StoredKey>; listings: () => number } {
  const keyv = new Keyv<StoredKey>({ store: new Map(), namespace: 'zpl-keys', throwOnErrors: true });
  let listings = 0;
  const iterate = keyv.iterator!.bind(keyv);
  keyv.iterator = ((namespace?: string) => {
    listings++;
    return iterate(namespace);
  }) as typeof keyv.iterator;
  return { keyv, listings: () => listings };
}

describe('keys: looked up by id without listing the store', () => {
  it('finds a key by its id without listing, and an unknown id lists the store once per store object, not per look-up', async () => {
    const { keyv, listings } = countingKeyv();
    const store = new KeyvKeyStore(keyv);
    const added = await store.add({ key: 'k_by_id_0123456789', scope: 'png' });
    expect((await store.get(added.id))?.hash).to.equal(added.hash);
    expect(listings()).to.equal(0);
    for (let i = 0; i < 20; i++) {
      expect(await store.get('ffffffffffffffff')).to.equal(undefined);
      expect((await store.get(added.id))?.hash).to.equal(added.hash);
    }
    expect(listings()).to.equal(1);
    expect((await store.list()).map((k) => k.id)).to.deep.equal([added.id]); // index entries are not keys
  });

  it('indexes records written before the index existed, once, on the first miss', async () => {
    const { keyv, listings } = countingKeyv();
    const old = toStoredKey({ key: 'k_written_by_an_older_release', scope: 'all' });
    await keyv.set(old.hash, old); // as an earlier release stored it: no id entry
    const store = new KeyvKeyStore(keyv);
    expect((await store.get(old.id))?.hash).to.equal(old.hash);
    expect(listings()).to.equal(1);
    for (let i = 0; i < 5; i++) expect(await store.get('eeeeeeeeeeeeeeee')).to.equal(undefined);
    expect((await new KeyvKeyStore(keyv).get(old.id))?.hash).to.equal(old.hash);
    expect(listings()).to.equal(1); // the entry was written: a second store object reads it directly
  });

  it('forgets the id of a removed key', async () => {
    const store = new KeyvKeyStore(countingKeyv().keyv);
    const added = await store.add({ key: 'k_removed_by_id_0123', scope: 'all' });
    expect(await store.remove(added.id)).to.equal(true);
    expect(await store.get(added.id)).to.equal(undefined);
    expect(await store.wasRemoved(added.hash)).to.equal(true);
    await store.add({ key: 'k_removed_by_id_0123', scope: 'all' });
    expect(await store.wasRemoved(added.hash)).to.equal(false); // made again on purpose
    expect((await store.get(added.id))?.hash).to.equal(added.hash);
  });

  describe('5,000 keys in Redis, a key-less flood with an unknown ANONYMOUS_KEY_ID', function () {
    this.timeout(300_000); // bounds a hung run only; nothing here is timed
    let redis: ChildProcess | undefined;
    let stores: Stores & { connection: { client: { sendCommand(args: string[]): Promise<unknown> } } };
    let server: Listening;
    const KEYED = 'k_flood_keyed_0123456789';

    before(async function () {
      // A Redis of our own: INFO commandstats counts every client's commands, and the shared one serves other tests.
      if (!(await redisServerAvailable())) this.skip();
      const port = await freePort();
      redis = await startRedisServer(port);
      stores = createRedisStores({ url: `redis://127.0.0.1:${port}`, namespace: uniqueNamespace() }) as typeof stores;
      await stores.ready;
      const records = Array.from({ length: 5000 }, (_, i) => ({
        key: `k_flood_${i}_${'x'.repeat(20)}`,
        scope: 'all' as const,
      }));
      records.push({ key: KEYED, scope: 'all' });
      for (let i = 0; i < records.length; i += 250)
        await Promise.all(records.slice(i, i + 250).map((r) => stores.keyStore.add(r)));
      const app = express();
      app.use(
        LEGACY_MOUNT_PATH,
        createLegacyRouter({ ...stores, render: recordingRender(), anonymousKey: 'ffffffffffffffff', log: () => {} }),
      );
      server = await listen(app);
    });
    after(async () => {
      server?.close();
      await stores?.close();
      if (redis) await stopProcess(redis);
    });

    const scans = async (): Promise<number> => {
      const info = String(await stores.connection.client.sendCommand(['INFO', 'commandstats']));
      return Number(/cmdstat_scan:calls=(\d+)/.exec(info)?.[1] ?? 0);
    };
    const send = (key?: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: server.port,
            method: 'POST',
            path: PATH,
            agent: false,
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              ...(key !== undefined && { 'X-API-Key': key }),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(ZPL);
      });

    it('issues no SCAN per request, and keyed requests succeed during and right after it', async () => {
      // The first miss indexes records of older releases, one listing per process; look-ups meanwhile are 503.
      let first = 503;
      for (let tries = 0; first === 503 && tries < 1000; tries++) first = await send();
      expect(first).to.equal(401);
      const before = await scans();
      const flood: Promise<number>[] = [];
      const keyed: Promise<number>[] = [];
      for (let i = 0; i < 300; i++) {
        flood.push(send());
        if (i % 10 === 0) keyed.push(send(KEYED));
      }
      const floodStatuses = await Promise.all(flood);
      const keyedStatuses = await Promise.all(keyed);
      const after = [];
      for (let i = 0; i < 5; i++) after.push(await send(KEYED));
      // The store itself, below the router's once-a-second recheck of an anonymous id that matched nothing.
      for (let i = 0; i < 50; i++) expect(await stores.keyStore.get('eeeeeeeeeeeeeeee')).to.equal(undefined);
      const scanned = (await scans()) - before;
      expect(scanned, 'SCANs during the flood').to.equal(0);
      expect(new Set(floodStatuses)).to.deep.equal(new Set([401]));
      expect(new Set(keyedStatuses), 'keyed requests during the flood').to.deep.equal(new Set([200]));
      expect(new Set(after), 'keyed requests right after it').to.deep.equal(new Set([200]));
    });
  });
});
