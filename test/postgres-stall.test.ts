// PostgreSQL through a TCP proxy the test stalls (the shared server is never stopped): connections stay open
// through an idle spell, a connection opened for a request is not judged by the store deadline, and after a stall
// under load every reservation the clients were refused is given back: the pages counted are the pages answered,
// and nothing is held once the holds' lifetime has passed on the counters' clock.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { LEGACY_MOUNT_PATH } from '../middleware/index.js';
import { withDeadline } from '../middleware/stores/deadline.js';
import {
  createPostgresStores,
  type PostgresStores,
  type PostgresStoresOptions,
} from '../middleware/stores/postgres/stores.js';
import type { PostgresUsageStore } from '../middleware/stores/postgres/usage-store.js';
import { storesApp } from './helpers/http-app.js';
import { eventually, uniqueNamespace } from './helpers/http-redis.js';
import { DATABASE_URL, dropSchema, requirePostgres } from './helpers/postgres.js';
import { startTcpProxy, throughProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const png = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
const FIXED = Date.UTC(2026, 5, 1, 12, 0, 0, 100);
const DAY = '2026-06-01';
const KEY = { key: 'k_stall', scope: 'all', pagesPerDay: 1_000_000 } as const;

/** Waits (polling) until `check` holds; fails naming `what` if it never does within the bound. */
async function until(what: string, check: () => Promise<boolean> | boolean, boundMs?: number): Promise<void> {
  expect(await eventually(check, boundMs), what).to.equal(true);
}

/** Resolves after `ms`: a wait whose end is ordered after every timer set before it for less, never a measurement. */
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL through a stalled connection', function () {
  this.timeout(120_000); // only ends a hang
  let proxy: TcpProxy;
  let namespace: string;
  let stores: PostgresStores | undefined;
  let clock = FIXED;

  before(async function () {
    await requirePostgres(this);
  });
  beforeEach(async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(DATABASE_URL).port || 5432) });
    namespace = uniqueNamespace();
    clock = FIXED;
  });
  afterEach(async () => {
    proxy.resume();
    await stores?.close();
    stores = undefined;
    await proxy.close();
    await dropSchema(namespace);
  });

  const open = async (options: Partial<PostgresStoresOptions> = {}): Promise<PostgresStores> => {
    stores = createPostgresStores({
      url: throughProxy(DATABASE_URL, proxy),
      namespace,
      now: () => clock,
      heartbeatMs: 60_000,
      ...options,
    });
    await stores.ready;
    return stores;
  };

  const app = (opened: PostgresStores, storeTimeoutMs: number): Express =>
    storesApp(opened, { now: () => new Date(FIXED), storeTimeoutMs });
  const send = (server: Express) =>
    request(server).post(png).set('X-API-Key', KEY.key).set('Accept', 'image/png').type('form').send(ZPL);

  it('keeps its warm connections open through an idle spell: a burst after it finds them open', async () => {
    const opened = await open({ maxConnections: 12, warmConnections: 10, idleTimeoutMs: 1 });
    expect(opened.connection.pool.totalCount, 'opened before ready').to.equal(10);
    // Twelve at once: two more connections, which close when idle (above the ten kept).
    const removed = new Promise<void>((resolve) => {
      let count = 0;
      opened.connection.pool.on('remove', () => {
        if (++count === 2) resolve();
      });
    });
    await Promise.all(
      Array.from({ length: 12 }, () => opened.connection.query('SELECT pg_sleep(0.05)', [], 'key store')),
    );
    await removed;
    await pause(20); // every idle timer (1 ms) set before this wait has fired
    expect(opened.connection.pool.totalCount, 'kept through the idle spell').to.equal(10);
    expect(proxy.open, 'connections open to the server after it').to.equal(10);
    await opened.keyStore.add(KEY);
    const before = proxy.opened;
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => send(app(opened, 120_000)).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s !== 200)).to.deep.equal([]);
    // The ten were there for it: at most the two the pool may add above them.
    expect(proxy.opened - before, 'connections opened by the burst').to.be.at.most(2);
  });

  it('does not judge a connection opened for a request by the store deadline', async () => {
    const opened = await open({ warmConnections: 0, idleTimeoutMs: 1, connectTimeoutMs: 30_000 });
    await until('no connection open', () => opened.connection.pool.totalCount === 0); // the probe's connection is closed after use
    proxy.stall();
    const connecting = new Promise<void>((resolve) => proxy.events.once('connection', () => resolve()));
    const answer = withDeadline(
      () => opened.connection.query<{ one: number }>('SELECT 1 AS one', [], 'key store'),
      1000,
      'key store',
    );
    await connecting;
    await pause(1500); // past the deadline's own timer: only a paused deadline is still waiting
    proxy.resume();
    expect((await answer).rows).to.deep.equal([{ one: 1 }]);
  });

  it('after a stall under load counts the pages answered, and holds nothing once the holds have expired', async () => {
    const opened = await open({ connectTimeoutMs: 500, heartbeatMs: 100 });
    await opened.keyStore.add(KEY);
    const server = app(opened, 75);
    const id = (await opened.keyStore.find(KEY.key))!.id;
    const usage = opened.usageStore as PostgresUsageStore;
    let answered = 0;
    let refused = 0;
    let stop = false;
    const statuses: number[] = [];
    const worker = async (): Promise<void> => {
      while (!stop) {
        const res = await send(server);
        statuses.push(res.status);
        if (res.status === 200) answered++;
        else if (res.status === 503) refused++;
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await until('20 answered before the stall', () => answered >= 20);
    proxy.stall();
    await until('not ready in the stall', () => !opened.isReady()); // the heartbeat's query timed out: the server counts as gone
    await until('5 refused in the stall', () => refused >= 5);
    proxy.resume();
    await until('ready after the stall', () => opened.isReady());
    const answeredAfter = answered;
    await until('20 answered after the stall', () => answered >= answeredAfter + 20);
    stop = true;
    await Promise.all(workers);
    expect(
      statuses.filter((s) => s !== 200 && s !== 503),
      'only 200 and 503',
    ).to.deep.equal([]);
    expect(refused, 'the stall was felt').to.be.at.least(5);
    // Give-backs of late reservations are applied once the database answers: wait for the count to settle there.
    const counted = async (): Promise<number> => opened.usageStore.used(`pages:${id}:${DAY}`);
    await eventually(async () => usage.pendingCorrections === 0 && (await counted()) === answered, 30_000);
    expect(await counted(), 'pages counted').to.equal(answered);
    clock += 120_000; // the holds' lifetime on the counters' clock
    expect(await opened.usageStore.used(`pages:${id}:${DAY}:held`), 'held after two minutes').to.equal(0);
  });
});
