// Small holes around keys and headers, over real HTTP: a blank X-API-Key is a wrong key (never the anonymous one),
// `?key=` never leaves the process (refused unless allowed, stripped always), empty optional headers mean absent,
// the shadow report counts against the key's requests per second, and access lines name the route whatever the case.

import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { createEventSink, createMemoryStores, createPreviewRouter, fieldBoxes, FileShadowStore } from '../index.js';
import { routeOf } from '../middleware/api-table/index.js';
import { hashKey, KEY_ID_LENGTH } from '../middleware/keys/key-record.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const ZPL = '^XA^FO20,20^GB120,60,4^FS^FO20,100^A0N,30,30^FDEmpty^FS^XZ';
const idOf = (key: string): string => hashKey(key).slice(0, KEY_ID_LENGTH);
const PATH = labelsPath('8dpmm', '2x1', '0');

describe('a blank X-API-Key', () => {
  it('is 401 invalid_key even where an anonymous key serves requests without one', async () => {
    const { app } = await buildApp({ anonymousKey: idOf(KEYS.all) });
    expect((await request(app).post(PATH).type('form').send(ZPL)).status).to.equal(200); // no header: anonymous
    for (const blank of ['', '   ']) {
      const res = await request(app).post(PATH).set('X-API-Key', blank).type('form').send(ZPL);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({
        error: 'invalid_key',
        message: 'Empty X-API-Key header: send the key in it, or leave the header out.',
      });
    }
  });
});

describe('?key= never leaves the process', () => {
  let upstream: FakeUpstream;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.close());

  it('proxy mode, served as anonymous, query keys off: 401 naming the switches, nothing forwarded, nothing logged', async () => {
    const lines: string[] = [];
    const { app } = await buildApp({
      mode: 'proxy',
      upstream: { url: upstream.url },
      anonymousKey: idOf(KEYS.png),
      log: (m) => lines.push(m),
    });
    const res = await request(app).post(`${PATH}?key=${KEYS.all}&x=1`).type('form').send(ZPL);
    expect(res.status).to.equal(401);
    expect(res.body.message).to.include('ALLOW_QUERY_KEY=1').and.include('LEGACY_CLIENTS=1');
    expect(upstream.arrivals).to.deep.equal([]);
    // A key-less request is still forwarded, as the anonymous key, without any query key.
    expect((await request(app).post(`${PATH}?x=1`).type('form').send(ZPL)).status).to.equal(200);
    expect(upstream.received.map((r) => r.url)).to.deep.equal(['/printers/8dpmm/labels/2x1/0?x=1']);
    expect(lines.join('\n')).to.not.include(KEYS.all);
  });

  it('proxy mode with allowQueryKey: the key serves the request and the forwarded target has no key', async () => {
    const lines: string[] = [];
    const { app } = await buildApp({
      mode: 'proxy',
      upstream: { url: upstream.url },
      anonymousKey: idOf(KEYS.png),
      allowQueryKey: true,
      log: (m) => lines.push(m),
    });
    const res = await request(app)
      .post(`${PATH}?trace=1&key=${KEYS.all}&x=2`)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200); // the PNG-only anonymous key could not have asked for a PDF
    expect(upstream.received.map((r) => r.url)).to.deep.equal(['/printers/8dpmm/labels/2x1/0?trace=1&x=2']);
    expect(JSON.stringify(upstream.received.map((r) => r.headers))).to.not.include(KEYS.all);
    expect(lines.join('\n')).to.not.include(KEYS.all);
  });
});

describe('empty optional headers mean absent', () => {
  const png = async (headers: Record<string, string>): Promise<request.Response> => {
    const { app } = await buildApp();
    let req = request(app).post(PATH).set('X-API-Key', KEYS.all);
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req.type('form').send(ZPL).buffer(true).parse(binaryBody);
  };

  it('X-Rotation, X-Quality, X-Linter and Accept empty: the same PNG as without them', async () => {
    const plain = await png({});
    expect(plain.status).to.equal(200);
    const empty = await png({ 'X-Rotation': '', 'X-Quality': '', 'X-Linter': '', Accept: '' });
    expect([empty.status, empty.headers['content-type']]).to.deep.equal([200, 'image/png']);
    expect(Buffer.compare(empty.body as Buffer, plain.body as Buffer)).to.equal(0);
    expect(empty.headers).to.not.have.property('x-warnings');
  });

  it('X-Page-* and X-Label-Border empty on a PDF: accepted, as without them', async () => {
    const { app } = await buildApp({ pageComposition: 'apply' });
    const pdf = (headers: Record<string, string>) => {
      let req = request(app).post(PATH).set('X-API-Key', KEYS.all).set('Accept', 'application/pdf');
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      return req.type('form').send(ZPL).buffer(true).parse(binaryBody);
    };
    const empty = await pdf({
      'X-Page-Size': '',
      'X-Page-Orientation': '',
      'X-Page-Layout': '',
      'X-Page-Align': '',
      'X-Page-Vertical-Align': '',
      'X-Label-Border': ' ',
    });
    expect(empty.status, String(empty.body)).to.equal(200);
    const plain = await pdf({});
    // Same document but for its creation date: the same size, and no page of another size.
    expect((empty.body as Buffer).length).to.equal((plain.body as Buffer).length);
    const bad = await pdf({ 'X-Label-Border': 'wavy' });
    expect([bad.status, String(bad.body)]).to.deep.equal([400, 'ERROR: Invalid label border: wavy']);
  });
});

describe("the shadow report counts against the key's requests per second", () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zpl-shadow-rps-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('cases.json and the images: the third request in one second is 429, another key is not held back', async () => {
    const stores = createMemoryStores();
    await stores.keyStore.add({ key: 'k_report_slow_0', scope: 'all', requestsPerSecond: 2 });
    await stores.keyStore.add({ key: 'k_report_slow_1', scope: 'all', requestsPerSecond: 2 });
    await stores.keyStore.add({ key: 'k_report_free', scope: 'all' });
    const now = () => new Date('2026-12-01T06:00:00.250Z'); // one window for the whole test
    const app = express().use(
      createPreviewRouter({
        keyStore: stores.keyStore,
        layout: fieldBoxes,
        shadowStore: new FileShadowStore(dir),
        usageStore: stores.usageStore,
        now,
      }),
    );
    for (const [n, path] of ['/shadow/cases.json', '/shadow/images/0123456789abcdef-local.png'].entries()) {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await request(app).get(path).set('X-API-Key', `k_report_slow_${n}`)).status);
      expect(statuses.slice(2), path).to.deep.equal([429]);
      expect(statuses.slice(0, 2), path).to.not.include(429);
      expect((await request(app).get(path).set('X-API-Key', 'k_report_free')).status, path).to.not.equal(429);
    }
  });
});

describe('the route of access lines and metrics', () => {
  it('is matched without regard to case, as the router serves the path', async () => {
    expect(routeOf('POST', '/PRINTERS/8dpmm/LABELS/2x1/0')).to.equal('/printers/{dpmm}/labels/{dimensions}/{index}');
    const events = createEventSink();
    const routes: string[] = [];
    events.subscribe((e) => {
      if (e.type === 'request_done') routes.push(e.route);
    });
    const { app } = await buildApp({ events });
    const res = await request(app)
      .post(PATH.replace('/printers/', '/PRINTERS/').replace('/labels/', '/Labels/'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200);
    expect(routes).to.deep.equal(['/printers/{dpmm}/labels/{dimensions}/{index}']);
  });
});
