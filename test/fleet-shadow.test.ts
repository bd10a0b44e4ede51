// One shadow report for the fleet: two replicas in shadow mode on one Redis each show every comparison, at most
// SHADOW_MAX_CASES cases per organization; cases are scoped by organization (a key without one sees its own);
// the file store writes atomically, skips (and logs) a truncated case, and is capped by cases and bytes.

import { expect } from 'chai';
import express, { type Express } from 'express';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import {
  createLegacyRouter,
  createMemoryStores,
  createPreviewRouter,
  createRedisStores,
  FileShadowStore,
  LEGACY_MOUNT_PATH,
  RedisShadowStore,
  type KeyRecord,
  type KeyStore,
  type ServiceEvent,
  type ShadowCaseStore,
  type ShadowOutcome,
  type Stores,
} from '../index.js';
import { recordingRender } from './helpers/http-app.js';
import { REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';
import { startFakeUpstream, UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';
import { boxPng } from './helpers/upstream-png.js';
import { settledCounter } from './helpers/settled-counter.js';

const path = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0`;
const ZPL = '^XA^FO20,20^GB120,60,4^FS^XZ';
const DIVERGENT_PNG = boxPng(20, 20, { x: 0, y: 0, w: 20, h: 20 }); // another size than UPSTREAM_PNG: score 0
const KEYS: KeyRecord[] = [
  { key: 'k_acme_1', scope: 'all', organization: 'acme' },
  { key: 'k_acme_pdf', scope: 'pdf', organization: 'acme' },
  { key: 'k_globex', scope: 'all', organization: 'globex' },
  { key: 'k_loner', scope: 'png' },
  { key: 'k_loner_2', scope: 'png' },
];

interface Replica {
  app: Express;
  events: ServiceEvent[];
}

/** One replica: the legacy router in shadow mode and the report, both on `store`; outcomes go to `settled`. */
function replica(
  stores: Pick<Stores, 'keyStore' | 'usageStore'>,
  store: ShadowCaseStore,
  upstream: FakeUpstream,
  settled: (outcome: ShadowOutcome) => void,
  local: (call: number) => Buffer,
): Replica {
  const events: ServiceEvent[] = [];
  let calls = 0;
  const render = recordingRender();
  const app = express();
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({
      keyStore: stores.keyStore,
      usageStore: stores.usageStore,
      log: () => {},
      render: async (zpl, req) => ({ ...(await render(zpl, req)), body: local(calls++) }),
      mode: 'shadow',
      upstream: { url: upstream.url },
      shadow: { sampleRate: 1, store, onSettled: settled },
    }),
  );
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      shadowStore: store,
      emit: (event) => events.push(event),
      layout: () => {
        throw new Error('no layouts here');
      },
    }),
  );
  return { app, events };
}

async function report(
  app: Express,
  key: string,
): Promise<{
  summary: Record<string, number>;
  cases: { id: string; requestId: string; images: { local: string; upstream: string } }[];
}> {
  const res = await request(app).get('/shadow/cases.json').set('X-API-Key', key);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as never;
}

async function seed(keyStore: KeyStore): Promise<void> {
  for (const record of KEYS) await keyStore.add(record, { ttlMs: 600_000 });
}

describe('one shadow report for the fleet (Redis)', function () {
  this.timeout(120_000);
  let upstream: FakeUpstream;
  let a: Stores & { connection: ReturnType<typeof createRedisStores>['connection'] };
  let b: typeof a;
  let namespace: string;

  before(async function () {
    await requireRedis(this);
  });
  beforeEach(async () => {
    upstream = await startFakeUpstream();
    namespace = uniqueNamespace();
    a = createRedisStores({ url: REDIS_URL, namespace });
    b = createRedisStores({ url: REDIS_URL, namespace });
    await Promise.all([a.ready, b.ready]);
    await seed(a.keyStore);
  });
  afterEach(async () => {
    await upstream.close();
    const keys = await a.connection.client.keys(`${namespace}*`);
    if (keys.length > 0) await a.connection.client.del(keys);
    await Promise.all([a.close(), b.close()]);
  });

  it('shows every comparison of two replicas on either, and keeps no more than maxCases cases, newest first', async () => {
    const counter = settledCounter();
    // Every third label is drawn alike (matched); the rest diverge.
    const local = (call: number): Buffer => (call % 3 === 2 ? UPSTREAM_PNG : DIVERGENT_PNG);
    const one = replica(
      a,
      new RedisShadowStore(a.connection, { namespace, maxCases: 5 }),
      upstream,
      counter.push,
      local,
    );
    const two = replica(
      b,
      new RedisShadowStore(b.connection, { namespace, maxCases: 5 }),
      upstream,
      counter.push,
      local,
    );
    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const requestId = `req-${i}`;
      const res = await request(i % 2 ? two.app : one.app)
        .post(path)
        .set('X-API-Key', 'k_acme_1')
        .set('X-Request-Id', requestId)
        .type('form')
        .send(ZPL);
      expect(res.status).to.equal(200);
      sent.push(requestId);
      await counter.until(i + 1); // one at a time: "newest" is well defined
    }
    const outcomes = counter.outcomes.map((o) => o.outcome);
    const diverged = outcomes.filter((o) => o === 'divergent').length;
    expect(outcomes.filter((o) => o === 'same').length + diverged).to.equal(12);

    const divergentIds = counter.outcomes.filter((o) => o.outcome === 'divergent').map((o) => o.requestId);
    for (const app of [one.app, two.app]) {
      const { summary, cases } = await report(app, 'k_acme_1');
      expect(summary).to.include({ compared: 12, diverged, matched: 12 - diverged, upstreamErrors: 0 });
      expect(cases.map((c) => c.requestId)).to.deep.equal(divergentIds.slice(-5).reverse());
      // Both images of a case made on the other replica, from this one.
      const image = await request(app)
        .get(`/shadow/images/${cases[4]!.images.local}`)
        .set('X-API-Key', 'k_acme_1')
        .buffer(true);
      expect(image.status).to.equal(200);
      expect(Buffer.compare(image.body as Buffer, DIVERGENT_PNG)).to.equal(0);
      const theirs = await request(app)
        .get(`/shadow/images/${cases[4]!.images.upstream}`)
        .set('X-API-Key', 'k_acme_1')
        .buffer(true);
      expect(Buffer.compare(theirs.body as Buffer, UPSTREAM_PNG)).to.equal(0);
    }
    // The dropped cases took their images with them.
    const images = await a.connection.client.hLen(`${namespace}:shadow:{org%3Aacme}:images`);
    expect(images).to.equal(10);
  });

  it('scopes cases by organization: its keys (a pdf-only one too) see them, others do not; a key without one sees its own', async () => {
    const counter = settledCounter();
    const one = replica(
      a,
      new RedisShadowStore(a.connection, { namespace }),
      upstream,
      counter.push,
      () => DIVERGENT_PNG,
    );
    const two = replica(
      b,
      new RedisShadowStore(b.connection, { namespace }),
      upstream,
      counter.push,
      () => DIVERGENT_PNG,
    );
    for (const [i, key] of ['k_acme_1', 'k_globex', 'k_loner'].entries()) {
      expect(
        (
          await request(i % 2 ? two.app : one.app)
            .post(path)
            .set('X-API-Key', key)
            .set('X-Request-Id', `by-${key}`)
            .type('form')
            .send(ZPL)
        ).status,
      ).to.equal(200);
      await counter.until(i + 1);
    }
    const seen = async (key: string): Promise<string[]> => (await report(two.app, key)).cases.map((c) => c.requestId);
    expect(await seen('k_acme_1')).to.deep.equal(['by-k_acme_1']);
    expect(await seen('k_acme_pdf')).to.deep.equal(['by-k_acme_1']); // pdf-only, no Accept: application/pdf
    expect(await seen('k_globex')).to.deep.equal(['by-k_globex']);
    expect(await seen('k_loner')).to.deep.equal(['by-k_loner']);
    expect(await seen('k_loner_2')).to.deep.equal([]);
    expect((await report(two.app, 'k_loner_2')).summary).to.include({ compared: 0 });

    const acmeCase = (await report(one.app, 'k_acme_1')).cases[0]!;
    const image = (key: string) =>
      request(one.app).get(`/shadow/images/${acmeCase.images.local}`).set('X-API-Key', key);
    expect((await image('k_acme_pdf')).status).to.equal(200);
    expect((await image('k_globex')).status).to.equal(404);
    expect((await image('k_loner')).status).to.equal(404);
  });

  it('keeps a case whose images are over the byte cap without them, and drops the oldest when images add up past it', async () => {
    const store = new RedisShadowStore(a.connection, {
      namespace,
      maxBytes: 3 * 4 * Math.ceil(DIVERGENT_PNG.length / 3) + 200,
    });
    const record = (id: string) => ({
      id,
      owner: 'org:acme',
      time: new Date().toISOString(),
      endpoint: 'POST /x',
      requestId: id,
      index: 0,
      labels: { local: 1, upstream: 1 },
      score: 0,
      bytes: { local: 1, upstream: 1 },
      upstreamStatus: 200,
    });
    const big = Buffer.alloc(1_000_000, 7);
    const t = Date.now();
    expect(await store.saveCase(record(`${t}-big`), big, big)).to.equal(undefined);
    for (const [i, id] of ['a', 'b', 'c'].entries())
      await store.saveCase(record(`${t + 1 + i}-${id}`), DIVERGENT_PNG, DIVERGENT_PNG);
    const { cases } = await store.cases('org:acme', 100);
    // Two cases' images fit: the oldest with images went (and the big one, older still, kept none).
    expect(cases.map((c) => c.id)).to.deep.equal([`${t + 3}-c`, `${t + 2}-b`]);
    expect(Buffer.from((await store.image('org:acme', `${t + 3}-c.local.png`))!)).to.deep.equal(DIVERGENT_PNG);
    expect(await store.image('org:acme', `${t + 1}-a.local.png`)).to.equal(undefined);
    expect(await store.image('org:acme', `${t}-big.local.png`)).to.equal(undefined);
  });
});

describe('the shadow file store (one machine)', function () {
  this.timeout(60_000);
  let dir: string;
  let upstream: FakeUpstream;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zpl-shadow-files-'));
    upstream = await startFakeUpstream();
  });
  afterEach(async () => {
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps at most maxCases per organization, oldest first, and leaves no temporary files', async () => {
    const stores = createMemoryStores();
    await seed(stores.keyStore);
    const counter = settledCounter();
    const site = replica(
      stores,
      new FileShadowStore(dir, { maxCases: 3 }),
      upstream,
      counter.push,
      () => DIVERGENT_PNG,
    );
    for (let i = 0; i < 5; i++) {
      await request(site.app)
        .post(path)
        .set('X-API-Key', i === 4 ? 'k_globex' : 'k_acme_1')
        .set('X-Request-Id', `f-${i}`)
        .type('form')
        .send(ZPL);
      await counter.until(i + 1);
    }
    expect((await report(site.app, 'k_acme_1')).cases.map((c) => c.requestId)).to.deep.equal(['f-3', 'f-2', 'f-1']);
    expect((await report(site.app, 'k_acme_1')).summary).to.include({ compared: 4, diverged: 4 });
    expect((await report(site.app, 'k_globex')).cases.map((c) => c.requestId)).to.deep.equal(['f-4']);
    const names = await readdir(dir);
    expect(names.filter((n) => n.endsWith('.json') && n !== 'summary.json')).to.have.length(4);
    expect(names.filter((n) => n.endsWith('.png'))).to.have.length(8);
    expect(names.filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
  });

  it('bounds the bytes kept, oldest cases first', async () => {
    const store = new FileShadowStore(dir, { maxBytes: 2 * 2 * DIVERGENT_PNG.length });
    const record = (id: string) => ({
      id,
      owner: 'key:abc',
      time: new Date().toISOString(),
      endpoint: 'POST /x',
      requestId: id,
      index: 0,
      labels: { local: 1, upstream: 1 },
      score: 0,
      bytes: { local: DIVERGENT_PNG.length, upstream: DIVERGENT_PNG.length },
      upstreamStatus: 200,
    });
    const t = Date.now();
    for (const [i, id] of ['a', 'b', 'c'].entries())
      await store.saveCase(record(`${t + i}-${id}`), DIVERGENT_PNG, DIVERGENT_PNG);
    expect((await store.cases('key:abc', 10)).cases.map((c) => c.id)).to.deep.equal([`${t + 2}-c`, `${t + 1}-b`]);
    expect((await readdir(dir)).filter((n) => n.startsWith(`${t}-`))).to.deep.equal([]);
  });

  it('skips a truncated case file and logs it as a structured event; the rest of the report is served', async () => {
    const stores = createMemoryStores();
    await seed(stores.keyStore);
    const counter = settledCounter();
    const site = replica(stores, new FileShadowStore(dir), upstream, counter.push, () => DIVERGENT_PNG);
    await request(site.app).post(path).set('X-API-Key', 'k_acme_1').set('X-Request-Id', 'whole').type('form').send(ZPL);
    await counter.until(1);
    await writeFile(join(dir, `${Date.now() + 1000}-truncated.json`), '{"requestId":"trunc');
    const res = await request(site.app).get('/shadow/cases.json').set('X-API-Key', 'k_acme_1');
    expect(res.status).to.equal(200);
    expect((res.body as { cases: { requestId: string }[] }).cases.map((c) => c.requestId)).to.deep.equal(['whole']);
    const problem = site.events.find((e) => e.type === 'shadow_problem');
    expect(problem).to.deep.include({ type: 'shadow_problem', problem: 'shadow_case_unreadable' });
    expect((problem as { case?: string }).case).to.match(/^\d+-truncated$/);
  });
});
