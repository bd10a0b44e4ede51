// The router's renderer wiring: by default it renders in the shared worker pool with a time budget
// (renderThreads, renderTimeoutMs), `renderThreads: 0` renders inline, and a runaway label becomes a
// 500 `ERROR: ` text while the next request is still answered.

import { expect } from 'chai';
import request from 'supertest';
import { render } from '../renderer/index.js';
import { closeSharedRenderPools, sharedRenderer, sharedRenderPoolStats } from '../renderer/pool/index.js';
import { BASE, buildApp, KEYS } from './helpers/http-app.js';
import { decodePng } from './helpers/png.js';

const LABEL = '^XA^FO10,10^GB100,50,6^FS^XZ';
const RUNAWAY = '^XA^FO10,10^GB500,500,250^FS^PQ1000000^XZ';

describe('router renderer wiring', function () {
  this.timeout(120_000);
  after(() => closeSharedRenderPools());

  it('renders through a shared pool by default: one pool per thread count and budget', async () => {
    // (The 5000 ms pool is the one the time-budget test below uses.)
    expect(sharedRenderer({ threads: 1, timeoutMs: 5000 })).to.equal(sharedRenderer({ threads: 1, timeoutMs: 5000 }));
    expect(sharedRenderer({ threads: 1, timeoutMs: 5000 })).to.not.equal(
      sharedRenderer({ threads: 1, timeoutMs: 4000 }),
    );
    // No pool for threads: 0: renders on this thread, the same bytes as render() (the renderer is loaded on first use).
    const before = sharedRenderPoolStats().threads;
    const req = { dpmm: 8 as const, widthIn: 2, heightIn: 1, format: 'png' as const, index: 0 };
    const [inline, direct] = await Promise.all([sharedRenderer({ threads: 0 })(LABEL, req), render(LABEL, req)]);
    expect(Buffer.from(inline.body).equals(Buffer.from(direct.body))).to.equal(true);
    expect(sharedRenderPoolStats().threads).to.equal(before);
  });

  for (const renderThreads of [undefined, 0]) {
    it(`answers with the renderer's bytes (renderThreads: ${renderThreads ?? 'default'})`, async () => {
      const { app } = await buildApp({ log: () => {}, ...(renderThreads !== undefined && { renderThreads }) });
      const res = await request(app)
        .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
        .set('X-API-Key', KEYS.all)
        .type('form')
        .send(LABEL)
        .buffer(true)
        .parse((r, done) => {
          const c: Buffer[] = [];
          r.on('data', (b: Buffer) => c.push(b));
          r.on('end', () => done(null, Buffer.concat(c)));
        });
      expect(res.status).to.equal(200);
      const inline = await render(LABEL, {
        dpmm: 8,
        widthIn: 2,
        heightIn: 1,
        format: 'png',
        index: 0,
        rotation: 0,
        quality: 'grayscale',
      });
      expect(Buffer.compare(res.body as Buffer, Buffer.from(inline.body))).to.equal(0);
      expect(decodePng(res.body as Buffer).width).to.equal(406);
    });
  }

  it('keeps routers answering after the shared pools are closed (a fresh pool starts on demand)', async () => {
    const { app } = await buildApp({ log: () => {}, renderThreads: 1 });
    await request(app)
      .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(LABEL)
      .expect(200);
    await closeSharedRenderPools();
    await request(app)
      .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(LABEL)
      .expect(200);
  });

  it('enforces every configured resource limit end to end with the real renderer', async () => {
    const { app } = await buildApp({ log: () => {}, maxBodyBytes: 200, maxLabels: 3, maxPixels: 100_000 });
    const post = (path: string, body: string) =>
      request(app).post(`${BASE}/printers/8dpmm/labels/${path}`).set('X-API-Key', KEYS.all).type('form').send(body);
    const cases: [string, string, number, string][] = [
      ['1x1/0', `^XA${'^FX padding'.repeat(30)}^XZ`, 413, 'ERROR: Request body is larger than the limit of 200 bytes'],
      ['1x1/0', '^XA^PQ4^XZ', 413, 'ERROR: Too many labels: the ZPL generates 4 labels; the maximum is 3'],
      // ^PQ99999999 is counted, never rendered.
      [
        '1x1/0',
        '^XA^PQ99999999^XZ',
        413,
        'ERROR: Too many labels: the ZPL generates 99999999 labels; the maximum is 3',
      ],
      ['4x1/0', LABEL, 400, 'ERROR: Label size 812x203 dots exceeds the limit of 100000 pixels'],
    ];
    for (const [path, body, status, text] of cases) {
      const res = await post(path, body);
      expect([res.status, res.text], body.slice(0, 30)).to.deep.equal([status, text]);
    }
    expect((await post('1x1/0', '^XA^PQ3^XZ')).status).to.equal(200);
  });

  it('turns a render past renderTimeoutMs into a 500 ERROR text and keeps answering', async () => {
    const { app } = await buildApp({ log: () => {}, renderThreads: 1, renderTimeoutMs: 5000, maxLabels: 2_000_000 });
    const path = `${BASE}/printers/24dpmm/labels/15x15`;
    await request(app)
      .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(LABEL)
      .expect(200); // warm
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(RUNAWAY);
    expect(res.status).to.equal(500);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.equal('ERROR: Rendering took longer than 5000 ms and was stopped');
    expect(res.headers['x-request-id']).to.be.a('string');
    // One thread: only a replacement worker can answer this.
    await request(app)
      .post(`${BASE}/printers/8dpmm/labels/2x1/0`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(LABEL)
      .expect(200);
  });
});
