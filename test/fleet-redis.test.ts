// Keys and limits on a real Redis Cluster (3 masters) and a real Sentinel setup (master, replica, 3 Sentinels),
// from Debian's redis-server: two router instances hold every limit exactly, a revocation holds, and a Sentinel
// failover under load gives only 200 and the documented 503, then recovers by itself.

import { expect } from 'chai';
import express, { type Express } from 'express';
import type { Server } from 'node:http';
import request from 'supertest';
import {
  createLegacyRouter,
  createRedisStores,
  LEGACY_MOUNT_PATH,
  seedKeys,
  type KeyRecord,
  type RedisStoresOptions,
} from '../index.js';
import { recordingRender } from './helpers/http-app.js';
import { eventually, uniqueNamespace } from './helpers/http-redis.js';
import { killRedis, sentinelMasterPort, sharedTopology, startTopology, type Topology } from './helpers/redis-fleet.js';

const png = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
const FIXED_NOW = () => new Date(Date.UTC(2026, 5, 1, 12, 0, 0, 100));
const STORE_UNAVAILABLE = { error: 'key_store_unavailable', message: 'The API key store is not ready; retry shortly.' };

type Kind = 'cluster' | 'sentinel';
type Instance = { app: Express; stores: ReturnType<typeof createRedisStores> };

function target(kind: Kind, topology: Topology): Pick<RedisStoresOptions, 'clusterNodes' | 'sentinels'> {
  return kind === 'cluster' ? { clusterNodes: topology.nodes.map((n) => n) } : { sentinels: topology.nodes };
}

function instance(
  kind: Kind,
  topology: Topology,
  namespace: string,
  options: { now?: () => Date; orgRps?: number; storeTimeoutMs?: number } = {},
): Instance {
  const stores = createRedisStores({ ...target(kind, topology), namespace, maxReconnectDelayMs: 200 });
  const app = express();
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({
      ...stores,
      render: recordingRender(),
      log: () => {},
      ...(options.now && { now: options.now }),
      ...(options.orgRps !== undefined && { organizationRequestsPerSecond: options.orgRps }),
      ...(options.storeTimeoutMs !== undefined && { storeTimeoutMs: options.storeTimeoutMs }),
    }),
  );
  return { app, stores };
}

const send = (app: Express | Server, key: string) =>
  request(app).post(png).set('X-API-Key', key).set('Accept', 'image/png').type('form').send(ZPL);

for (const kind of ['cluster', 'sentinel'] as const) {
  describe(`keys and limits on a Redis ${kind === 'cluster' ? 'Cluster (3 masters)' : 'Sentinel setup'}`, function () {
    this.timeout(180_000);
    let topology: Topology | undefined;
    let a: Instance;
    let b: Instance;
    const keys: KeyRecord[] = [
      { key: 'k_rps5', scope: 'all', requestsPerSecond: 5 },
      { key: 'k_pages7', scope: 'all', pagesPerDay: 7 },
      { key: 'k_org_x', scope: 'all', organization: 'initech' },
      { key: 'k_org_y', scope: 'all', organization: 'initech' },
    ];

    before(async function () {
      topology = await sharedTopology(kind);
      if (!topology) this.skip();
    });
    after(async () => {
      await topology?.stop();
    });
    beforeEach(async () => {
      const namespace = uniqueNamespace();
      // A busy machine may answer slowly: these cases count limits, not the store deadline (its 503s are below).
      a = instance(kind, topology!, namespace, { now: FIXED_NOW, orgRps: 6, storeTimeoutMs: 30_000 });
      b = instance(kind, topology!, namespace, { now: FIXED_NOW, orgRps: 6, storeTimeoutMs: 30_000 });
      await Promise.all([a.stores.ready, b.stores.ready]);
      for (const k of keys) await a.stores.keyStore.add(k, { ttlMs: 600_000 });
    });
    afterEach(async () => {
      await Promise.all([a?.stores.close(), b?.stores.close()]);
    });

    const burst = (key: string, n: number): Promise<number[]> =>
      Promise.all(Array.from({ length: n }, (_, i) => send(i % 2 ? b.app : a.app, key).then((r) => r.status)));

    it("holds a key's requests per second exactly across two instances", async () => {
      const statuses = await burst('k_rps5', 20);
      expect(statuses.filter((s) => s === 200)).to.have.length(5);
      expect(statuses.filter((s) => s === 429)).to.have.length(15);
    });

    it('holds the organization ceiling exactly across two instances and two keys', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          send(i % 2 ? b.app : a.app, i % 4 < 2 ? 'k_org_x' : 'k_org_y').then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 200)).to.have.length(6);
      expect((await send(b.app, 'k_org_y')).body).to.include({
        limit_type: 'requests_per_sec',
        limit_scope: 'organization',
        limit: 6,
      });
    });

    it('holds pages per day exactly across two instances (a bucket and its holds in one slot)', async () => {
      const statuses = await burst('k_pages7', 20);
      expect(statuses.filter((s) => s === 200)).to.have.length(7);
      expect(statuses.filter((s) => s === 429)).to.have.length(13);
      const id = (await a.stores.keyStore.find('k_pages7'))!.id;
      expect(await b.stores.usageStore.used(`pages:${id}:2026-06-01`)).to.equal(7);
      expect(await b.stores.usageStore.used(`pages:${id}:2026-06-01:held`)).to.equal(0);
    });

    it('holds a revocation on both instances, also against a re-seeding racing it', async () => {
      expect((await send(b.app, 'k_org_x')).status).to.equal(200);
      await a.stores.keyStore.revoke('k_org_x');
      // b may answer from the record it read just before for up to its find cache (500 ms): then it refuses.
      expect(await eventually(async () => (await send(b.app, 'k_org_x')).status === 401)).to.equal(true);
      expect((await send(a.app, 'k_org_x')).status).to.equal(401);
      // Twenty keys: each revoked on one instance while the other seeds a change of its limits at the same time.
      const records: KeyRecord[] = Array.from({ length: 20 }, (_, i) => ({
        key: `k_race_${i}`,
        scope: 'all',
        pagesPerDay: 10,
      }));
      for (const r of records) await a.stores.keyStore.add(r, { ttlMs: 600_000 });
      await Promise.all([
        seedKeys(
          b.stores.keyStore,
          records.map((r) => ({ ...r, pagesPerDay: 20 })),
        ),
        ...records.map((r) => a.stores.keyStore.revoke(r.key)),
      ]);
      const after = await Promise.all(records.map((r) => b.stores.keyStore.find(r.key)));
      expect(after.map((k) => k?.revoked)).to.deep.equal(records.map(() => true));
      expect(after.map((k) => k?.pagesPerDay)).to.deep.equal(records.map(() => 20));
      const statuses = await Promise.all(
        records.map((r, i) => send(i % 2 ? a.app : b.app, r.key).then((res) => res.status)),
      );
      expect(statuses).to.deep.equal(records.map(() => 401));
      // Listing (zpl-keys list, a revocation by id prefix) finds every key, wherever the cluster put it.
      expect(await b.stores.keyStore.list()).to.have.length(keys.length + records.length);
      expect((await b.stores.keyStore.revoke(after[0]!.id))?.revoked).to.equal(true);
    });
  });
}

describe('a Sentinel failover under load', function () {
  this.timeout(240_000);
  let topology: Topology | undefined;
  const servers: Server[] = [];
  const instances: Instance[] = [];

  before(async function () {
    topology = await startTopology('sentinel'); // our own: its master is killed
    if (!topology) this.skip();
  });
  after(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await Promise.all(instances.map((i) => i.stores.close()));
    await topology?.stop();
  });

  it('answers only 200 or the documented 503 while the master is killed, and recovers by itself within 20 s', async () => {
    const namespace = uniqueNamespace();
    for (let i = 0; i < 2; i++) {
      const inst = instance('sentinel', topology!, namespace);
      instances.push(inst);
      const server = inst.app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      servers.push(server);
    }
    await Promise.all(instances.map((i) => i.stores.ready));
    await instances[0]!.stores.keyStore.add(
      { key: 'k_failover', scope: 'all', pagesPerDay: 1_000_000 },
      { ttlMs: 600_000 },
    );
    // The replica has the key before the master dies (the Sentinel setup replicates asynchronously).
    expect(await eventually(async () => (await send(servers[1]!, 'k_failover')).status === 200)).to.equal(true);

    const answers: { at: number; status: number; body: unknown }[] = [];
    let stop = false;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        const server = servers[(w + i) % servers.length]!;
        const res = await send(server, 'k_failover').then(
          (r) => ({ status: r.status, body: r.body as unknown }),
          (err: Error) => ({ status: 0, body: err.message }),
        );
        answers.push({ at: Date.now(), ...res });
        if (res.status !== 200) await new Promise((r) => setTimeout(r, 20)); // a 503 says retry shortly
      }
    };
    const load = [0, 1, 2, 3].map(worker);
    try {
      expect(await eventually(() => answers.filter((x) => x.status === 200).length >= 20)).to.equal(true);
      const oldMaster = await sentinelMasterPort(topology!.nodes[0]!);
      const killedAt = Date.now();
      await killRedis(topology!, oldMaster);
      // Recovered: the Sentinels name a new master, and 20 answers in a row after that are 200.
      const recovered = await eventually(async () => {
        if ((await sentinelMasterPort(topology!.nodes[0]!).catch(() => oldMaster)) === oldMaster) return false;
        const since = answers.filter((x) => x.at > killedAt);
        const lastFailure = since.map((x) => x.status).lastIndexOf(503);
        return since.length - lastFailure - 1 >= 20;
      }, 60_000);
      expect(recovered, 'recovered after the failover').to.equal(true);
      const since = answers.filter((x) => x.at > killedAt);
      const lastFailure = since.reduce((last, x) => (x.status !== 200 ? x.at : last), killedAt);
      expect(lastFailure - killedAt, 'ms from the kill to the last failure').to.be.below(20_000);
    } finally {
      stop = true;
      await Promise.all(load);
    }
    const kinds = new Set(answers.map((x) => x.status));
    expect(
      [...kinds].filter((s) => s !== 200 && s !== 503),
      'statuses other than 200 and 503',
    ).to.deep.equal([]);
    for (const failure of answers.filter((x) => x.status === 503))
      expect(failure.body).to.deep.equal(STORE_UNAVAILABLE);
  });
});
