// Paths normalised once, before routing and limits (issue: hostile input, defect 5; shipping: absolute-form and
// lenient all-labels PNGs): anything that reaches the legacy service was counted by the limits of the route it
// maps to; empty segments are collapsed (lenient paths) or refused (otherwise), never forwarded uncounted.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createEventSink, type LegacyRouterOptions, type ServiceEvent } from '../middleware/index.js';
import { render } from '../renderer/index.js';
import { binaryBody, buildApp, listen, type Listening } from './helpers/http-app.js';
import { rawRequest } from './helpers/raw-http.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const BASE = '/compatibility/legacy/v1';
const KEY = 'k_three_pages_a_day';
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
/** The same label asked with empty segments where a proxy (or the legacy service) collapses them. */
const DOUBLE_SLASHED = [
  `${BASE}//printers/8dpmm/labels/2x1/0`,
  `${BASE}/printers//8dpmm/labels/2x1/0`,
  `${BASE}/printers/8dpmm//labels//2x1/0`,
  `${BASE}/printers/8dpmm/labels/2x1//0`,
];

function raw(method: string, target: string, body = ''): string {
  return (
    `${method} ${target} HTTP/1.1\r\nHost: zpl.test\r\nX-API-Key: ${KEY}\r\nContent-Type: text/plain\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

describe('paths are normalised before routing and limits', () => {
  let upstream: FakeUpstream;
  let running: (Listening & { app: Express; events: ServiceEvent[] }) | undefined;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(async () => {
    running?.close();
    running = undefined;
    await upstream.close();
  });

  const start = async (options: Partial<LegacyRouterOptions>): Promise<NonNullable<typeof running>> => {
    const events: ServiceEvent[] = [];
    const sink = createEventSink();
    sink.subscribe((e) => events.push(e));
    const { app } = await buildApp({ events: sink, ...options }, [{ key: KEY, scope: 'all', pagesPerDay: 3 }]);
    return { app, events, ...(await listen(app)) };
  };

  it('proxy mode: double slashes are refused (404) without lenient paths, and nothing reaches the upstream', async () => {
    running = await start({ mode: 'proxy', upstream: { url: upstream.url } });
    for (const target of DOUBLE_SLASHED) {
      const res = await rawRequest(running.port, raw('POST', target, ZPL));
      expect(res.status, target).to.equal(404);
      expect(res.body).to.equal('ERROR: HTTP 404 Not Found');
    }
    expect(upstream.arrivals).to.deep.equal([]);
  });

  it('proxy mode with lenient paths: double slashes are collapsed and counted, so pagesPerDay holds (3 of 8 pass)', async () => {
    running = await start({ mode: 'proxy', upstream: { url: upstream.url }, lenientPaths: true });
    const statuses: number[] = [];
    for (const target of [...DOUBLE_SLASHED, ...DOUBLE_SLASHED])
      statuses.push((await rawRequest(running.port, raw('POST', target, ZPL))).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(upstream.arrivals.map((a) => a.target)).to.deep.equal(Array(3).fill(`${BASE}/printers/8dpmm/labels/2x1/0`));
  });

  it('an absolute-form request line is served in every mode and logged under its real route', async () => {
    for (const mode of ['off', 'fallback', 'shadow', 'proxy'] as const) {
      running = await start({
        mode,
        ...(mode !== 'off' && { upstream: { url: upstream.url } }),
        shadow: { sampleRate: 0 },
      });
      const res = await rawRequest(
        running.port,
        raw('POST', `http://api.labelary.com${BASE}/printers/8dpmm/labels/2x1/0/`, ZPL),
      );
      expect(res.status, mode).to.equal(200);
      expect(res.headers['x-renderer'], mode).to.equal(mode === 'proxy' ? 'upstream' : 'local');
      const done = running.events.find((e) => e.type === 'request_done') as { route?: string } | undefined;
      expect(done?.route, mode).to.equal('/printers/{dpmm}/labels/{dimensions}/{index}');
      running.close();
      running = undefined;
    }
  });

  it('lenient paths: a PNG asked at the all-labels path is label 0, with X-Total-Count', async () => {
    running = await start({ lenientPaths: true });
    const zpl = '^XA^FO10,10^GB50,50,50^FS^XZ^XA^FO20,20^GB30,30,30^FS^XZ';
    const first = Buffer.from((await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 })).body);
    for (const suffix of ['', '/', '//']) {
      const res = await request(running.app)
        .post(`${BASE}/printers/8dpmm/labels/2x1${suffix}`)
        .set('X-API-Key', KEY)
        .type('text')
        .send(zpl)
        .buffer(true)
        .parse(binaryBody);
      expect(res.status, suffix).to.equal(200);
      expect(res.headers['content-type']).to.equal('image/png');
      expect(res.headers['x-total-count']).to.equal('2');
      expect(Buffer.compare(res.body as Buffer, first), suffix).to.equal(0);
    }
  });

  it('without lenient paths a PNG at the all-labels path stays a 404', async () => {
    running = await start({});
    const res = await request(running.app)
      .post(`${BASE}/printers/8dpmm/labels/2x1`)
      .set('X-API-Key', KEY)
      .type('text')
      .send(ZPL);
    expect(res.status).to.equal(404);
  });
});

describe('Accept q-values: the scope check and the forwarded Accept agree', () => {
  let upstream: FakeUpstream;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.close());
  const PNG_ONLY = 'k_png_only_q';
  const ALL = 'k_all_q';
  const app = (options: Partial<LegacyRouterOptions>) =>
    buildApp(options, [
      { key: PNG_ONLY, scope: 'png' },
      { key: ALL, scope: 'all' },
    ]);

  it('image/png;q=0 is not PNG: a png-only key is refused in every mode, and nothing reaches the upstream', async () => {
    for (const mode of ['off', 'proxy', 'fallback'] as const) {
      const { app: built } = await app({ mode, ...(mode !== 'off' && { upstream: { url: upstream.url } }) });
      const res = await request(built)
        .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
        .set('X-API-Key', PNG_ONLY)
        .set('Accept', 'image/png;q=0, application/pdf')
        .type('text')
        .send('^XA^QQ^XZ');
      expect(res.status, mode).to.equal(403);
      expect(res.body).to.deep.include({ error: 'scope_denied', required: 'pdf' });
    }
    expect(upstream.arrivals).to.deep.equal([]);
  });

  it("proxy and fallback forward the one type that was authorized, not the client's list", async () => {
    const { app: proxy } = await app({ mode: 'proxy', upstream: { url: upstream.url } });
    await request(proxy)
      .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
      .set('X-API-Key', ALL)
      .set('Accept', 'image/png;q=0, application/pdf')
      .type('text')
      .send('^XA^XZ');
    const { app: fallback } = await app({ mode: 'fallback', upstream: { url: upstream.url }, renderThreads: 0 });
    await request(fallback)
      .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
      .set('X-API-Key', PNG_ONLY)
      .set('Accept', 'image/png, application/pdf;q=1')
      .type('text')
      .send('^XA^QQ^XZ');
    await upstream.requests(2);
    expect(upstream.received.map((r) => r.headers.accept)).to.deep.equal(['application/pdf', 'image/png']);
  });
});
