// The standalone server's UPSTREAM_* variables: the legacy service answers through `npm start` too.

import { expect } from 'chai';
import request from 'supertest';
import { readServerConfig } from '../server/config.js';
import { startServer, stopServer as stop } from './helpers/server-process.js';
import { startFakeUpstream, UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';

const PATH = '/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0';

describe('standalone server with UPSTREAM_* variables', () => {
  let upstream: FakeUpstream;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.close());

  it('UPSTREAM_MODE=proxy forwards with UPSTREAM_API_KEY after checking the client key', async () => {
    const { child, base, devKey } = await startServer({
      UPSTREAM_MODE: 'proxy',
      UPSTREAM_URL: upstream.url,
      UPSTREAM_API_KEY: 'k_legacy',
    });
    const key = devKey!;
    try {
      expect((await request(base).post(PATH).type('form').send('^XA^XZ')).status).to.equal(401);
      const res = await request(base)
        .post(PATH)
        .set('X-API-Key', key)
        .set('Cookie', 'sid=host-secret')
        .type('form')
        .send('^XA^FDa+b%25^FS^XZ')
        .buffer(true)
        .parse((r, cb) => {
          const c: Buffer[] = [];
          r.on('data', (d: Buffer) => c.push(d));
          r.on('end', () => cb(null, Buffer.concat(c)));
        });
      expect(res.status).to.equal(200);
      expect(res.headers['x-renderer']).to.equal('upstream');
      expect(Buffer.compare(res.body as Buffer, UPSTREAM_PNG)).to.equal(0);
      expect(upstream.received).to.have.length(1);
      expect(upstream.received[0]!.headers['x-api-key']).to.equal('k_legacy');
      expect(upstream.received[0]!.headers).to.not.have.property('cookie');
      expect(upstream.received[0]!.body.toString()).to.equal('^XA^FDa+b%25^FS^XZ');
    } finally {
      await stop(child);
    }
  });

  it('UPSTREAM_MODE=fallback renders supported documents itself', async () => {
    const { child, base, devKey } = await startServer({ UPSTREAM_MODE: 'fallback', UPSTREAM_URL: upstream.url });
    const key = devKey!;
    try {
      const local = await request(base)
        .post(PATH)
        .set('X-API-Key', key)
        .type('form')
        .send('^XA^FO5,5^GB20,20,20^FS^XZ');
      const forwarded = await request(base).post(PATH).set('X-API-Key', key).type('form').send('^XA^QQ^XZ');
      expect([local.headers['x-renderer'], forwarded.headers['x-renderer']]).to.deep.equal(['local', 'upstream']);
      expect(upstream.received).to.have.length(1);
    } finally {
      await stop(child);
    }
  });

  it('reads UPSTREAM_* and SHADOW_* settings, refusing a mode without UPSTREAM_URL or odd values', () => {
    expect(
      readServerConfig({
        UPSTREAM_MODE: 'Shadow',
        UPSTREAM_URL: upstream.url,
        UPSTREAM_TIMEOUT_MS: '2500',
        SHADOW_SAMPLE_RATE: '0.25',
        SHADOW_DIR: '/tmp/d',
      }),
    ).to.deep.include({
      upstream: { mode: 'shadow', url: upstream.url, timeoutMs: 2500 },
      shadow: { sampleRate: 0.25, storeDir: '/tmp/d' },
    });
    expect(readServerConfig({}).upstream).to.deep.equal({ mode: 'off' });
    expect(readServerConfig({ UPSTREAM_FORWARD_HEADERS: 'Accept, X-Tenant,' }).forwardHeaders).to.deep.equal([
      'Accept',
      'X-Tenant',
    ]);
    expect(readServerConfig({})).to.not.have.property('forwardHeaders');
    for (const [env, message] of [
      [{ UPSTREAM_MODE: 'shadow' }, 'UPSTREAM_MODE=shadow needs UPSTREAM_URL'],
      [
        { UPSTREAM_MODE: 'mirror', UPSTREAM_URL: upstream.url },
        'UPSTREAM_MODE must be off, fallback, shadow or proxy, not mirror',
      ],
      [
        { UPSTREAM_MODE: 'shadow', UPSTREAM_URL: upstream.url, SHADOW_SAMPLE_RATE: '2' },
        'SHADOW_SAMPLE_RATE must be a share between 0 and 1, not 2',
      ],
      [
        { UPSTREAM_MODE: 'proxy', UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: '0' },
        'UPSTREAM_TIMEOUT_MS must be a whole number of milliseconds above 0, not 0',
      ],
    ] as const) {
      expect(() => readServerConfig(env)).to.throw(message);
    }
  });
});
