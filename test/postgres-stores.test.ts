// Two router instances on one PostgreSQL, over real HTTP: they hold a key's requests per second, the organization
// ceiling and pages per day exactly between them, see each other's revocations and list each other's shadow
// cases; two namespaces on one database see nothing of each other, and every table a session writes is in its
// namespace's schema. A server that starts late, or goes away and comes back, is used without a restart.

import { expect } from 'chai';
import express, { type Express } from 'express';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import {
  createLegacyRouter,
  createPreviewRouter,
  LEGACY_MOUNT_PATH,
  type KeyRecord,
  type ShadowOutcome,
} from '../middleware/index.js';
import { DEFAULT_FIND_CACHE_MS } from '../middleware/stores/key-store.js';
import { createPostgresStores, type PostgresStores } from '../middleware/stores/postgres/stores.js';
import { PostgresShadowStore } from '../middleware/stores/postgres/shadow-store.js';
import { POSTGRES_TABLES, postgresNames } from '../middleware/stores/postgres/names.js';
import { recordingRender } from './helpers/http-app.js';
import { eventually, freePort, uniqueNamespace } from './helpers/http-redis.js';
import { DATABASE_URL, dropSchema, requirePostgres, sql } from './helpers/postgres.js';
import { canRunPostgresServer, createPostgresServer, type PostgresServer } from './helpers/postgres-server.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';
import { boxPng } from './helpers/upstream-png.js';
import { settledCounter } from './helpers/settled-counter.js';

const png = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;
const shadowPath = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0`;
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
const FIXED = Date.UTC(2026, 5, 1, 12, 0, 0, 100);
const DIVERGENT_PNG = boxPng(20, 20, { x: 0, y: 0, w: 20, h: 20 });

interface Instance {
  app: Express;
  stores: PostgresStores;
}

interface InstanceOptions {
  url?: string;
  upstream?: FakeUpstream;
  onSettled?: (outcome: ShadowOutcome) => void;
}

/**
 * One instance: the legacy router and the shadow report on stores of `namespace`. The router's clock and the
 * counters' clock are fixed, so a burst on a loaded machine counts in one window, however long it takes.
 */
function instance(namespace: string, options: InstanceOptions = {}): Instance {
  const stores = createPostgresStores({ url: options.url ?? DATABASE_URL, namespace, now: () => FIXED });
  const shadowStore = stores.openShadowStore({ maxCases: 50 });
  const app = express();
  const render = recordingRender();
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({
      keyStore: stores.keyStore,
      usageStore: stores.usageStore,
      log: () => {},
      now: () => new Date(FIXED),
      organizationRequestsPerSecond: 6,
      storeTimeoutMs: 120_000,
      ...(options.upstream
        ? {
            render: async (zpl, req) => ({ ...(await render(zpl, req)), body: DIVERGENT_PNG }),
            mode: 'shadow' as const,
            upstream: { url: options.upstream.url },
            shadow: { sampleRate: 1, store: shadowStore, ...(options.onSettled && { onSettled: options.onSettled }) },
          }
        : { render }),
    }),
  );
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      shadowStore,
      emit: () => {},
      layout: () => {
        throw new Error('no layouts here');
      },
    }),
  );
  return { app, stores };
}

const send = (app: Express, key: string, path = png) =>
  request(app).post(path).set('X-API-Key', key).set('Accept', 'image/png').type('form').send(ZPL);

const KEYS: KeyRecord[] = [
  { key: 'k_rps5', scope: 'all', requestsPerSecond: 5 },
  { key: 'k_pages7', scope: 'all', pagesPerDay: 7 },
  { key: 'k_org_x', scope: 'all', organization: 'initech' },
  { key: 'k_org_y', scope: 'all', organization: 'initech' },
  { key: 'k_revoke', scope: 'all' },
  { key: 'k_acme', scope: 'all', organization: 'acme' },
];

describe('two instances on one PostgreSQL', function () {
  this.timeout(120_000); // bursts are awaited to the last answer; the bound only ends a hang
  let namespace: string;
  let a: Instance;
  let b: Instance;
  let upstream: FakeUpstream;
  let counter: ReturnType<typeof settledCounter>;

  before(async function () {
    await requirePostgres(this);
  });
  beforeEach(async () => {
    namespace = uniqueNamespace();
    upstream = await startFakeUpstream();
    counter = settledCounter();
    a = instance(namespace, { upstream, onSettled: counter.push });
    b = instance(namespace, { upstream, onSettled: counter.push });
    await Promise.all([a.stores.ready, b.stores.ready]);
    for (const k of KEYS) await a.stores.keyStore.add(k);
  });
  afterEach(async () => {
    await upstream?.close();
    await Promise.all([a?.stores.close(), b?.stores.close()]);
    if (namespace) await dropSchema(namespace);
  });

  const burst = (key: string, n: number): Promise<number[]> =>
    Promise.all(Array.from({ length: n }, (_, i) => send(i % 2 ? b.app : a.app, key).then((r) => r.status)));

  it("holds a key's requests per second exactly across both, with concurrent requests", async () => {
    const statuses = await burst('k_rps5', 20);
    expect(statuses.filter((s) => s === 200)).to.have.length(5);
    expect(statuses.filter((s) => s === 429)).to.have.length(15);
  });

  it('holds the organization ceiling exactly across both instances and two keys', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        send(i % 2 ? b.app : a.app, i % 4 < 2 ? 'k_org_x' : 'k_org_y').then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).to.have.length(6);
    const refused = await send(a.app, 'k_org_x');
    expect(refused.body).to.include({ limit_type: 'requests_per_sec', limit_scope: 'organization', limit: 6 });
  });

  it('holds pages per day exactly across both, losing no page', async () => {
    const statuses = await burst('k_pages7', 20);
    expect(statuses.filter((s) => s === 200)).to.have.length(7);
    const refused = await send(b.app, 'k_pages7');
    expect(refused.status).to.equal(429);
    expect(refused.body).to.include({ limit_type: 'pages_per_day', limit_scope: 'key', limit: 7 });
    const id = (await a.stores.keyStore.find('k_pages7'))!.id;
    expect(await b.stores.usageStore.used(`pages:${id}:2026-06-01`)).to.equal(7);
    expect(await b.stores.usageStore.used(`pages:${id}:2026-06-01:held`)).to.equal(0);
  });

  it('a revocation on one is refused by the other once its look-up cache time has passed', async () => {
    expect((await send(b.app, 'k_revoke')).status).to.equal(200); // b has read (and caches) the key
    await a.stores.keyStore.revoke('k_revoke');
    expect((await send(a.app, 'k_revoke')).body.error, 'at once where it was revoked').to.equal('invalid_key');
    // Not a speed test: a wait of the cache time (500 ms, well inside 2 s), then the next request must be refused.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_FIND_CACHE_MS));
    const refused = await send(b.app, 'k_revoke');
    expect(refused.status).to.equal(401);
    expect(refused.body.error).to.equal('invalid_key');
  });

  it("each lists the other's shadow cases and serves their images", async () => {
    for (const [i, inst] of [a, b, a].entries()) {
      expect((await send(inst.app, 'k_acme', shadowPath).set('X-Request-Id', `pg-${i}`)).status).to.equal(200);
      await counter.until(i + 1);
    }
    for (const inst of [a, b]) {
      const res = await request(inst.app).get('/shadow/cases.json').set('X-API-Key', 'k_acme');
      expect(res.status).to.equal(200);
      const body = res.body as {
        summary: { compared: number };
        cases: { requestId: string; images: { local: string } }[];
      };
      expect(body.cases.map((c) => c.requestId)).to.deep.equal(['pg-2', 'pg-1', 'pg-0']);
      expect(body.summary.compared).to.equal(3);
      const image = await request(inst.app)
        .get(`/shadow/images/${body.cases[1]!.images.local}`)
        .set('X-API-Key', 'k_acme')
        .buffer(true);
      expect(image.status).to.equal(200);
      expect(Buffer.compare(image.body as Buffer, DIVERGENT_PNG)).to.equal(0);
    }
    const other = await request(b.app).get('/shadow/cases.json').set('X-API-Key', 'k_rps5');
    expect((other.body as { cases: unknown[] }).cases).to.deep.equal([]);
  });
});

describe('two namespaces on one PostgreSQL', function () {
  this.timeout(120_000);
  let database: string;
  let url: string;
  const opened: PostgresStores[] = [];
  let upstream: FakeUpstream;

  before(async function () {
    await requirePostgres(this);
    // A database of our own: every table in it was written by this session, whatever other tests do meanwhile.
    database = `zpl_test_${randomBytes(6).toString('hex')}`;
    await sql(`CREATE DATABASE ${database}`);
    const parsed = new URL(DATABASE_URL);
    parsed.pathname = `/${database}`;
    url = parsed.toString();
    upstream = await startFakeUpstream();
  });
  after(async () => {
    await upstream?.close();
    for (const stores of opened.splice(0)) await stores.close();
    if (database) await sql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it("see nothing of each other's keys, counters or shadow cases, and write only into their own schema", async () => {
    const counter = settledCounter();
    const deployments = ['zpl-prod', 'zpl-staging'].map((namespace) =>
      instance(namespace, { url, upstream, onSettled: counter.push }),
    );
    const [prod, staging] = deployments as [Instance, Instance];
    opened.push(prod.stores, staging.stores);
    await Promise.all([prod.stores.ready, staging.stores.ready]);
    await prod.stores.keyStore.add({ key: 'k_prod_only', scope: 'all' });
    await prod.stores.keyStore.markSeeded!();
    // The printer feed's two tables: a job with one label.
    const printed = { id: '1', time: new Date().toISOString(), client: '127.0.0.1', bytes: 9, labels: 1, warnings: [] };
    await prod.stores.openPrinterFeed().add(printed, [{ index: 0, png: Uint8Array.of(1, 2, 3) }]);
    for (const inst of [prod, staging])
      await inst.stores.keyStore.add({ key: 'k_both', scope: 'all', organization: 'acme', pagesPerDay: 2 });

    expect((await send(staging.app, 'k_prod_only')).body.error).to.equal('invalid_key');
    expect((await send(prod.app, 'k_prod_only')).status).to.equal(200);
    await counter.until(1); // each label answered is compared in shadow mode: one outcome each
    // A shadow case in prod is not staging's, though the organization has the same name.
    expect((await send(prod.app, 'k_both', shadowPath).set('X-Request-Id', 'prod-case')).status).to.equal(200);
    await counter.until(2);
    const listed = async (inst: Instance): Promise<string[]> =>
      (
        (await request(inst.app).get('/shadow/cases.json').set('X-API-Key', 'k_both')).body as {
          cases: { requestId: string }[];
        }
      ).cases.map((c) => c.requestId);
    expect(await listed(staging)).to.deep.equal([]);
    // prod uses up k_both's day; staging's own k_both still has its two pages.
    expect((await send(prod.app, 'k_both').set('X-Request-Id', 'prod-2')).status).to.equal(200);
    expect((await send(prod.app, 'k_both')).status).to.equal(429);
    expect((await send(staging.app, 'k_both').set('X-Request-Id', 'staging-case')).status).to.equal(200);
    await counter.until(4);
    expect(await listed(prod)).to.have.members(['prod-case', 'prod-2']);
    expect(await listed(staging)).to.deep.equal(['staging-case']);

    // Every table with rows in the database: each is in the schema of a namespace, and prod wrote to every one.
    const tables = await sql<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
      [],
      url,
    );
    const written: string[] = [];
    for (const { schema, name } of tables) {
      const [row] = await sql<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."${name}"`, [], url);
      if (Number(row!.n) > 0) written.push(`${schema}.${name}`);
    }
    const everyTable = Object.values(POSTGRES_TABLES);
    expect(
      written.filter((t) => !t.startsWith('zpl-prod.') && !t.startsWith('zpl-staging.')),
      'tables outside the namespaces',
    ).to.deep.equal([]);
    expect(written.filter((t) => t.startsWith('zpl-prod.')).sort()).to.deep.equal(
      everyTable.map((t) => `zpl-prod.${t}`).sort(),
    );
    expect(written.filter((t) => t.startsWith('zpl-staging.'))).to.include.members([
      'zpl-staging.keys',
      'zpl-staging.counters',
    ]);
    // The schema's name is the namespace's, as postgresNames builds it.
    expect(postgresNames('zpl-prod').keys).to.equal('"zpl-prod"."keys"');
  });
});

describe('PostgreSQL late and lost', function () {
  // Two 15-second waits, a server started twice and initdb on a loaded machine; the bound only ends a hang.
  this.timeout(300_000);
  let server: PostgresServer | undefined;
  let stores: PostgresStores | undefined;
  const record: KeyRecord = { key: 'k_outage', scope: 'all', requestsPerSecond: 1000, pagesPerDay: 100_000 };

  before(function () {
    if (!canRunPostgresServer()) {
      console.log('    (no PostgreSQL server programs to start one of our own: skipping the outage cases)');
      this.skip();
    }
  });
  afterEach(async () => {
    await stores?.close();
    await server?.destroy();
    stores = undefined;
    server = undefined;
  });

  // Called only while the server is down: a request that waited for it would hang until the test's timeout, so
  // answering at all is the proof; no wall-clock bound.
  async function expect503(app: Express): Promise<void> {
    const res = await send(app, record.key);
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({
      error: 'key_store_unavailable',
      message: 'The API key store is not ready; retry shortly.',
    });
  }
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  it('is used once it starts 15 s late, and again after it is gone for 15 s, without a restart', async () => {
    const port = await freePort();
    server = await createPostgresServer(port);
    const createdAt = Date.now();
    stores = createPostgresStores({
      url: server.url,
      namespace: 'zpl',
      maxReconnectDelayMs: 200,
      heartbeatMs: 200,
      readyTimeoutMs: 1000,
    });
    const app = express();
    app.use(LEGACY_MOUNT_PATH, createLegacyRouter({ ...stores, render: recordingRender(), log: () => {} }));
    let connected = false;
    void stores.connected.then(() => {
      connected = true;
    });

    expect(stores.isReady()).to.equal(false);
    await expect503(app);
    await stores.ready.then(
      () => expect.fail('ready resolved with no server'),
      (err: Error) => {
        expect(err.message).to.match(
          new RegExp(
            `^PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:${port}/postgres \\(schema "zpl"\\) did not accept a connection within 1000 ms: .*ECONNREFUSED`,
          ),
        );
      },
    );
    await sleep(Math.max(0, createdAt + 15_000 - Date.now())); // nothing listens for 15 s
    await expect503(app);
    expect(connected).to.equal(false);

    await server.start();
    await stores.connected; // resolves however late
    expect(stores.isReady()).to.equal(true);
    expect(Date.now() - createdAt).to.be.at.least(15_000);
    await stores.keyStore.add(record);
    expect((await send(app, record.key)).status).to.equal(200);

    await server.stop();
    expect(await eventually(() => !stores!.isReady())).to.equal(true);
    await expect503(app);
    const stoppedAt = Date.now();
    await sleep(15_000);
    await expect503(app);
    expect(Date.now() - stoppedAt).to.be.at.least(15_000);

    await server.start();
    expect(await eventually(() => stores!.isReady())).to.equal(true);
    // The key store checks its seed marker on each reconnection: the router's gate opens once that is done.
    expect(await eventually(() => stores!.keyStore.isReady())).to.equal(true);
    expect((await send(app, record.key)).status, 'the key kept on disk, served again').to.equal(200);
  });
});

describe('PostgreSQL hung', function () {
  this.timeout(180_000);
  let server: PostgresServer | undefined;
  let stores: PostgresStores | undefined;

  before(function () {
    if (!canRunPostgresServer()) this.skip();
  });
  afterEach(async () => {
    await server?.freeze('SIGCONT').catch(() => undefined);
    await stores?.close();
    await server?.destroy();
    stores = undefined;
    server = undefined;
  });

  it('answers 503 while the server hangs, says it is not ready, and carries on when it answers again', async () => {
    server = await createPostgresServer(await freePort());
    await server.start();
    stores = createPostgresStores({ url: server.url, namespace: 'zpl', maxReconnectDelayMs: 200, heartbeatMs: 200 });
    const app = express();
    app.use(
      LEGACY_MOUNT_PATH,
      createLegacyRouter({ ...stores, render: recordingRender(), log: () => {}, storeTimeoutMs: 1000 }),
    );
    await stores.connected;
    await stores.keyStore.add({ key: 'k_hang', scope: 'all', requestsPerSecond: 1000 });
    expect((await send(app, 'k_hang')).status).to.equal(200);

    await server.freeze('SIGSTOP');
    try {
      // Answered at all while the server hangs: the store deadline, then readiness, turn it into a 503.
      const res = await send(app, 'k_other_key');
      expect(res.status).to.equal(503);
      expect(await eventually(() => !stores!.isReady()), 'the heartbeat notices').to.equal(true);
      expect((await send(app, 'k_hang')).status).to.equal(503);
    } finally {
      await server.freeze('SIGCONT');
    }
    expect(await eventually(async () => (await send(app, 'k_hang')).status === 200)).to.equal(true);
  });
});

describe('PostgreSQL schema and seeding', function () {
  this.timeout(120_000);
  let namespace: string;
  const opened: PostgresStores[] = [];

  before(async function () {
    await requirePostgres(this);
  });
  beforeEach(() => {
    namespace = uniqueNamespace();
  });
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.close();
    await dropSchema(namespace);
  });

  const open = (options: { requireSeed?: boolean; log?: (message: string) => void } = {}): PostgresStores => {
    const stores = createPostgresStores({ url: DATABASE_URL, namespace, maxReconnectDelayMs: 200, ...options });
    opened.push(stores);
    return stores;
  };

  it('creates the schema once when six instances start at once, each of them ready without an error', async () => {
    const messages: string[] = [];
    const all = Array.from({ length: 6 }, () => open({ log: (m) => messages.push(m) }));
    await Promise.all(all.map((s) => s.ready));
    expect(all.every((s) => s.isReady())).to.equal(true);
    expect(messages).to.deep.equal([]);
    const tables = await sql<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [namespace],
    );
    expect(tables.map((t) => t.name)).to.deep.equal(Object.values(POSTGRES_TABLES).sort());
  });

  it('sweeps shadow cases and summaries past their retention, of owners that stopped saving too', async () => {
    const stores = open();
    await stores.ready;
    let time = Date.UTC(2026, 5, 1);
    const shadow = new PostgresShadowStore(stores.connection, { ttlMs: 60_000, now: () => time });
    const record = (owner: string, id: string) => ({
      id: `${time}-${id}`,
      owner,
      time: new Date(time).toISOString(),
      endpoint: 'POST /x',
      requestId: id,
      index: 0,
      labels: { local: 1, upstream: 1 },
      score: 0,
      bytes: { local: 1, upstream: 1 },
      upstreamStatus: 200,
    });
    await shadow.saveCase(record('org:old', 'a'), Buffer.from('l'), Buffer.from('u'));
    await shadow.tally('org:old', { requestId: 'a', outcome: 'same', score: 1 });
    time += 50_000;
    await shadow.saveCase(record('org:new', 'b'), Buffer.from('l'), Buffer.from('u'));
    await shadow.tally('org:new', { requestId: 'b', outcome: 'same', score: 1 });
    time += 20_000; // org:old's case and summary are 70 s old, org:new's 20 s
    const rows = async (table: string): Promise<string[]> =>
      (await sql<{ owner: string }>(`SELECT owner FROM "${namespace}"."${table}" ORDER BY owner`)).map((r) => r.owner);
    expect(await rows(POSTGRES_TABLES.shadowCases)).to.deep.equal(['org:new', 'org:old']);
    expect(await shadow.sweep()).to.equal(2);
    expect(await rows(POSTGRES_TABLES.shadowCases)).to.deep.equal(['org:new']);
    expect(await rows(POSTGRES_TABLES.shadowSummaries)).to.deep.equal(['org:new']);
    expect((await shadow.cases('org:new', 10)).summary.compared).to.equal(1);
  });

  it('with requireSeed, answers not ready until seeded; a schema lost after seeding is made again and waits for a seeding', async () => {
    const stores = open({ requireSeed: true });
    await stores.connected;
    expect(stores.keyStore.isReady(), 'no seeding yet').to.equal(false);
    await stores.keyStore.add({ key: 'k_seeded', scope: 'all' });
    await stores.keyStore.markSeeded!();
    expect(stores.keyStore.isReady()).to.equal(true);
    expect((await stores.keyStore.find('k_seeded'))?.scope).to.equal('all');

    let missing = 0;
    stores.keyStore.onSeedMissing!(() => {
      missing++;
    });
    await dropSchema(namespace); // the database lost everything (restored empty, or dropped by hand)
    // The next look-up fails (503) and the store sets its schema up again, then finds the seeding gone.
    await stores.keyStore.find('k_unknown').then(
      () => undefined,
      () => undefined,
    );
    expect(await eventually(() => missing > 0)).to.equal(true);
    expect(stores.isReady(), 'the database answers').to.equal(true);
    expect(stores.keyStore.isReady(), 'but the keys are gone: not ready until seeded').to.equal(false);
    await stores.keyStore.add({ key: 'k_seeded', scope: 'all' });
    await stores.keyStore.markSeeded!();
    expect(stores.keyStore.isReady()).to.equal(true);
  });
});

describe('PostgreSQL names', () => {
  it('puts every table of a namespace in a schema of that name, quoted, and refuses a namespace it cannot name', () => {
    const names = postgresNames('Zpl-Staging.eu:1');
    expect(names.schema).to.equal('"Zpl-Staging.eu:1"');
    expect(names.counters).to.equal('"Zpl-Staging.eu:1"."counters"');
    expect(names.reserve).to.equal('"Zpl-Staging.eu:1"."usage_reserve"');
    for (const bad of ['', 'a"b', 'zpl; DROP TABLE x', 'a'.repeat(64), 'é']) {
      expect(() => createPostgresStores({ url: DATABASE_URL, namespace: bad }), JSON.stringify(bad)).to.throw(
        /a store namespace must be 1 to 63 letters/,
      );
    }
  });
});
