// What reaches the legacy service: only paths below its base URL (built from validated parameters, or checked
// in proxy mode), on its own host, and only allowlisted headers with our key, never the client's credentials.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import type { LegacyRouterOptions, ShadowOutcome } from '../middleware/index.js';
import { buildApp, KEYS, labelsPath, listen, type Listening } from './helpers/http-app.js';
import { rawRequest } from './helpers/raw-http.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const UPSTREAM_KEY = 'k_upstream_targets';
/** `^QQ` is no ZPL command: fallback mode forwards the document. */
const UNSUPPORTED = '^XA^FO10,10^GB50,50,50^FS^QQ^XZ';
const SUPPORTED = '^XA^FO10,10^GB50,50,50^FS^XZ';
const BASE = '/compatibility/legacy/v1';

interface Running extends Listening {
  app: Express;
  settled: ShadowOutcome[];
}

async function start(options: Partial<LegacyRouterOptions>): Promise<Running> {
  const settled: ShadowOutcome[] = [];
  const shadow = { sampleRate: 1, onSettled: (o: ShadowOutcome) => settled.push(o) };
  const { app } = await buildApp({ shadow, ...options });
  return { app, settled, ...(await listen(app)) };
}

function raw(method: string, target: string, body = '', extra = ''): string {
  return (
    `${method} ${target} HTTP/1.1\r\nHost: zpl.test\r\nX-API-Key: ${KEYS.all}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`
  );
}

/** Client headers a browser or a host app adds, none of which the legacy service may see. */
const PRIVATE_HEADERS = {
  Cookie: 'session=host-app-secret',
  Authorization: 'Bearer host-app-token',
  'X-Forwarded-For': '10.1.2.3',
  'X-Custom': 'mine',
  'User-Agent': 'label-client/1.0',
};

function expectOnlyAllowedHeaders(headers: Record<string, unknown>, requestId: string): void {
  expect(headers).to.include({
    'x-api-key': UPSTREAM_KEY,
    'x-request-id': requestId,
    'x-rotation': '90',
    'x-linter': 'On',
  });
  for (const name of ['cookie', 'authorization', 'x-forwarded-for', 'x-custom']) {
    expect(headers, name).to.not.have.property(name);
  }
  expect(headers['user-agent']).to.not.equal(PRIVATE_HEADERS['User-Agent']); // fetch may send its own
}

describe('upstream requests: headers and targets', () => {
  let upstream: FakeUpstream;
  let elsewhere: FakeUpstream;
  let running: Running | undefined;

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    elsewhere = await startFakeUpstream();
  });
  afterEach(async () => {
    running?.close();
    running = undefined;
    await upstream.close();
    await elsewhere.close();
  });

  describe('header allowlist', () => {
    it('proxy and fallback send Accept, Content-Type, Content-Length and the legacy X-* headers, never cookies or credentials', async () => {
      for (const mode of ['proxy', 'fallback'] as const) {
        upstream.received.length = 0;
        const { app } = await buildApp({ mode, upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
        const res = await request(app)
          .post(labelsPath('8dpmm', '2x1', '0'))
          .set('X-API-Key', KEYS.all)
          .set(PRIVATE_HEADERS)
          .set({ 'X-Rotation': '90', 'X-Linter': 'On', 'X-Request-Id': `req-${mode}`, Accept: 'image/png' })
          .type('form')
          .send(UNSUPPORTED);
        expect(res.status, mode).to.equal(200);
        const [sent] = upstream.received;
        expectOnlyAllowedHeaders(sent!.headers, `req-${mode}`);
        expect(sent!.headers).to.include({
          accept: 'image/png',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(UNSUPPORTED.length),
        });
      }
    });

    it('shadow sends the same allowlist', async () => {
      running = await start({ mode: 'shadow', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      const res = await request(running.app)
        .post(labelsPath('8dpmm', '2x1', '0'))
        .set('X-API-Key', KEYS.all)
        .set(PRIVATE_HEADERS)
        .set({ 'X-Rotation': '90', 'X-Linter': 'On', 'X-Request-Id': 'req-shadow' })
        .type('form')
        .send(SUPPORTED);
      expect(res.status).to.equal(200);
      const [sent] = await upstream.requests(1);
      expectOnlyAllowedHeaders(sent!.headers, 'req-shadow');
      expect(sent!.body.toString('latin1')).to.equal(SUPPORTED);
    });

    it('forwardHeaders replaces the allowlist; the client key still never goes', async () => {
      const { app } = await buildApp({
        mode: 'proxy',
        upstream: { url: upstream.url, apiKey: UPSTREAM_KEY },
        forwardHeaders: ['X-Custom', 'x-api-key', 'Content-Type'],
      });
      await request(app)
        .post(labelsPath('8dpmm', '2x1', '0'))
        .set('X-API-Key', KEYS.all)
        .set(PRIVATE_HEADERS)
        .set('X-Rotation', '90')
        .type('form')
        .send(UNSUPPORTED);
      const [sent] = upstream.received;
      expect(sent!.headers).to.include({
        'x-custom': 'mine',
        'x-api-key': UPSTREAM_KEY,
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(sent!.headers).to.not.have.property('x-rotation');
      expect(sent!.headers).to.not.have.property('cookie');
    });
  });

  describe('proxy mode refuses targets that leave the upstream base', () => {
    const TRAVERSALS = [
      `${BASE}/printers/../../admin`,
      `${BASE}/printers/%2e%2e/%2e%2e/admin`,
      `${BASE}/printers/%2E./.%2e/admin`,
      `${BASE}/printers/%252e%252e/%252e%252e/admin`,
      `${BASE}/printers/..%2f..%2fadmin`,
      `${BASE}/printers/..%5c..%5cadmin`,
      `${BASE}/printers\\..\\..\\admin`,
      `${BASE}/./admin`,
      `${BASE}/printers/8dpmm/labels/4x6/0/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/admin`,
      // `..;` is `..` to a Java server (path parameters dropped)
      `${BASE}/printers/..;/..;/admin`,
      `${BASE}/printers/..;jsessionid=1/..;/admin`,
      `${BASE}/printers/%2e%2e%3b/%2e%2e;/admin`,
      `${BASE}/printers/8dpmm/labels/4x6/0/..;/..;/..;/..;/..;/..;/admin`,
    ];

    it('answers 400 with an ERROR: text, and nothing reaches the legacy service', async () => {
      running = await start({ mode: 'proxy', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      for (const target of TRAVERSALS) {
        for (const method of ['GET', 'POST']) {
          const res = await rawRequest(running.port, raw(method, target, method === 'POST' ? SUPPORTED : ''));
          expect(res.status, `${method} ${target}`).to.equal(400);
          expect(res.body, target).to.match(/^ERROR: Request path .*; it must stay below the legacy API base$/);
        }
      }
      expect(upstream.arrivals).to.deep.equal([]);
    });

    it('serves an absolute-form target (HTTP_PROXY clients) as its origin-form path, only ever at our upstream', async () => {
      running = await start({ mode: 'proxy', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      const evil = new URL(elsewhere.url).host;
      for (const target of [`http://${evil}${BASE}/printers/8dpmm/labels/4x6/0`, `http://${evil}${BASE}/status`]) {
        const res = await rawRequest(running.port, raw('POST', target, SUPPORTED));
        expect(res.status, target).to.equal(200);
      }
      expect(upstream.arrivals.map((a) => a.target)).to.deep.equal([
        `${BASE}/printers/8dpmm/labels/4x6/0`,
        `${BASE}/status`,
      ]);
      expect(elsewhere.arrivals).to.deep.equal([]);
    });

    it('still forwards ordinary paths, encoded ZPL included, as they came', async () => {
      running = await start({ mode: 'proxy', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      const zpl = encodeURIComponent('^XA^FDa/b..c\\d^FS^XZ');
      const targets = [
        `${BASE}/printers/8dpmm/labels/4x6/0/${zpl}`,
        `${BASE}/status?verbose=1`,
        `${BASE}/printers/8dpmm/labels/4x6/0...`,
      ];
      for (const target of targets)
        expect((await rawRequest(running.port, raw('GET', target))).status, target).to.equal(200);
      expect(upstream.arrivals.map((a) => a.target)).to.deep.equal(targets);
      expect(upstream.arrivals.every((a) => a.host === new URL(upstream.url).host)).to.equal(true);
    });
  });

  describe('fallback and shadow send the path rebuilt from validated parameters', () => {
    it('fallback: an absolute-form target naming another host still goes to the upstream, at the rebuilt path', async () => {
      running = await start({ mode: 'fallback', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      const evil = new URL(elsewhere.url).host;
      const res = await rawRequest(
        running.port,
        raw('POST', `http://${evil}${BASE}/printers/8/labels/2.0x1/0?next=//${evil}/x`, UNSUPPORTED),
      );
      expect(res.status).to.equal(200);
      expect(res.headers['x-renderer']).to.equal('upstream');
      expect(elsewhere.arrivals).to.deep.equal([]);
      expect(upstream.arrivals).to.deep.equal([
        { method: 'POST', target: `${BASE}/printers/8dpmm/labels/2x1/0`, host: new URL(upstream.url).host },
      ]);
    });

    it('fallback: a GET whose ZPL has a dot segment is refused rather than forwarded', async () => {
      running = await start({ mode: 'fallback', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      const res = await rawRequest(
        running.port,
        raw('GET', `${BASE}/printers/8dpmm/labels/2x1/0/^XA^QQ/%2e%2e/%2e%2e/%2e%2e/%2e%2e/admin/^XZ`),
      );
      expect(res.status).to.equal(400);
      expect(res.body).to.equal(
        "ERROR: ZPL in the path has a '..' segment, which cannot be forwarded; send it with POST",
      );
      expect(upstream.arrivals).to.deep.equal([]);
    });

    it('shadow: never resolves dot segments into another path; a clean GET is re-sent at its rebuilt path', async () => {
      running = await start({ mode: 'shadow', upstream: { url: upstream.url, apiKey: UPSTREAM_KEY } });
      const zpl = encodeURIComponent(SUPPORTED);
      const dotted = await rawRequest(
        running.port,
        raw('GET', `${BASE}/printers/8dpmm/labels/2x1/0/${zpl}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/admin`),
      );
      expect(dotted.status).to.equal(200); // answered locally; the ZPL after ^XZ is ignored
      const clean = await rawRequest(running.port, raw('GET', `${BASE}/printers/8/labels/2x1/0/${zpl}?x=/../../admin`));
      expect(clean.status).to.equal(200);
      // One shadow request at a time, in order: had the dotted one been sent, it would have arrived first.
      await upstream.requests(1);
      expect(upstream.arrivals.map((a) => a.target)).to.deep.equal([`${BASE}/printers/8dpmm/labels/2x1/0/${zpl}`]);
      expect(upstream.received[0]!.headers['x-api-key']).to.equal(UPSTREAM_KEY);
    });
  });
});
