// The operations router in process: probes, metrics fed by the legacy router's events, registries that do not
// collide, structured logs through a host's logger, and CORS.

import { Writable } from 'node:stream';
import { expect } from 'chai';
import express, { type Express } from 'express';
import { Registry } from 'prom-client';
import request from 'supertest';
import {
  createEventSink,
  createLegacyRouter,
  createLogger,
  createMemoryStores,
  createOpsRouter,
  LEGACY_MOUNT_PATH,
  type EventSink,
  type KeyStore,
  type LegacyRouterOptions,
  type RenderFunction,
  type RenderPoolStats,
  type ServiceEvent,
} from '../middleware/index.js';
import { createMemoryKeyStore } from '../middleware/stores/memory/key-store.js';
import { MemoryUsageStore } from '../middleware/stores/memory/usage-store.js';
import { RenderError } from '../renderer/index.js';
import { KEY_RECORDS, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';
import { startFakeUpstream } from './helpers/upstream-fake.js';

const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
const idle: RenderPoolStats = { threads: 2, busy: 0, queued: 0, recycled: 3, queueLimit: 4 };

/** An app as the standalone server builds it: ops at the root, the legacy router on its prefix, one sink. */
async function opsApp(
  options: Partial<LegacyRouterOptions> & { pool?: () => RenderPoolStats; registry?: Registry } = {},
) {
  const stores = createMemoryStores();
  for (const record of [...KEY_RECORDS, { key: 'k_limited', scope: 'all' as const, pagesPerDay: 1 }])
    await stores.keyStore.add(record);
  const events = createEventSink();
  const keyStore = options.keyStore ?? stores.keyStore;
  const ops = createOpsRouter({
    keyStore,
    events,
    pool: options.pool ?? (() => idle),
    ...(options.registry && { registry: options.registry }),
  });
  const app = express();
  app.use(ops);
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({ ...stores, keyStore, render: recordingRender(), log: () => {}, events, ...options }),
  );
  return { app, ops, events };
}

/** The value of one sample in Prometheus text, e.g. `zpl_rate_limited_total{limit_type="pages_per_day",limit_scope="key"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const post = (app: Express, key?: string) => {
  const req = request(app)
    .post(labelsPath('8dpmm', '4x6', '0'))
    .type('form');
  return key ? req.set('X-API-Key', key) : req;
};

describe('ops router', () => {
  describe('probes', () => {
    it('/healthz answers 200 JSON with version, key store readiness, workers and queue depth; no key needed', async () => {
      const { app } = await opsApp();
      const res = await request(app).get('/healthz');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body).to.deep.include({ status: 'ok', keyStore: { ready: true } });
      expect(res.body.version).to.match(/^\d+\.\d+\.\d+/);
      expect(res.body.renderPool).to.deep.equal({
        workers: 2,
        busy: 0,
        queueDepth: 0,
        queueLimit: 4,
        recycled: 3,
        saturated: false,
      });
    });

    it('/readyz is 503 while the key store is not ready, and /healthz still 200', async () => {
      let ready = false;
      const keyStore: KeyStore = Object.assign(createMemoryKeyStore(), { isReady: () => ready });
      const { app } = await opsApp({ keyStore });
      const down = await request(app).get('/readyz');
      expect(down.status).to.equal(503);
      expect(down.body).to.deep.include({
        status: 'not_ready',
        reasons: ['key store not ready'],
        keyStore: { ready: false },
      });
      expect((await request(app).get('/healthz')).status).to.equal(200);
      ready = true;
      const up = await request(app).get('/readyz');
      expect(up.status).to.equal(200);
      expect(up.body).to.deep.include({ status: 'ready', keyStore: { ready: true } });
    });

    it('/readyz is 503 while the render pool is saturated (queued >= queueLimit)', async () => {
      let stats = { ...idle, busy: 2, queued: 4 };
      const { app } = await opsApp({ pool: () => stats });
      const res = await request(app).get('/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.reasons).to.deep.equal(['render pool saturated']);
      expect(res.body.renderPool).to.include({ busy: 2, queueDepth: 4, saturated: true });
      stats = { ...idle, busy: 2, queued: 3 };
      expect((await request(app).get('/readyz')).status).to.equal(200);
    });

    it('/readyz stays 200 on a saturated pool with readyWhenSaturated, and still reports the saturation', async () => {
      const stats = { ...idle, busy: 2, queued: 4 };
      const app = express().use(
        createOpsRouter({ keyStore: createMemoryKeyStore(), pool: () => stats, readyWhenSaturated: true }),
      );
      const res = await request(app).get('/readyz');
      expect(res.status).to.equal(200);
      expect(res.body).to.not.have.property('reasons');
      expect(res.body.renderPool).to.include({ busy: 2, queueDepth: 4, saturated: true });
    });

    it('reads the current RenderPool (threads, recycled) when it has no stats()', async () => {
      const app = express().use(
        createOpsRouter({ keyStore: createMemoryKeyStore(), pool: { threads: 3, recycled: 1 } }),
      );
      const res = await request(app).get('/readyz');
      expect(res.status).to.equal(200);
      expect(res.body.renderPool).to.deep.equal({
        workers: 3,
        busy: 0,
        queueDepth: 0,
        queueLimit: null,
        recycled: 1,
        saturated: false,
      });
    });

    it('leaves every other path to the next handler (the legacy router still wants its key)', async () => {
      const { app } = await opsApp();
      const res = await post(app).send(ZPL);
      expect(res.status).to.equal(401);
      expect((await request(app).get('/nothing-here')).status).to.equal(404);
    });
  });

  describe('metrics', () => {
    it('counts requests by route and status, renders by dpmm and format, labels, pages, 429s and 503s by cause', async () => {
      const { app } = await opsApp({ render: recordingRender({ totalCount: 3, pages: 1 }) });
      for (let i = 0; i < 2; i++) expect((await post(app, KEYS.all).send(ZPL)).status).to.equal(200);
      expect((await post(app, 'k_limited').send(ZPL)).status).to.equal(200);
      expect((await post(app, 'k_limited').send(ZPL)).status).to.equal(429);
      expect((await post(app, 'nope').send(ZPL)).status).to.equal(401);
      const res = await request(app).get('/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
      const text = res.text;
      const route = '/printers/{dpmm}/labels/{dimensions}/{index}';
      expect(sample(text, `zpl_http_requests_total{route="${route}",method="POST",status="200"}`)).to.equal(3);
      expect(sample(text, `zpl_http_requests_total{route="${route}",method="POST",status="429"}`)).to.equal(1);
      expect(sample(text, `zpl_http_requests_total{route="${route}",method="POST",status="401"}`)).to.equal(1);
      expect(sample(text, 'zpl_render_duration_seconds_count{dpmm="8",format="png"}')).to.equal(3);
      expect(sample(text, 'zpl_render_duration_seconds_bucket{le="+Inf",dpmm="8",format="png"}')).to.equal(3);
      expect(sample(text, 'zpl_labels_total{format="png"}')).to.equal(9);
      expect(sample(text, 'zpl_pages_rendered_total{format="png"}')).to.equal(3);
      expect(sample(text, 'zpl_rate_limited_total{limit_type="pages_per_day",limit_scope="key"}')).to.equal(1);
      expect(sample(text, 'zpl_rate_limited_total{limit_type="requests_per_sec",limit_scope="key"}')).to.equal(0);
      expect(sample(text, 'zpl_refused_total{status="401",error="invalid_key"}')).to.equal(1);
      expect(sample(text, 'zpl_key_store_ready')).to.equal(1);
      expect(sample(text, 'zpl_render_pool_workers')).to.equal(2);
      expect(sample(text, 'zpl_render_pool_recycled_workers')).to.equal(3);
      expect(text).to.contain('process_cpu_user_seconds_total');
    });

    it("counts waiting for a render thread apart from rendering (the render's started hook ends the wait)", async () => {
      const fake = recordingRender();
      /** Waits about 60 ms; resolves with the wait as performance.now() measured it (timers may fire a little early). */
      const wait = async (): Promise<number> => {
        const from = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 60));
        return performance.now() - from;
      };
      let waited = 0;
      const queued: RenderFunction = async (zpl, req, hooks) => {
        waited = await wait(); // in a queue
        hooks?.started?.();
        return fake(zpl, req);
      };
      const { app, events } = await opsApp({ render: queued });
      const lines: ServiceEvent[] = [];
      events.subscribe((e) => {
        if (e.type === 'request_done') lines.push(e);
      });
      expect((await post(app, KEYS.all).send(ZPL)).status).to.equal(200);
      const text = (await request(app).get('/metrics')).text;
      // The router's clock starts before the render function is called and stops after started(); ms kept to hundredths.
      expect(sample(text, 'zpl_render_queue_seconds_count{dpmm="8",format="png"}')).to.equal(1);
      expect(sample(text, 'zpl_render_queue_seconds_sum{dpmm="8",format="png"}')).to.be.at.least(
        (waited - 0.01) / 1000,
      );
      expect(sample(text, 'zpl_render_duration_seconds_count{dpmm="8",format="png"}')).to.equal(1);
      expect(lines[0]).to.include.keys('queuedMs', 'renderMs');
      expect((lines[0] as { queuedMs: number }).queuedMs).to.be.at.least(waited - 0.01);

      // A render function that never says when it started counts its whole time as rendering.
      const plain = await opsApp({
        render: async (zpl, req) => {
          waited = await wait();
          return fake(zpl, req);
        },
      });
      expect((await post(plain.app, KEYS.all).send(ZPL)).status).to.equal(200);
      const plainText = (await request(plain.app).get('/metrics')).text;
      expect(sample(plainText, 'zpl_render_queue_seconds_sum{dpmm="8",format="png"}')).to.equal(0);
      expect(sample(plainText, 'zpl_render_duration_seconds_sum{dpmm="8",format="png"}')).to.be.at.least(
        (waited - 0.01) / 1000,
      );
    });

    it('counts 503s by cause: key store, and an overloaded render pool', async () => {
      const notReady: KeyStore = Object.assign(createMemoryKeyStore(), { isReady: () => false });
      const { app, events } = await opsApp({ keyStore: notReady });
      expect((await post(app, KEYS.all).send(ZPL)).status).to.equal(503);
      const text = (await request(app).get('/metrics')).text;
      expect(sample(text, 'zpl_unavailable_total{cause="key_store"}')).to.equal(1);
      expect(sample(text, 'zpl_key_store_ready')).to.equal(0);

      const usageDown = Object.assign(new MemoryUsageStore(), { isReady: () => false });
      const { app: counting } = await opsApp({ usageStore: usageDown });
      expect((await post(counting, 'k_limited').send(ZPL)).status).to.equal(503);
      expect(
        sample((await request(counting).get('/metrics')).text, 'zpl_unavailable_total{cause="usage_store"}'),
      ).to.equal(1);

      // The render pool's 'overloaded' refusal (CONTRACTS.md, branch i16a) reaches the metrics as its event.
      events.emit({ type: 'overloaded', requestId: 'r1', message: 'Render queue is full' });
      expect(sample((await request(app).get('/metrics')).text, 'zpl_unavailable_total{cause="overloaded"}')).to.equal(
        1,
      );
    });

    it('counts render timeouts, shadow results and fallback forwards by command from their events', async () => {
      const timeout = new RenderError('timeout', 'Rendering took longer than 5 ms and was stopped');
      const { app, events } = await opsApp({ render: recordingRender({}, () => timeout) });
      expect((await post(app, KEYS.all).send(ZPL)).status).to.equal(500);
      events.emit({ type: 'shadow_result', requestId: 'a', outcome: 'matched', score: 1 });
      events.emit({ type: 'shadow_result', requestId: 'b', outcome: 'upstream_error', reason: 'answered 500' });
      events.emit({
        type: 'fallback_forward',
        requestId: 'c',
        reason: 'unsupported ^QQ ^BD',
        commands: ['^QQ', '^BD'],
      });
      events.emit({ type: 'fallback_forward', requestId: 'd', reason: 'unsupported ^QQ', commands: ['^QQ'] });
      const text = (await request(app).get('/metrics')).text;
      expect(sample(text, 'zpl_render_timeouts_total')).to.equal(1);
      expect(sample(text, 'zpl_shadow_comparisons_total{result="matched"}')).to.equal(1);
      expect(sample(text, 'zpl_shadow_comparisons_total{result="diverged"}')).to.equal(0);
      expect(sample(text, 'zpl_shadow_comparisons_total{result="upstream_error"}')).to.equal(1);
      expect(sample(text, 'zpl_fallback_forwards_total{command="^Q*"}')).to.equal(2);
      expect(sample(text, 'zpl_fallback_forwards_total{command="^B*"}')).to.equal(1);
    });

    it('counts fallback forwards by command and upstream failures from real forwards', async () => {
      const upstream = await startFakeUpstream();
      try {
        const { app } = await opsApp({
          mode: 'fallback',
          upstream: { url: upstream.url },
          render: recordingRender({ unsupported: ['^QQ'] }),
        });
        expect((await post(app, KEYS.all).send(ZPL)).headers['x-renderer']).to.equal('upstream');
        const pdf = await request(app)
          .post(labelsPath('8dpmm', '4x6', '0'))
          .set('X-API-Key', KEYS.all)
          .set('Accept', 'application/pdf')
          .set('X-Page-Size', 'letter')
          .type('form')
          .send(ZPL);
        expect(pdf.headers['x-renderer']).to.equal('upstream');
        const { app: orphan } = await opsApp({
          mode: 'proxy',
          upstream: { url: 'http://127.0.0.1:9/compatibility/legacy/v1', timeoutMs: 2000 },
        });
        expect((await post(orphan, KEYS.all).send(ZPL)).status).to.equal(502);
        const text = (await request(app).get('/metrics')).text;
        expect(sample(text, 'zpl_fallback_forwards_total{command="^Q*"}')).to.equal(1);
        expect(sample(text, 'zpl_fallback_forwards_total{command="page-composition"}')).to.equal(1);
        expect(sample((await request(orphan).get('/metrics')).text, 'zpl_upstream_failures_total')).to.equal(1);
      } finally {
        await upstream.close();
      }
    });

    it("keeps a registry per ops router (two in one process do not collide), or uses the host's", async () => {
      const first = await opsApp();
      const second = await opsApp();
      await post(first.app, KEYS.all).send(ZPL);
      const route =
        'zpl_http_requests_total{route="/printers/{dpmm}/labels/{dimensions}/{index}",method="POST",status="200"}';
      expect(sample((await request(first.app).get('/metrics')).text, route)).to.equal(1);
      expect(sample((await request(second.app).get('/metrics')).text, route)).to.equal(undefined);

      const registry = new Registry();
      const hosted = await opsApp({ registry });
      expect(hosted.ops.registry).to.equal(registry);
      await post(hosted.app, KEYS.all).send(ZPL);
      expect(sample(await registry.metrics(), route)).to.equal(1);
      expect(await registry.metrics()).to.not.contain('process_cpu_user_seconds_total');
    });
  });

  describe('structured logs', () => {
    /** A pino logger at `level` writing into `lines`. */
    const capture = (level: 'info' | 'debug' | 'warn' = 'info') => {
      const lines: Array<Record<string, unknown>> = [];
      const destination = new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      });
      return {
        lines,
        logger: createLogger({ level, destination: { write: (line: string) => destination.write(line) } }),
      };
    };
    const withLogger = async (
      logger: ReturnType<typeof createLogger>,
      events?: EventSink,
      extra: Partial<LegacyRouterOptions> = {},
    ) => {
      const stores = createMemoryStores();
      for (const record of KEY_RECORDS) await stores.keyStore.add(record);
      return express().use(
        LEGACY_MOUNT_PATH,
        createLegacyRouter({
          ...stores,
          render: recordingRender({ totalCount: 2 }),
          logger,
          ...(events && { events }),
          ...extra,
        }),
      );
    };

    it('writes one access line per request with request id, key id (never the key), route, status, labels, pages, render ms, bytes', async () => {
      const { lines, logger } = capture();
      const app = await withLogger(logger);
      await post(app, KEYS.all).set('X-Request-Id', 'req-ok').send(ZPL);
      await post(app, 'k_secret_unknown').set('X-Request-Id', 'req-bad').send(ZPL);
      const access = lines.filter((l) => l.event === 'request');
      expect(access.map((l) => l.requestId)).to.deep.equal(['req-ok', 'req-bad']);
      expect(access[0]).to.include({
        level: 'info',
        method: 'POST',
        route: '/printers/{dpmm}/labels/{dimensions}/{index}',
        status: 200,
        labels: 2,
        pages: 1,
        bytes: 'fake-png'.length,
        renderer: 'local',
        msg: 'request completed',
      });
      expect(access[0]!.keyId).to.match(/^[0-9a-f]{16}$/);
      expect(access[0]!.renderMs).to.be.a('number');
      expect(access[1]).to.include({ status: 401 });
      expect(lines.find((l) => l.event === 'refused')).to.include({
        requestId: 'req-bad',
        status: 401,
        error: 'invalid_key',
      });
      const all = JSON.stringify(lines);
      expect(all).to.not.contain(KEYS.all);
      expect(all).to.not.contain('k_secret_unknown');
    });

    it('logs render timeouts and unexpected failures as lines of their own', async () => {
      const { lines, logger } = capture();
      const timeout = new RenderError('timeout', 'Rendering took longer than 5 ms and was stopped');
      const app = await withLogger(logger, undefined, { render: recordingRender({}, () => timeout) });
      await post(app, KEYS.all).set('X-Request-Id', 'slow').send(ZPL);
      expect(lines.find((l) => l.event === 'render_timeout')).to.include({
        level: 'warn',
        requestId: 'slow',
        msg: timeout.message,
      });
      const failing = await withLogger(logger, undefined, { render: recordingRender({}, () => new Error('boom')) });
      await post(failing, KEYS.all).set('X-Request-Id', 'boom').send(ZPL);
      const failure = lines.find((l) => l.event === 'unexpected_failure');
      expect(failure).to.include({ level: 'error', requestId: 'boom' });
      expect(String(failure!.detail)).to.contain('Error: boom');
    });

    it('follows the level: at warn there are no access lines, and ops probes are debug lines', async () => {
      const quiet = capture('warn');
      await post(await withLogger(quiet.logger), KEYS.all).send(ZPL);
      expect(quiet.lines).to.deep.equal([]);

      const verbose = capture('debug');
      const events = createEventSink();
      const app = express().use(createOpsRouter({ keyStore: createMemoryKeyStore(), events }));
      const { logEvents } = await import('../middleware/index.js');
      logEvents(events, verbose.logger);
      await request(app).get('/healthz').set('X-Request-Id', 'probe');
      expect(verbose.lines).to.have.length(1);
      expect(verbose.lines[0]).to.include({
        level: 'debug',
        event: 'request',
        route: '/healthz',
        requestId: 'probe',
        status: 200,
      });
    });

    it("a router given a sink logs nothing itself: the sink's owner subscribes", async () => {
      const events = createEventSink();
      const seen: string[] = [];
      events.subscribe((e) => seen.push(e.type));
      const stores = createMemoryStores();
      for (const record of KEY_RECORDS) await stores.keyStore.add(record);
      const app = express().use(
        LEGACY_MOUNT_PATH,
        createLegacyRouter({ ...stores, render: recordingRender(), events }),
      );
      await post(app, KEYS.all).send(ZPL);
      expect(seen).to.deep.equal(['render', 'request_done']);
    });
  });

  describe('CORS', () => {
    const preflight = (app: Express, origin: string) =>
      request(app)
        .options(labelsPath('8dpmm', '4x6', '0'))
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'x-api-key, x-rotation');

    it('is off by default: no CORS headers, a preflight needs a key like anything else', async () => {
      const { app } = await opsApp();
      const res = await preflight(app, 'https://app.example');
      expect(res.status).to.equal(401);
      expect(res.headers).to.not.have.property('access-control-allow-origin');
    });

    it('answers preflights for the legacy headers without a key, and exposes the answer headers', async () => {
      const { app } = await opsApp({ cors: { origins: ['https://app.example'] } });
      const res = await preflight(app, 'https://app.example');
      expect(res.status).to.equal(204);
      expect(res.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(res.headers['access-control-allow-methods']).to.equal('GET, POST');
      const allowed = String(res.headers['access-control-allow-headers']).split(', ');
      expect(allowed).to.include.members([
        'X-API-Key',
        'Accept',
        'X-Rotation',
        'X-Quality',
        'X-Linter',
        'X-Page-Size',
        'X-Label-Border',
        'X-Request-Id',
      ]);

      const answer = await post(app, KEYS.all).set('Origin', 'https://app.example').send(ZPL);
      expect(answer.status).to.equal(200);
      expect(answer.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(String(answer.headers['access-control-expose-headers']).split(', ')).to.include.members([
        'X-Total-Count',
        'X-Warnings',
        'X-Request-Id',
        'Retry-After',
      ]);

      const other = await preflight(app, 'https://evil.example');
      expect(other.status).to.equal(401);
      expect(other.headers).to.not.have.property('access-control-allow-origin');
    });

    it('`cors: true` allows any origin', async () => {
      const { app } = await opsApp({ cors: true });
      const res = await preflight(app, 'https://anything.example');
      expect(res.status).to.equal(204);
      expect(res.headers['access-control-allow-origin']).to.equal('*');
    });
  });
});
