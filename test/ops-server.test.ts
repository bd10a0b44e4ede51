// `npm start` as operators run it: ops routes at the root, metrics after a few renders, one JSON access line
// per request on standard output and never a key, limits and CORS from the environment.

import { expect } from 'chai';
import request from 'supertest';
import { startServer, stopServer, type StartedServer } from './helpers/server-process.js';
import { OpenApiChecker } from './helpers/openapi-check.js';

const MOUNT = '/compatibility/legacy/v1';
const ONE = `${MOUNT}/printers/8dpmm/labels/2x1/0`;
const ALL = `${MOUNT}/printers/8dpmm/labels/2x1`;
const ZPL = '^XA^FO10,10^GB20,20,20^FS^XZ';

/** The JSON lines the server printed (start-up lines are plain text). */
function jsonLines(server: StartedServer): Array<Record<string, unknown>> {
  return server.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Resolves once `done` holds for what the server printed (lines arrive asynchronously). */
async function printed(server: StartedServer, done: (lines: Array<Record<string, unknown>>) => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(jsonLines(server)); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('standalone server: operations', () => {
  let server: StartedServer;
  let key: string;

  before(async () => {
    server = await startServer({
      RENDER_THREADS: '1',
      MAX_BODY_BYTES: '300',
      CORS_ORIGINS: 'https://app.example',
      LOG_LEVEL: 'info',
    });
    key = server.devKey!;
  });
  after(async () => {
    expect(await stopServer(server.child, 'SIGTERM')).to.equal(0);
  });

  it('serves /healthz, /readyz, /openapi.json and /metrics at the root without a key', async () => {
    const health = await request(server.base).get('/healthz');
    expect(health.status).to.equal(200);
    expect(health.body).to.deep.include({ status: 'ok', keyStore: { ready: true } });
    // RENDER_THREADS=1: one thread for any render and the express thread for small labels (issue 16).
    expect(health.body.renderPool).to.include({ workers: 2, queueDepth: 0 });
    expect((await request(server.base).get('/readyz')).status).to.equal(200);
    const doc = await request(server.base).get('/openapi.json');
    expect(doc.body.openapi).to.equal('3.1.0');
    expect(doc.body.servers).to.deep.equal([{ url: MOUNT }]);
    const metrics = await request(server.base).get('/metrics');
    expect(metrics.status).to.equal(200);
    expect(metrics.text).to.contain('# TYPE zpl_render_duration_seconds histogram');
    const unknown = await request(server.base).get('/health');
    expect(unknown.status).to.equal(404);
    expect(unknown.text).to.equal('ERROR: HTTP 404 Not Found');
  });

  it('after a few renders the metrics show the histogram and counters, and stdout one access line per request without any key', async () => {
    const sent: Array<[string, number]> = [];
    const send = async (id: string, test: request.Test, status: number): Promise<void> => {
      expect((await test.set('X-Request-Id', id)).status, id).to.equal(status);
      sent.push([id, status]);
    };
    for (let i = 0; i < 3; i++)
      await send(`png-${i}`, request(server.base).post(ONE).set('X-API-Key', key).type('form').send(ZPL), 200);
    await send(
      'pdf-all',
      request(server.base)
        .post(ALL)
        .set('X-API-Key', key)
        .set('Accept', 'application/pdf')
        .type('form')
        .send(ZPL + ZPL),
      200,
    );
    await send(
      'too-big',
      request(server.base)
        .post(ONE)
        .set('X-API-Key', key)
        .type('form')
        .send('^XA' + 'A'.repeat(400)),
      413,
    );
    await send('no-key', request(server.base).post(ONE).type('form').send(ZPL), 401);
    await send(
      'bad-key',
      request(server.base).post(ONE).set('X-API-Key', 'zpl_dev_not_the_key_123').type('form').send(ZPL),
      401,
    );
    await send('unknown-path', request(server.base).get('/nowhere'), 404);

    await printed(server, (lines) => lines.some((l) => l.event === 'request' && l.requestId === 'unknown-path'));
    const access = jsonLines(server).filter((l) => l.event === 'request');
    for (const [id, status] of sent) {
      const mine = access.filter((l) => l.requestId === id);
      expect(mine, id).to.have.length(1);
      expect(mine[0]).to.include({ status, level: 'info' });
    }
    expect(access.find((l) => l.requestId === 'png-0')).to.include({
      labels: 1,
      pages: 1,
      renderer: 'local',
      method: 'POST',
    });
    expect(access.find((l) => l.requestId === 'png-0')!.keyId).to.match(/^[0-9a-f]{16}$/);
    expect(access.find((l) => l.requestId === 'png-0')!.bytes).to.be.above(50);
    expect(access.find((l) => l.requestId === 'pdf-all')).to.include({ labels: 2, pages: 2 });
    const leaks = server.lines.filter(
      (l) => !l.startsWith('dev API key: ') && (l.includes(key) || l.includes('zpl_dev_not_the_key_123')),
    );
    expect(leaks).to.deep.equal([]);

    const text = (await request(server.base).get('/metrics')).text;
    const value = (series: string): number =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.split(' ')[1],
      );
    expect(value('zpl_render_duration_seconds_count{dpmm="8",format="png"}')).to.equal(3);
    expect(value('zpl_render_duration_seconds_bucket{le="+Inf",dpmm="8",format="pdf"}')).to.equal(1);
    expect(value('zpl_pages_rendered_total{format="pdf"}')).to.equal(2);
    expect(
      value('zpl_http_requests_total{route="/printers/{dpmm}/labels/{dimensions}/{index}",method="POST",status="413"}'),
    ).to.equal(1);
    expect(value('zpl_refused_total{status="401",error="invalid_key"}')).to.equal(2);
    expect(value('zpl_render_pool_workers')).to.equal(2);
  });

  it('answers CORS preflights for the origins in CORS_ORIGINS', async () => {
    const res = await request(server.base)
      .options(ONE)
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).to.equal(204);
    expect(res.headers['access-control-allow-origin']).to.equal('https://app.example');
  });

  it("answers an over-long URL as the OpenAPI document says (431, the standalone server's own answer)", async () => {
    const checker = new OpenApiChecker();
    const path = `/printers/8dpmm/labels/2x1/0/${'A'.repeat(20_000)}`;
    const res = await request(server.base).get(`${MOUNT}${path}`).set('X-API-Key', key);
    expect(res.status).to.equal(431);
    expect(checker.problems('GET', path, { status: res.status, headers: res.headers, text: res.text })).to.deep.equal(
      [],
    );
  });
});

describe('standalone server: settings from the environment', () => {
  for (const [name, value] of [
    ['LOG_LEVEL', 'loud'],
    ['MAX_LABELS', '0'],
    ['RENDER_THREADS', '-1'],
    ['CORS_ORIGINS', 'not an origin'],
  ] as const) {
    it(`refuses to start with ${name}=${value}`, async () => {
      const failure = await startServer({ [name]: value }).then(
        async (s) => {
          await stopServer(s.child);
          return '';
        },
        (err: Error) => err.message,
      );
      expect(failure).to.contain(`ERROR: ${name} must`);
    });
  }

  it('LOG_LEVEL=warn keeps access lines out; MAX_LABELS limits labels per document', async () => {
    const server = await startServer({ LOG_LEVEL: 'warn', MAX_LABELS: '1', RENDER_THREADS: '0' });
    try {
      const res = await request(server.base)
        .post(ALL)
        .set('X-API-Key', server.devKey!)
        .set('Accept', 'application/pdf')
        .type('form')
        .send(ZPL + ZPL);
      expect(res.status).to.equal(413);
      expect((await request(server.base).get('/healthz')).body.renderPool).to.include({ workers: 0 });
      await new Promise((r) => setTimeout(r, 100));
      expect(jsonLines(server).filter((l) => l.event === 'request')).to.deep.equal([]);
    } finally {
      await stopServer(server.child);
    }
  });
});
