// Limits and keys in Redis: two router instances on one Redis hold the limits together, and a Redis
// outage (stopped, hung, or never there) gives a fast 503 that heals by itself.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import express, { type Express } from 'express';
import request from 'supertest';
import { createLegacyRouter, createRedisStores, LEGACY_MOUNT_PATH, type KeyRecord, type UsageStore } from '../index.js';
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
import type { RenderResult } from '../renderer/index.js';

const png = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;
const pdfAll = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6`;
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
const FIXED_NOW = () => new Date(Date.UTC(2026, 5, 1, 12, 0, 0, 100));

type Instance = { app: Express; stores: ReturnType<typeof createRedisStores> };

interface InstanceOptions {
  now?: () => Date;
  result?: Partial<RenderResult>;
  orgRps?: number;
  /**
   * Counts as the fixed clock sees them, whatever the wall clock does: a burst on a loaded machine may span
   * seconds, so no store deadline (503) and per-second windows that Redis keeps for an hour, not 2 s.
   */
  frozen?: boolean;
}

/** The usage store with every per-second window kept for an hour (Redis expires keys by its own clock). */
function longWindows(usageStore: UsageStore): UsageStore {
  return new Proxy(usageStore, {
    get(target, name) {
      if (name === 'hit') return (bucket: string) => target.hit(bucket, 3_600_000);
      const value = Reflect.get(target, name) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function instance(url: string, namespace: string, options: InstanceOptions = {}): Instance {
  const stores = createRedisStores({ url, namespace, maxReconnectDelayMs: 200 });
  const app = express();
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({
      ...stores,
      ...(options.frozen && { usageStore: longWindows(stores.usageStore), storeTimeoutMs: 120_000 }),
      render: recordingRender(options.result),
      log: () => {},
      ...(options.now && { now: options.now }),
      ...(options.orgRps !== undefined && { organizationRequestsPerSecond: options.orgRps }),
    }),
  );
  return { app, stores };
}

const send = (app: Express, key: string, path = png, accept = 'image/png') =>
  request(app).post(path).set('X-API-Key', key).set('Accept', accept).type('form').send(ZPL);

async function dropNamespace(stores: Instance['stores'], namespace: string): Promise<void> {
  const { client } = stores.connection;
  const keys = await client.keys(`${namespace}*`);
  if (keys.length > 0) await client.del(keys);
}

describe('limits and keys in Redis', () => {
  describe('two instances on one Redis', function () {
    this.timeout(120_000); // bursts are awaited to the last answer; the bound only ends a hang
    let namespace: string;
    let a: Instance;
    let b: Instance;
    const keys: KeyRecord[] = [
      { key: 'k_rps5', scope: 'all', requestsPerSecond: 5 },
      { key: 'k_pages7', scope: 'all', pagesPerDay: 7 },
      { key: 'k_org_x', scope: 'all', organization: 'initech' },
      { key: 'k_org_y', scope: 'all', organization: 'initech' },
    ];

    before(async function () {
      await requireRedis(this);
    });
    beforeEach(async () => {
      namespace = uniqueNamespace();
      a = instance(REDIS_URL, namespace, { now: FIXED_NOW, orgRps: 6, frozen: true });
      b = instance(REDIS_URL, namespace, { now: FIXED_NOW, orgRps: 6, frozen: true });
      await Promise.all([a.stores.connection.connected, b.stores.connection.connected]);
      for (const k of keys) await a.stores.keyStore.add(k);
    });
    afterEach(async () => {
      if (!a) return;
      await dropNamespace(a.stores, namespace);
      await Promise.all([a.stores.close(), b.stores.close()]);
    });

    const burst = async (key: string, n: number, path = png, accept = 'image/png'): Promise<number[]> =>
      Promise.all(
        Array.from({ length: n }, (_, i) => send(i % 2 ? b.app : a.app, key, path, accept).then((r) => r.status)),
      );

    it("holds a key's requests per second across both, with concurrent requests", async () => {
      const statuses = await burst('k_rps5', 20);
      expect(statuses.filter((s) => s === 200)).to.have.length(5);
      expect(statuses.filter((s) => s === 429)).to.have.length(15);
    });

    it('holds the organization ceiling across both instances and keys', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          send(i % 2 ? b.app : a.app, i % 4 < 2 ? 'k_org_x' : 'k_org_y').then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 200)).to.have.length(6);
      const refused = await send(a.app, 'k_org_x');
      expect(refused.body).to.include({ limit_type: 'requests_per_sec', limit_scope: 'organization', limit: 6 });
    });

    it('holds pages per day across both, counting every rendered page without losing increments', async () => {
      const statuses = await burst('k_pages7', 20);
      expect(statuses.filter((s) => s === 200)).to.have.length(7);
      const refused = await send(b.app, 'k_pages7');
      expect(refused.status).to.equal(429);
      expect(refused.body).to.include({ limit_type: 'pages_per_day', limit_scope: 'key', limit: 7 });
      expect(refused.headers['x-ratelimit-reset']).to.equal(String(Date.UTC(2026, 5, 2) / 1000));
      const id = (await a.stores.keyStore.find('k_pages7'))!.id;
      expect(await a.stores.usageStore.used(`pages:${id}:2026-06-01`)).to.equal(7);
    });

    it('adds up multi-page PDFs from both instances (soft: the PDF that crosses the limit is rendered whole)', async () => {
      const ns = uniqueNamespace();
      const c = instance(REDIS_URL, ns, { now: FIXED_NOW, result: { pages: 3, totalCount: 3 }, frozen: true });
      const d = instance(REDIS_URL, ns, { now: FIXED_NOW, result: { pages: 3, totalCount: 3 }, frozen: true });
      try {
        await Promise.all([c.stores.connection.connected, d.stores.connection.connected]);
        const sequential = await c.stores.keyStore.add({ key: 'k_pages10', scope: 'all', pagesPerDay: 10 });
        const statuses: number[] = [];
        for (const inst of [c, d, c, d, c])
          statuses.push((await send(inst.app, 'k_pages10', pdfAll, 'application/pdf')).status);
        expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
        expect(await c.stores.usageStore.used(`pages:${sequential.id}:2026-06-01`)).to.equal(12);

        // Concurrent: every page rendered is counted, none lost.
        const concurrent = await c.stores.keyStore.add({ key: 'k_pages_burst', scope: 'all', pagesPerDay: 10 });
        const burst = await Promise.all(
          [c, d, c, d, c, d, c, d].map((inst) =>
            send(inst.app, 'k_pages_burst', pdfAll, 'application/pdf').then((r) => r.status),
          ),
        );
        const rendered = burst.filter((s) => s === 200).length;
        expect(rendered).to.be.at.least(4);
        expect(await c.stores.usageStore.used(`pages:${concurrent.id}:2026-06-01`)).to.equal(3 * rendered);
        expect((await send(d.app, 'k_pages_burst', pdfAll, 'application/pdf')).status).to.equal(429);
      } finally {
        await dropNamespace(c.stores, ns);
        await Promise.all([c.stores.close(), d.stores.close()]);
      }
    });
  });

  describe('Redis outages', function () {
    this.timeout(120_000);
    let port: number;
    let server: ChildProcess | undefined;
    let inst: Instance | undefined;
    const record: KeyRecord = { key: 'k_outage', scope: 'all', requestsPerSecond: 1000, pagesPerDay: 100000 };

    before(async function () {
      if (!(await redisServerAvailable())) {
        console.log('    (redis-server is not installed: skipping the outage cases)');
        this.skip();
      }
    });
    beforeEach(async () => {
      port = await freePort();
    });
    afterEach(async () => {
      if (server) await stopProcess(server);
      server = undefined;
      await inst?.stores.close();
      inst = undefined;
    });

    // Called only while Redis is down or stopped: a request that waited for Redis would hang until the test's
    // timeout, so answering at all is the proof; no wall-clock bound (the machine may be busy).
    async function expectFast503(app: Express): Promise<void> {
      const res = await send(app, record.key);
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({
        error: 'key_store_unavailable',
        message: 'The API key store is not ready; retry shortly.',
      });
    }

    it('answers 503 at once while Redis is stopped, and recovers when it is back', async () => {
      server = await startRedisServer(port);
      inst = instance(`redis://127.0.0.1:${port}`, 'zpl');
      await inst.stores.connection.connected;
      await inst.stores.keyStore.add(record);
      expect((await send(inst.app, record.key)).status).to.equal(200);

      await stopProcess(server);
      expect(await eventually(() => !inst!.stores.connection.isReady())).to.equal(true);
      for (let i = 0; i < 3; i++) await expectFast503(inst.app);

      server = await startRedisServer(port);
      expect(await eventually(() => inst!.stores.connection.isReady())).to.equal(true);
      await inst.stores.keyStore.add(record); // this throw-away server keeps nothing on disk
      expect((await send(inst.app, record.key)).status).to.equal(200);
    });

    it('answers 503 when Redis hangs, and carries on when it answers again', async () => {
      server = await startRedisServer(port);
      inst = instance(`redis://127.0.0.1:${port}`, 'zpl');
      await inst.stores.connection.connected;
      await inst.stores.keyStore.add(record);
      server.kill('SIGSTOP');
      try {
        await expectFast503(inst.app);
      } finally {
        server.kill('SIGCONT');
      }
      expect(await eventually(async () => (await send(inst!.app, record.key)).status === 200)).to.equal(true);
    });

    it('answers 503 when nothing listens yet, and starts serving once Redis appears', async () => {
      inst = instance(`redis://127.0.0.1:${port}`, 'zpl');
      await expectFast503(inst.app);
      server = await startRedisServer(port);
      expect(await eventually(() => inst!.stores.connection.isReady())).to.equal(true);
      await inst.stores.keyStore.add(record);
      expect((await send(inst.app, record.key)).status).to.equal(200);
    });
  });
});
