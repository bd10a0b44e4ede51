// Seeding keys from API_KEYS_FILE: a restart never undoes a revocation or an expiry made in the store, and a
// Redis that lost its data (restarted without persistence) answers 503 until it is seeded again, never 401.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import express, { type Express } from 'express';
import request from 'supertest';
import {
  createLegacyRouter,
  createRedisStores,
  LEGACY_MOUNT_PATH,
  seedKeys,
  type KeyRecord,
  type KeyStore,
} from '../index.js';
import { createMemoryKeyStore } from '../middleware/stores/memory/key-store.js';
import { recordingRender } from './helpers/http-app.js';
import {
  eventually,
  freePort,
  REDIS_URL,
  redisServerAvailable,
  requireRedis,
  startRedisServer,
  stopProcess,
  uniqueNamespace,
} from './helpers/http-redis.js';
import { startServer, stopServer } from './helpers/server-process.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist', 'bin', 'zpl-keys.js');
const PATH = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0`;
const ZPL = '^XA^FO10,10^GB20,20,20^FS^XZ';

const FILE: KeyRecord[] = [
  { key: 'k_seed_a', scope: 'all', requestsPerSecond: 5, organization: 'acme' },
  { key: 'k_seed_b', scope: 'all', expiresAt: '2999-01-01T00:00:00Z' },
  { key: 'k_seed_c', scope: 'all' },
];

function appOn(keyStore: KeyStore): Express {
  const app = express();
  app.use(LEGACY_MOUNT_PATH, createLegacyRouter({ keyStore, render: recordingRender(), log: () => {} }));
  return app;
}

const send = (app: Express | string, key: string) =>
  request(app).post(PATH).set('X-API-Key', key).type('form').send(ZPL);

function seedingContract(name: string, open: () => Promise<KeyStore>, needsRedis = false): void {
  describe(`seeding a ${name} key store`, () => {
    let store: KeyStore;
    before(async function () {
      if (needsRedis) await requireRedis(this);
    });
    beforeEach(async () => {
      store = await open();
    });
    afterEach(() => store.close());

    it('never brings back a key revoked or expired in the store, however often the file is seeded again', async () => {
      await seedKeys(store, FILE);
      const app = appOn(store);
      expect((await send(app, 'k_seed_a')).status).to.equal(200);
      await store.revoke('k_seed_a');
      await store.expire('k_seed_b', new Date('2020-01-01T00:00:00Z'));

      await seedKeys(store, FILE); // what every instance does when it restarts
      await seedKeys(store, [
        ...FILE,
        { key: 'k_seed_b', scope: 'all', expiresAt: '2999-06-01T00:00:00Z', revoked: false },
      ]);

      expect((await send(app, 'k_seed_a')).body.error).to.equal('invalid_key');
      expect((await send(app, 'k_seed_b')).body.error).to.equal('key_expired');
      expect((await store.find('k_seed_a'))?.revoked).to.equal(true);
      expect((await store.find('k_seed_b'))?.expiresAt).to.equal('2020-01-01T00:00:00.000Z');
      expect((await send(app, 'k_seed_c')).status).to.equal(200);
    });

    it('never brings back a key removed from the store; one made again on purpose is seeded as usual', async () => {
      await seedKeys(store, FILE);
      expect(await store.remove('k_seed_c')).to.equal(true);
      expect((await seedKeys(store, FILE)).length).to.equal(2);
      expect(await store.find('k_seed_c')).to.equal(undefined);
      await store.add({ key: 'k_seed_c', scope: 'png' });
      await store.remove('k_seed_c');
      await store.add({ key: 'k_seed_c', scope: 'png' });
      await seedKeys(store, FILE);
      expect(await store.find('k_seed_c')).to.include({ scope: 'png' });
    });

    it('adds new keys, takes limits from the file, and lets the file tighten but never loosen a stored key', async () => {
      const [first] = await seedKeys(store, FILE);
      await store.update('k_seed_c', { scope: 'pdf' });
      await seedKeys(store, [
        { key: 'k_seed_a', scope: 'png', pagesPerDay: 7 }, // narrower scope, new limits, no organization
        { key: 'k_seed_b', scope: 'all', expiresAt: '2030-01-01T00:00:00Z' }, // earlier expiry
        { key: 'k_seed_c', scope: 'all', revoked: true }, // wider scope (ignored), revoked (applied)
        { key: 'k_seed_new', scope: 'all' },
      ]);
      const a = await store.find('k_seed_a');
      expect(a).to.include({ scope: 'png', pagesPerDay: 7, createdAt: first!.createdAt, revoked: false });
      expect(a).to.not.have.property('requestsPerSecond');
      expect(a).to.not.have.property('organization');
      expect((await store.find('k_seed_b'))?.expiresAt).to.equal('2030-01-01T00:00:00.000Z');
      expect(await store.find('k_seed_c')).to.include({ scope: 'pdf', revoked: true });
      expect((await store.find('k_seed_new'))?.revoked).to.equal(false);
      expect(await store.list()).to.have.length(4);
    });
  });
}

seedingContract('memory', async () => createMemoryKeyStore());

seedingContract(
  'Redis',
  async () => {
    const namespace = uniqueNamespace();
    const stores = createRedisStores({ url: REDIS_URL, namespace });
    await stores.connection.connected;
    const close = stores.keyStore.close.bind(stores.keyStore);
    // Leave nothing behind on the shared server.
    stores.keyStore.close = async () => {
      const keys = await stores.connection.client.keys(`${namespace}*`);
      if (keys.length > 0) await stores.connection.client.del(keys);
      await close();
    };
    return stores.keyStore;
  },
  true,
);

describe('standalone server on Redis: a file-seeded key removed with zpl-keys', function () {
  this.timeout(120_000); // waits end on answers; the bound only ends a hung run
  before(async function () {
    await requireRedis(this);
  });

  it('stays removed across a restart, while the other keys of the file are seeded again', async () => {
    const namespace = uniqueNamespace();
    const dir = await mkdtemp(join(tmpdir(), 'zpl-seed-removed-'));
    const file = join(dir, 'keys.json');
    await writeFile(file, JSON.stringify(FILE));
    const env = { API_KEYS_FILE: file, REDIS_URL, REDIS_NAMESPACE: namespace };
    let server = await startServer(env);
    try {
      expect((await send(server.base, 'k_seed_c')).status).to.equal(200);
      const { stdout } = await run(process.execPath, [
        CLI,
        '--redis',
        REDIS_URL,
        '--namespace',
        namespace,
        'remove',
        'k_seed_c',
      ]);
      expect(stdout).to.match(/^removed k_seed_c/);
      expect(await eventually(async () => (await send(server.base, 'k_seed_c')).status === 401)).to.equal(true);

      expect(await stopServer(server.child)).to.equal(0);
      server = await startServer(env);
      expect((await send(server.base, 'k_seed_a')).status).to.equal(200);
      expect((await send(server.base, 'k_seed_c')).body.error).to.equal('invalid_key');
      expect(server.lines.some((l) => l.includes('API keys stored in Redis: 2'))).to.equal(true);
    } finally {
      await stopServer(server.child);
      const stores = createRedisStores({ url: REDIS_URL, namespace });
      await stores.connection.connected;
      const keys = await stores.connection.client.keys(`${namespace}*`);
      if (keys.length > 0) await stores.connection.client.del(keys);
      await stores.close();
    }
  });
});

describe('a Redis that lost its data (restarted without persistence)', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  const url = (): string => `redis://127.0.0.1:${port}`;

  before(async function () {
    if (!(await redisServerAvailable())) {
      console.log('    (redis-server is not installed: skipping the lost-data cases)');
      this.skip();
    }
  });
  beforeEach(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
  });
  afterEach(async () => {
    if (redis) await stopProcess(redis);
    redis = undefined;
  });

  async function restartRedis(): Promise<void> {
    await stopProcess(redis!);
    redis = await startRedisServer(port);
  }

  it('answers 503 key_store_unavailable, not 401, until the keys are seeded again, and says it needs seeding', async () => {
    const stores = createRedisStores({ url: url(), namespace: 'zpl', maxReconnectDelayMs: 100 });
    try {
      await stores.connection.connected;
      let missing = 0;
      stores.keyStore.onSeedMissing!(() => missing++);
      await seedKeys(stores.keyStore, FILE);
      const app = appOn(stores.keyStore);
      expect((await send(app, 'k_seed_a')).status).to.equal(200);

      await restartRedis();
      expect(await eventually(() => missing === 1)).to.equal(true);
      for (const key of ['k_seed_a', 'k_seed_c']) {
        const res = await send(app, key);
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('key_store_unavailable');
      }
      expect((await send(app, 'k_nobody')).status).to.equal(503);

      await seedKeys(stores.keyStore, FILE);
      expect((await send(app, 'k_seed_a')).status).to.equal(200);
      expect((await send(app, 'k_nobody')).body.error).to.equal('invalid_key');
    } finally {
      await stores.close();
    }
  });

  it('notices a store emptied without a reconnection at the first unknown key', async () => {
    const stores = createRedisStores({ url: url(), namespace: 'zpl' });
    try {
      await stores.connection.connected;
      await seedKeys(stores.keyStore, FILE);
      const app = appOn(stores.keyStore);
      expect((await send(app, 'k_seed_a')).status).to.equal(200);
      await stores.connection.client.flushAll(); // our own throw-away server, never the shared one
      // k_seed_c was never looked up, so the store reads it (k_seed_a's record may be answered from the last
      // half second's read, as if the request had come that much earlier); from then on every key is a 503.
      expect((await send(app, 'k_seed_c')).status).to.equal(503);
      expect((await send(app, 'k_seed_a')).status).to.equal(503);
    } finally {
      await stores.close();
    }
  });

  it('leaves stores that were never seeded alone: keys added directly keep working', async () => {
    const stores = createRedisStores({ url: url(), namespace: 'zpl' });
    try {
      await stores.connection.connected;
      await stores.keyStore.add({ key: 'k_direct', scope: 'all' });
      const app = appOn(stores.keyStore);
      expect((await send(app, 'k_direct')).status).to.equal(200);
      expect((await send(app, 'k_nobody')).body.error).to.equal('invalid_key');
    } finally {
      await stores.close();
    }
  });

  it('standalone server: re-seeds from API_KEYS_FILE by itself, and a key revoked with zpl-keys stays revoked across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zpl-seed-'));
    const file = join(dir, 'keys.json');
    await writeFile(file, JSON.stringify(FILE));
    const env = { API_KEYS_FILE: file, REDIS_URL: url() };
    let server = await startServer(env);
    try {
      expect(await eventually(async () => (await send(server.base, 'k_seed_a')).status === 200)).to.equal(true);
      await run(process.execPath, [CLI, '--redis', url(), 'revoke', 'k_seed_c']);
      expect((await send(server.base, 'k_seed_c')).body.error).to.equal('invalid_key');

      expect(await stopServer(server.child)).to.equal(0);
      server = await startServer(env);
      expect(await eventually(async () => (await send(server.base, 'k_seed_a')).status === 200)).to.equal(true);
      expect((await send(server.base, 'k_seed_c')).body.error).to.equal('invalid_key');

      await restartRedis();
      const statuses = new Set<number>();
      expect(
        await eventually(async () => {
          const status = (await send(server.base, 'k_seed_a')).status;
          statuses.add(status);
          return status === 200 && server.lines.some((l) => /seeded 3 API keys again/.test(l));
        }),
      ).to.equal(true);
      for (const status of statuses) expect(status).to.be.oneOf([200, 503]); // never a 401 for a key in the file
    } finally {
      await stopServer(server.child);
    }
  });
});
