// Proxy mode: every request the key and limits let in goes to the legacy service, answered as it answers.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const UPSTREAM_KEY = 'k_upstream_proxy';
const ZPL = '^XA^FO10,10^GB50,50,50^FS^FDx+y%20^FS^XZ';

describe('proxy mode: everything goes to the legacy service', () => {
  let upstream: FakeUpstream;
  let app: Express;
  let render: ReturnType<typeof recordingRender>;

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    render = recordingRender({}, undefined, { admits: true }); // counts (stops at admission), as our renderer does
    ({ app } = await buildApp({
      mode: 'proxy',
      upstream: { url: upstream.url, apiKey: UPSTREAM_KEY },
      render,
      maxBodyBytes: 1000,
    }));
  });
  afterEach(() => upstream.close());

  it('passes status, headers and body through unchanged and renders nothing here (it only counts the labels)', async () => {
    upstream.answer = (_r, res) => {
      res
        .status(400)
        .set({ 'Content-Type': 'text/plain; charset=utf-8', 'X-Warnings': '0|3|^XA|0|fake', 'X-Legacy-Trace': 'abc' })
        .end('ERROR: Malformed ZPL, as the legacy service words it');
    };
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .set('X-Linter', 'On')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('ERROR: Malformed ZPL, as the legacy service words it');
    expect(res.headers).to.include({
      'content-type': 'text/plain; charset=utf-8',
      'x-warnings': '0|3|^XA|0|fake',
      'x-legacy-trace': 'abc',
      'x-renderer': 'upstream',
    });
    const [sent] = upstream.received;
    expect(sent!.body.toString('latin1')).to.equal(ZPL);
    expect(sent!.headers).to.include({ 'x-linter': 'On', 'x-api-key': UPSTREAM_KEY });
    expect(render.calls.map((c) => [c.zpl.toString('latin1'), c.drawn])).to.deep.equal([[ZPL, false]]);
  });

  it('forwards documents we could render, and paths we would refuse, for the legacy service to judge', async () => {
    const ok = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(ZPL);
    const badDensity = await request(app)
      .post(labelsPath('7dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(ZPL);
    const elsewhere = await request(app).get('/compatibility/legacy/v1/status?verbose=1').set('X-API-Key', KEYS.all);
    for (const res of [ok, badDensity, elsewhere]) {
      expect(res.status).to.equal(200);
      expect(res.headers['x-renderer']).to.equal('upstream');
    }
    expect(upstream.received.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
      'POST /printers/8dpmm/labels/4x6/0',
      'POST /printers/7dpmm/labels/4x6/0',
      'GET /status?verbose=1',
    ]);
    expect(
      render.calls.map((c) => [c.req.dpmm, c.drawn]),
      'counted (a density we refuse at 8 dpmm), never drawn',
    ).to.deep.equal([
      [8, false],
      [8, false],
    ]);
  });

  it('still checks keys and scope here first', async () => {
    const missing = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .type('form')
      .send(ZPL);
    const expired = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.expired)
      .type('form')
      .send(ZPL);
    const scope = await request(app)
      .post(labelsPath('8dpmm', '4x6'))
      .set('X-API-Key', KEYS.png)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(ZPL);
    expect([missing.body.error, expired.body.error, scope.body.error]).to.deep.equal([
      'invalid_key',
      'key_expired',
      'scope_denied',
    ]);
    expect(upstream.received).to.have.length(0);
  });

  it('still limits body size, requests per second and pages per day here', async () => {
    const tooBig = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send('x'.repeat(1001));
    expect(tooBig.status).to.equal(413);
    expect(tooBig.text).to.equal('ERROR: Request body is larger than the limit of 1000 bytes');

    const fixedNow = new Date('2030-05-05T10:00:00.250Z');
    const { app: limited } = await buildApp(
      // The stand-in renderer counts at once: the per-second window lives 2 s of wall-clock time.
      { mode: 'proxy', upstream: { url: upstream.url }, now: () => fixedNow, render },
      [
        { key: 'k_one_rps', scope: 'all', requestsPerSecond: 1 },
        { key: 'k_three_pages', scope: 'all', pagesPerDay: 3 },
      ],
    );
    const send = (key: string): request.Test =>
      request(limited)
        .post(labelsPath('8dpmm', '4x6'))
        .set('X-API-Key', key)
        .set('Accept', 'application/pdf')
        .type('form')
        .send(ZPL);
    upstream.answer = (_r, res) => res.status(200).type('application/pdf').set('X-Total-Count', '3').end('%PDF-three');

    expect((await send('k_one_rps')).status).to.equal(200);
    const second = await send('k_one_rps');
    expect(second.status).to.equal(429);
    expect(second.body.limit_type).to.equal('requests_per_sec');

    expect((await send('k_three_pages')).status).to.equal(200); // the legacy service rendered 3 pages
    const dayOver = await send('k_three_pages');
    expect(dayOver.status).to.equal(429);
    expect(dayOver.body.limit_type).to.equal('pages_per_day');
    expect(upstream.received).to.have.length(2);
  });

  it('books no pages when the legacy service refuses the document', async () => {
    const { app: limited } = await buildApp({ mode: 'proxy', upstream: { url: upstream.url } }, [
      { key: 'k_one_page', scope: 'all', pagesPerDay: 1 },
    ]);
    upstream.answer = (_r, res) =>
      res.status(404).type('text/plain').end('ERROR: Requested 1st label but ZPL generated no labels');
    const send = (): request.Test =>
      request(limited)
        .post(labelsPath('8dpmm', '4x6', '0'))
        .set('X-API-Key', 'k_one_page')
        .type('form')
        .send('^XA');
    expect((await send()).status).to.equal(404);
    expect((await send()).status).to.equal(404); // not 429: the refused render counted nothing
    expect(upstream.received).to.have.length(2);
  });
});
