// Hostile load through the router and a real render pool: a full queue answers 503 with Retry-After and an
// `ERROR: ` text, a client that hangs up takes its render out of the queue (or stops it), and concurrent
// multi-page PDFs cannot take a key's pages per day past its limit by more than one document (in memory
// and in Redis).

import { expect } from 'chai';
import express from 'express';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLegacyRouter,
  createMemoryStores,
  createOpsRouter,
  createRedisStores,
  LEGACY_MOUNT_PATH,
  type KeyRecord,
  type Stores,
} from '../index.js';
import { createRenderPool, type RenderPool } from '../renderer/pool/index.js';
import { eventually, REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';

const KEY_A = 'k_hostile_a';
const KEY_B = 'k_hostile_b';
const KEY_PAGES = 'k_pages_50';
const KEYS: KeyRecord[] = [
  { key: KEY_A, scope: 'all' },
  { key: KEY_B, scope: 'all' },
  { key: KEY_PAGES, scope: 'all', pagesPerDay: 50 },
];
/** Keeps one thread busy for minutes unless stopped: 1000 pages of 15x15 in at 24 dpmm. */
const SLOW = '^XA^FO10,10^GB500,500,250^FS^PQ1000^XZ';
const SLOW_PATH = `${LEGACY_MOUNT_PATH}/printers/24dpmm/labels/15x15`;
const SMALL_PATH = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/1x1/0`;
const TEN_PAGES = '^XA^FO10,10^GB40,40,40^FS^PQ10^XZ';
const PDF_PATH = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/1x1`;

interface Sent {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

async function listen(stores: Stores, pool: RenderPool, logs: string[] = []): Promise<{ server: Server; url: string }> {
  const app = express();
  app.use(createOpsRouter({ keyStore: stores.keyStore, pool }));
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({ ...stores, render: pool.render, maxLabels: 1000, log: (m) => logs.push(m) }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** POSTs `body`; `hangUpWhen` resolving makes the client go away before the answer. */
function post(
  url: string,
  key: string,
  body: string,
  accept = 'image/png',
  hangUpWhen?: Promise<unknown>,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'X-API-Key': key, Accept: accept, 'Content-Type': 'text/plain' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('latin1') }),
        );
      },
    );
    req.on('error', (err) => (hangUpWhen ? resolve({ status: 0, headers: {}, text: String(err) }) : reject(err)));
    req.end(body);
    void hangUpWhen?.then(() => req.destroy());
  });
}

describe('hostile load through the router', function () {
  this.timeout(120_000);
  let stores: Stores;
  beforeEach(async () => {
    stores = createMemoryStores();
    for (const k of KEYS) await stores.keyStore.add(k);
  });

  it('answers 503 with Retry-After and an ERROR: text when the render queue is full, and logs it with request and key', async () => {
    const pool = createRenderPool({ threads: 1, expressThreads: 0, queueLimit: 0, timeoutMs: 60_000 });
    const logs: string[] = [];
    const { server, url } = await listen(stores, pool, logs);
    try {
      const busy = eventually(() => pool.stats().busy === 1);
      const slow = post(
        url + SLOW_PATH,
        KEY_A,
        SLOW,
        'application/pdf',
        busy.then(() => eventually(() => logs.length > 0)),
      );
      await busy;
      const refused = await post(url + SMALL_PATH, KEY_B, '^XA^FO0,0^GB10,10,10^FS^XZ');
      expect(refused.status).to.equal(503);
      expect(refused.headers['retry-after']).to.equal('1');
      expect(refused.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(refused.text).to.equal('ERROR: The renderer is busy (0 renders waiting); retry in 1 s');
      const keyB = (await stores.keyStore.find(KEY_B))!.id;
      expect(logs.join('\n')).to.match(new RegExp(`\\[[0-9a-f-]+\\] render overloaded \\(key ${keyB}\\)`));
      expect((await slow).status).to.equal(0); // the slow client hung up
      expect(await eventually(() => pool.stats().busy === 0, 30_000)).to.equal(true);
    } finally {
      server.close();
      await pool.close();
    }
  });

  it('/readyz reports the real queue: saturated while every thread is busy and nothing more may wait, ready again after', async () => {
    const pool = createRenderPool({ threads: 1, expressThreads: 0, queueLimit: 0, timeoutMs: 60_000 });
    const { server, url } = await listen(stores, pool);
    try {
      const ready = async () => {
        const res = await new Promise<Sent>((resolve, reject) => {
          http
            .get(url + '/readyz', (r) => {
              const chunks: Buffer[] = [];
              r.on('data', (c: Buffer) => chunks.push(c));
              r.on('end', () =>
                resolve({ status: r.statusCode!, headers: r.headers, text: Buffer.concat(chunks).toString() }),
              );
            })
            .on('error', reject);
        });
        return { status: res.status, pool: JSON.parse(res.text).renderPool };
      };
      expect(await ready()).to.deep.include({ status: 200 });
      const busy = eventually(() => pool.stats().busy === 1);
      let hangUp!: () => void;
      const slow = post(
        url + SLOW_PATH,
        KEY_A,
        SLOW,
        'application/pdf',
        new Promise<void>((r) => {
          hangUp = r;
        }),
      );
      await busy;
      const saturated = await ready();
      expect(saturated.status).to.equal(503);
      expect(saturated.pool).to.include({ workers: 1, busy: 1, queueDepth: 0, queueLimit: 0, saturated: true });
      hangUp();
      await slow;
      expect(await eventually(() => pool.stats().busy === 0, 30_000)).to.equal(true);
      expect((await ready()).status).to.equal(200);
    } finally {
      server.close();
      await pool.close();
    }
  });

  it('drops a queued render whose client hung up, and stops a running one, without replacing the worker', async () => {
    const pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 60_000 });
    const { server, url } = await listen(stores, pool);
    try {
      let stopSlow!: () => void;
      const slowGone = new Promise<void>((r) => {
        stopSlow = r;
      });
      const slow = post(url + SLOW_PATH, KEY_A, SLOW, 'application/pdf', slowGone);
      expect(await eventually(() => pool.stats().busy === 1)).to.equal(true);
      const queued = post(
        url + SMALL_PATH,
        KEY_B,
        '^XA^FO0,0^GB10,10,10^FS^XZ',
        'image/png',
        eventually(() => pool.stats().queued === 1),
      );
      expect((await queued).status).to.equal(0);
      expect(await eventually(() => pool.stats().queued === 0)).to.equal(true);
      expect(pool.stats().busy).to.equal(1); // the slow render still runs: only the queued one left
      stopSlow();
      expect((await slow).status).to.equal(0);
      expect(await eventually(() => pool.stats().busy === 0, 30_000)).to.equal(true);
      expect(pool.stats().recycled).to.equal(0);
      const after = await post(url + SMALL_PATH, KEY_B, '^XA^FO0,0^GB10,10,10^FS^XZ');
      expect(after.status).to.equal(200);
    } finally {
      server.close();
      await pool.close();
    }
  });

  describe('pages per day under concurrency', () => {
    let pool: RenderPool;
    before(() => {
      pool = createRenderPool({ threads: 2, timeoutMs: 60_000 });
    });
    after(() => pool.close());

    /** 32 concurrent 10-page PDFs against pagesPerDay 50: what was granted, and what the store holds. */
    async function burst(s: Stores): Promise<{ granted: number; refused: number; used: number; held: number }> {
      const { server, url } = await listen(s, pool);
      try {
        const answers = await Promise.all(
          Array.from({ length: 32 }, () => post(url + PDF_PATH, KEY_PAGES, TEN_PAGES, 'application/pdf')),
        );
        const ok = answers.filter((a) => a.status === 200);
        for (const a of ok) expect(a.headers['x-total-count']).to.equal('10');
        const refused = answers.filter((a) => a.status === 429);
        for (const r of refused)
          expect(JSON.parse(r.text)).to.include({ error: 'rate_limited', limit_type: 'pages_per_day', limit: 50 });
        expect(ok.length + refused.length).to.equal(32);
        const id = (await s.keyStore.find(KEY_PAGES))!.id;
        const day = new Date().toISOString().slice(0, 10);
        return {
          granted: ok.length * 10,
          refused: refused.length,
          used: await s.usageStore.used(`pages:${id}:${day}`),
          held: await s.usageStore.used(`pages:${id}:${day}:held`),
        };
      } finally {
        server.close();
      }
    }

    it('grants at most the limit plus one document (in memory)', async () => {
      const r = await burst(stores);
      expect(r.granted).to.be.within(50, 60);
      expect(r.used).to.equal(r.granted);
      expect(r.held).to.equal(0);
    });

    it('grants at most the limit plus one document (Redis)', async function () {
      await requireRedis(this);
      const namespace = uniqueNamespace();
      const redis = createRedisStores({ url: REDIS_URL, namespace });
      try {
        await redis.connection.connected;
        for (const k of KEYS) await redis.keyStore.add(k);
        const r = await burst(redis);
        expect(r.granted).to.be.within(50, 60);
        expect(r.used).to.equal(r.granted);
        expect(r.held).to.equal(0);
      } finally {
        const keys = await redis.connection.client.keys(`${namespace}*`);
        if (keys.length > 0) await redis.connection.client.del(keys);
        await redis.close();
      }
    });
  });
});
