// Soft rate limits with the in-process counters: requests per second (key, organization) and pages per day.

import { expect } from 'chai';
import request from 'supertest';
import { RenderError } from '../renderer/index.js';
import { buildApp, labelsPath, recordingRender } from './helpers/http-app.js';
import type { KeyRecord } from '../middleware/index.js';

const png = labelsPath('8dpmm', '4x6', '0');
const pdfAll = labelsPath('8dpmm', '4x6');
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

/** A clock the test moves by hand: 2026-03-04 23:59:58.250 UTC to start with. */
function manualClock(start = Date.UTC(2026, 2, 4, 23, 59, 58, 250)) {
  let t = start;
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
    get ms() {
      return t;
    },
  };
}

const KEYS: KeyRecord[] = [
  { key: 'k_rps2', scope: 'all', requestsPerSecond: 2 },
  { key: 'k_pages3', scope: 'all', pagesPerDay: 3 },
  { key: 'k_acme_1', scope: 'all', organization: 'acme' },
  { key: 'k_acme_2', scope: 'all', organization: 'acme', requestsPerSecond: 100 },
  { key: 'k_other_org', scope: 'all', organization: 'globex' },
  { key: 'k_free', scope: 'all' },
];

describe('limits (in memory)', () => {
  const send = (app: Parameters<typeof request>[0], key: string, path = png, accept = 'image/png') =>
    request(app).post(path).set('X-API-Key', key).set('Accept', accept).type('form').send(ZPL);

  describe('requests per second per key', () => {
    it('answers the request over the limit with 429 and the spec body and headers', async () => {
      const clock = manualClock();
      const render = recordingRender();
      const { app } = await buildApp({ render, now: clock.now }, KEYS);
      expect((await send(app, 'k_rps2')).status).to.equal(200);
      expect((await send(app, 'k_rps2')).status).to.equal(200);
      const res = await send(app, 'k_rps2');
      expect(res.status).to.equal(429);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body).to.deep.equal({
        error: 'rate_limited',
        message: 'API key exceeded its limit of 2 requests per second.',
        limit_type: 'requests_per_sec',
        limit_scope: 'key',
        limit: 2,
        retry_after_seconds: 1,
      });
      expect(res.headers['retry-after']).to.equal('1');
      expect(res.headers['x-ratelimit-limit']).to.equal('2');
      expect(res.headers['x-ratelimit-remaining']).to.equal('0');
      expect(res.headers['x-ratelimit-reset']).to.equal(String(Math.floor(clock.ms / 1000) + 1));
      expect(render.calls).to.have.length(2);
    });

    it('opens again in the next second, and leaves other keys alone', async () => {
      const clock = manualClock();
      const { app } = await buildApp({ render: recordingRender(), now: clock.now }, KEYS);
      for (let i = 0; i < 3; i++) await send(app, 'k_rps2');
      expect((await send(app, 'k_free')).status).to.equal(200);
      clock.advance(750);
      expect((await send(app, 'k_rps2')).status).to.equal(200);
    });

    it('counts requests that fail validation too', async () => {
      const clock = manualClock();
      const { app } = await buildApp({ render: recordingRender(), now: clock.now }, KEYS);
      await send(app, 'k_rps2', labelsPath('9', '4x6', '0'));
      await send(app, 'k_rps2', labelsPath('9', '4x6', '0'));
      expect((await send(app, 'k_rps2')).status).to.equal(429);
    });
  });

  describe('organization ceiling', () => {
    it('is shared by every key of the organization', async () => {
      const clock = manualClock();
      const { app } = await buildApp(
        { render: recordingRender(), now: clock.now, organizationRequestsPerSecond: 3 },
        KEYS,
      );
      expect((await send(app, 'k_acme_1')).status).to.equal(200);
      expect((await send(app, 'k_acme_2')).status).to.equal(200);
      expect((await send(app, 'k_acme_1')).status).to.equal(200);
      const res = await send(app, 'k_acme_2');
      expect(res.status).to.equal(429);
      expect(res.body).to.deep.equal({
        error: 'rate_limited',
        message: 'Organization acme exceeded its limit of 3 requests per second.',
        limit_type: 'requests_per_sec',
        limit_scope: 'organization',
        limit: 3,
        retry_after_seconds: 1,
      });
      expect(res.headers['x-ratelimit-limit']).to.equal('3');
      expect((await send(app, 'k_other_org')).status).to.equal(200);
      expect((await send(app, 'k_free')).status).to.equal(200);
      clock.advance(1000);
      expect((await send(app, 'k_acme_1')).status).to.equal(200);
    });

    it('is off with 0', async () => {
      const { app } = await buildApp({ render: recordingRender(), organizationRequestsPerSecond: 0 }, KEYS);
      for (let i = 0; i < 5; i++) expect((await send(app, 'k_acme_1')).status).to.equal(200);
    });
  });

  describe('pages per day', () => {
    it('counts rendered pages per UTC day and answers 429 with the next midnight as reset', async () => {
      const clock = manualClock(Date.UTC(2026, 2, 4, 18, 0, 0));
      const render = recordingRender();
      const { app } = await buildApp({ render, now: clock.now }, KEYS);
      for (let i = 0; i < 3; i++) expect((await send(app, 'k_pages3')).status).to.equal(200);
      const res = await send(app, 'k_pages3');
      expect(res.status).to.equal(429);
      const midnight = Date.UTC(2026, 2, 5) / 1000;
      expect(res.body).to.deep.equal({
        error: 'rate_limited',
        message: 'API key exceeded its limit of 3 pages per day (UTC).',
        limit_type: 'pages_per_day',
        limit_scope: 'key',
        limit: 3,
        retry_after_seconds: 6 * 3600,
      });
      expect(res.headers['retry-after']).to.equal(String(6 * 3600));
      expect(res.headers['x-ratelimit-limit']).to.equal('3');
      expect(res.headers['x-ratelimit-remaining']).to.equal('0');
      expect(res.headers['x-ratelimit-reset']).to.equal(String(midnight));
      expect(render.calls).to.have.length(3);

      clock.advance(6 * 3600 * 1000);
      expect((await send(app, 'k_pages3')).status).to.equal(200);
    });

    it('counts every page of a multi-page PDF (soft: the document that crosses the limit is rendered whole)', async () => {
      const clock = manualClock(Date.UTC(2026, 2, 4, 12));
      const render = recordingRender({ pages: 2, totalCount: 2 });
      const { app } = await buildApp({ render, now: clock.now }, KEYS);
      expect((await send(app, 'k_pages3', pdfAll, 'application/pdf')).status).to.equal(200);
      expect((await send(app, 'k_pages3', pdfAll, 'application/pdf')).status).to.equal(200);
      expect((await send(app, 'k_pages3', pdfAll, 'application/pdf')).status).to.equal(429);
      expect(render.calls).to.have.length(2);
    });

    it('does not count failed renders or refused requests', async () => {
      const clock = manualClock(Date.UTC(2026, 2, 4, 12));
      let failNext = 0;
      const render = recordingRender({}, () =>
        failNext-- > 0 ? new RenderError('index-out-of-range', 'no such label') : undefined,
      );
      const { app } = await buildApp({ render, now: clock.now }, KEYS);
      failNext = 2;
      expect((await send(app, 'k_pages3')).status).to.equal(404);
      expect((await send(app, 'k_pages3')).status).to.equal(404);
      expect((await send(app, 'k_pages3', labelsPath('8', '99x1', '0'))).status).to.equal(400);
      for (let i = 0; i < 3; i++) expect((await send(app, 'k_pages3')).status).to.equal(200);
      expect((await send(app, 'k_pages3')).status).to.equal(429);
    });

    it('holds under concurrent requests on one instance', async () => {
      const clock = manualClock(Date.UTC(2026, 2, 4, 12));
      const render = recordingRender();
      const { app } = await buildApp({ render, now: clock.now }, KEYS);
      const statuses = await Promise.all(Array.from({ length: 10 }, () => send(app, 'k_pages3').then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).to.have.length(3);
      expect(statuses.filter((s) => s === 429)).to.have.length(7);
      expect(render.calls).to.have.length(3);
    });
  });
});
