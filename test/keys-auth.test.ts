// Authentication and authorization: X-API-Key, revocation, expiry, scope, store readiness; all before rendering.

import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';
import type { KeyStore } from '../middleware/index.js';
import { createMemoryKeyStore } from '../middleware/stores/memory/key-store.js';

const path = labelsPath('8dpmm', '4x6', '0');
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

describe('keys: authentication and authorization', () => {
  let app: Express;
  let render: ReturnType<typeof recordingRender>;
  beforeEach(async () => {
    render = recordingRender();
    ({ app } = await buildApp({ render }));
  });

  const send = (key: string | undefined, accept?: string) => {
    let req = request(app).post(path).type('form');
    if (key !== undefined) req = req.set('X-API-Key', key);
    if (accept !== undefined) req = req.set('Accept', accept);
    return req.send(ZPL);
  };

  function expectJson(res: request.Response, status: number, body: Record<string, unknown>): void {
    expect(res.status).to.equal(status);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.body).to.deep.equal(body);
  }

  it('answers a missing X-API-Key with 401 invalid_key', async () => {
    const res = await send(undefined);
    expectJson(res, 401, { error: 'invalid_key', message: 'Missing API key: send it in the X-API-Key header.' });
    expectJson(await send(''), 401, {
      error: 'invalid_key',
      message: 'Empty X-API-Key header: send the key in it, or leave the header out.',
    });
  });

  it('answers an unknown or revoked key with 401 invalid_key', async () => {
    for (const key of ['k_nobody', KEYS.revoked, KEYS.all.toUpperCase()]) {
      expectJson(await send(key), 401, { error: 'invalid_key', message: 'Invalid API key.' });
    }
  });

  it('answers an expired key with 401 key_expired, and takes a key expiring later', async () => {
    expectJson(await send(KEYS.expired), 401, {
      error: 'key_expired',
      message: 'API key expired at 2020-01-01T00:00:00.000Z.',
    });
    expect((await send(KEYS.future)).status).to.equal(200);
  });

  it('refuses a PNG request with a PDF-only key: 403 scope_denied with required and actual', async () => {
    const expected = {
      error: 'scope_denied',
      message: "API key scope 'pdf' does not allow PNG output.",
      required: 'png',
      actual: 'pdf',
    };
    expectJson(await send(KEYS.pdf), 403, expected);
    expectJson(await send(KEYS.pdf, 'image/png'), 403, expected);
    expect((await send(KEYS.pdf, 'application/pdf')).status).to.equal(200);
  });

  it('refuses a PDF request with a PNG-only key', async () => {
    expectJson(await send(KEYS.png, 'application/pdf'), 403, {
      error: 'scope_denied',
      message: "API key scope 'png' does not allow PDF output.",
      required: 'pdf',
      actual: 'png',
    });
    expect((await send(KEYS.png, 'image/png')).status).to.equal(200);
  });

  it('treats any Accept other than PDF as PNG for the scope check', async () => {
    expect((await send(KEYS.pdf, 'application/json')).status).to.equal(403);
    expect((await send(KEYS.png, 'application/json')).status).to.equal(406);
  });

  it('lets an all-formats key render both', async () => {
    expect((await send(KEYS.all, 'image/png')).status).to.equal(200);
    expect((await send(KEYS.all, 'application/pdf')).status).to.equal(200);
  });

  it('checks the key before validating, reading or rendering anything', async () => {
    const bad = await request(app)
      .post(labelsPath('99', '99x99', 'x'))
      .set('X-API-Key', 'k_nobody')
      .type('form')
      .send(ZPL);
    expect(bad.status).to.equal(401);
    const unknownPath = await request(app).get('/compatibility/legacy/v1/elsewhere');
    expect(unknownPath.status).to.equal(401);
    const { app: tiny } = await buildApp({ render, maxBodyBytes: 10 });
    const big = await request(tiny).post(path).type('form').send('x'.repeat(100));
    expect(big.status).to.equal(401);
    expect(render.calls).to.have.length(0);
  });

  describe('key store not ready', () => {
    const unavailable = { error: 'key_store_unavailable', message: 'The API key store is not ready; retry shortly.' };

    async function appWith(keyStore: KeyStore): Promise<Express> {
      return (await buildApp({ render, keyStore, storeTimeoutMs: 50 })).app;
    }

    it('answers 503 while the store reports it is not ready', async () => {
      const store = createMemoryKeyStore();
      await store.add({ key: 'k1', scope: 'all' });
      let ready = false;
      const gated = Object.assign(store, { isReady: () => ready });
      const app503 = await appWith(gated);
      const res = await request(app503).post(path).set('X-API-Key', 'k1').type('form').send(ZPL);
      expectJson(res, 503, unavailable);
      expect(res.headers['retry-after']).to.equal('1');
      ready = true;
      expect((await request(app503).post(path).set('X-API-Key', 'k1').type('form').send(ZPL)).status).to.equal(200);
    });

    it('answers 503 when a look-up fails or never answers, instead of hanging', async () => {
      const failing = Object.assign(createMemoryKeyStore(), { find: () => Promise.reject(new Error('ECONNRESET')) });
      expectJson(
        await request(await appWith(failing))
          .post(path)
          .set('X-API-Key', 'k1')
          .send(ZPL),
        503,
        unavailable,
      );
      const hung = Object.assign(createMemoryKeyStore(), { find: () => new Promise<undefined>(() => {}) });
      expectJson(
        await request(await appWith(hung))
          .post(path)
          .set('X-API-Key', 'k1')
          .send(ZPL),
        503,
        unavailable,
      );
      expect(render.calls).to.have.length(0);
    });

    it('logs an outage once, not once per refused request', async () => {
      const logged: string[] = [];
      const failing = Object.assign(createMemoryKeyStore(), { find: () => Promise.reject(new Error('ECONNRESET')) });
      const { app: quiet } = await buildApp({ render, keyStore: failing, log: (m) => logged.push(m) });
      for (let i = 0; i < 5; i++)
        expect((await request(quiet).post(path).set('X-API-Key', 'k1').send(ZPL)).status).to.equal(503);
      expect(logged).to.have.length(1);
      expect(logged[0]).to.match(/key store failed \(1 request answered 503 since the last report\)$/);
    });
  });
});
