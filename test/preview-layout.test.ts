// The preview page's layout endpoint on a render pool: costly documents are laid out on a worker (the event loop
// keeps answering), stopped at the pool's time budget, cancelled when their client hangs up; and what it answers
// is one box per field and element kind, however many rectangles a field drew.

import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { withTurnsCounted } from './helpers/event-loop-turns.js';
import { qrCodesDocument } from './helpers/qr-codes.js';
import {
  createMemoryStores,
  createPreviewRouter,
  createRenderPool,
  fieldBoxes,
  fieldBoxesAsync,
  layout,
  type RenderPool,
  type ServiceEvent,
} from '../index.js';

const KEY = 'k_preview_layout';
const LAYOUT_PATH = '/preview/layout/8dpmm/4x6/0';

interface Site {
  url: string;
  server: Server;
  pool: RenderPool;
  events: ServiceEvent[];
}

async function startSite(pool: RenderPool, maxBodyBytes: number): Promise<Site> {
  const events: ServiceEvent[] = [];
  const stores = createMemoryStores();
  await stores.keyStore.add({ key: KEY, scope: 'all' });
  const app = express();
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      layout: pool.fieldBoxes,
      maxBodyBytes,
      emit: (e) => {
        events.push(e);
      },
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, pool, events };
}

async function stopSite(site: Site | undefined): Promise<void> {
  if (!site) return;
  site.server.closeAllConnections();
  await new Promise<void>((resolve) => site.server.close(() => resolve()));
  await site.pool.close();
}

function postLayout(site: Site, zpl: string, signal?: AbortSignal, path = LAYOUT_PATH): Promise<Response> {
  return fetch(`${site.url}${path}`, {
    method: 'POST',
    headers: { 'X-API-Key': KEY },
    body: zpl,
    ...(signal && { signal }),
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('preview layout on a render pool', function () {
  this.timeout(60_000);
  let site: Site | undefined;
  afterEach(async () => {
    await stopSite(site);
    site = undefined;
  });

  it('lays out a costly document on a worker: the server answers other requests meanwhile', async () => {
    site = await startSite(createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 60_000 }), 1024 * 1024);
    const finished: string[] = [];
    const costly = postLayout(site, qrCodesDocument(150)).then(async (res) => {
      finished.push('layout');
      return res;
    });
    await until(() => site!.pool.stats().busy === 1);
    const css = await fetch(`${site.url}/preview/style.css`);
    finished.push('css');
    expect(css.status).to.equal(200);
    const res = await costly;
    expect(finished).to.deep.equal(['css', 'layout']);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { elements: unknown[] };
    expect(body.elements).to.have.length(150);
  });

  it("stops a layout past the pool's time budget with the render timeout error, and logs it with the key", async () => {
    site = await startSite(createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 100 }), 1024 * 1024);
    const res = await postLayout(site, qrCodesDocument(150));
    expect(res.status).to.equal(500);
    expect(await res.text()).to.equal('ERROR: Rendering took longer than 100 ms and was stopped');
    const timeout = site.events.find((e) => e.type === 'render_timeout');
    expect(timeout).to.include({
      requestId: res.headers.get('x-request-id'),
      message: 'Rendering took longer than 100 ms and was stopped',
    });
    expect(timeout).to.have.property('keyId').that.is.a('string');
  });

  it('cancels the layout of a client that hangs up, and its worker takes the next one', async () => {
    const pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 600_000 });
    site = await startSite(pool, 8 * 1024 * 1024);
    // About two minutes of layout: only a cancelled one frees the single worker within the test's timeout.
    const hangUp = new AbortController();
    const costly = postLayout(site, qrCodesDocument(13_000), hangUp.signal).catch((err: unknown) => err);
    await until(() => pool.stats().busy === 1);
    hangUp.abort();
    expect(await costly).to.have.property('name', 'AbortError');
    await until(() => pool.stats().busy === 0);
    const next = await postLayout(site, '^XA^FO10,10^GB100,50,3^FS^XZ');
    expect(next.status).to.equal(200);
  });

  it('answers a document error as the API does', async () => {
    site = await startSite(createRenderPool({ threads: 1, expressThreads: 0 }), 1024);
    const res = await postLayout(site, '^XA^FO10,10^GB100,50,3^FS^XZ', undefined, '/preview/layout/8dpmm/4x6/5');
    expect(res.status).to.equal(404);
    expect(await res.text()).to.equal('ERROR: Requested 6th label but ZPL only generated 1 label');
  });
});

describe('preview layout limits', () => {
  it("counts each layout against the key's requests per second, with the usage store the API uses", async () => {
    const stores = createMemoryStores();
    await stores.keyStore.add({ key: 'k_slow', scope: 'all', requestsPerSecond: 2 });
    await stores.keyStore.add({ key: 'k_free', scope: 'all' });
    const now = () => new Date('2026-11-27T06:00:00.250Z'); // one second's window for the whole test
    const app = express().use(
      createPreviewRouter({ keyStore: stores.keyStore, layout: fieldBoxes, usageStore: stores.usageStore, now }),
    );
    const post = (key: string) =>
      request(app).post(LAYOUT_PATH).set('X-API-Key', key).send('^XA^FO10,10^GB100,50,3^FS^XZ');
    expect((await post('k_slow')).status).to.equal(200);
    expect((await post('k_slow')).status).to.equal(200);
    const third = await post('k_slow');
    expect(third.status).to.equal(429);
    expect(third.body).to.include({ error: 'rate_limited' });
    expect(third.headers['retry-after']).to.equal('1');
    expect((await post('k_free')).status).to.equal(200); // another key is not held back

    // Without the usage store, layouts are not counted (a router built before this option keeps working).
    const uncounted = express().use(createPreviewRouter({ keyStore: stores.keyStore, layout: fieldBoxes }));
    for (let i = 0; i < 3; i++)
      expect((await request(uncounted).post(LAYOUT_PATH).set('X-API-Key', 'k_slow').send('^XA^XZ')).status).to.equal(
        200,
      );
  });
});

describe('fieldBoxes', () => {
  const zpl =
    '^XA^FO20,20^BQN,2,4^FDMA,HELLO WORLD^FS^FO20,300^A0N,40,40^FDHi there^FS^FO20,400^BCN,60,Y^FD12345^FS^XZ';
  const options = { dpmm: 8 as const, widthIn: 4, heightIn: 6 };

  it('gives one box per field and element kind, around everything that field drew', () => {
    const full = layout(zpl, options);
    const boxes = fieldBoxes(zpl, options);
    const keyOf = (e: { kind: string; span: { start: number; end: number } }) =>
      `${e.span.start}:${e.span.end}:${e.kind}`;
    const keys = [...new Set(full.elements.map(keyOf))];
    expect(boxes.elements.map(keyOf)).to.deep.equal(keys);
    expect(full.elements.length).to.be.greaterThan(keys.length + 20); // the QR code's modules alone
    for (const field of boxes.elements) {
      const drawn = full.elements.filter((e) => keyOf(e) === keyOf(field));
      const x0 = Math.min(...drawn.map((e) => e.box.x)),
        y0 = Math.min(...drawn.map((e) => e.box.y));
      const x1 = Math.max(...drawn.map((e) => e.box.x + e.box.width)),
        y1 = Math.max(...drawn.map((e) => e.box.y + e.box.height));
      expect(field.box).to.deep.equal({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
    }
    expect(boxes).to.include({
      totalCount: 1,
      index: 0,
      width: full.width,
      height: full.height,
      mirror: false,
      invert: false,
    });
  });

  it('lays out in slices on the event loop (RENDER_THREADS=0): the same boxes, other callbacks run meanwhile', async () => {
    const costly = qrCodesDocument(150);
    const { result: sliced, turns } = await withTurnsCounted(() => fieldBoxesAsync(costly, options, { sliceMs: 1 }));
    expect(turns).to.be.greaterThan(2);
    expect(sliced).to.deep.equal(fieldBoxes(costly, options));
  });
});
