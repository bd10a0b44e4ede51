// Shadow mode: we answer; a sample is re-sent to the legacy service afterwards and the labels compared.

import { expect } from 'chai';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { DivergenceEvent, LegacyRouterOptions, ShadowOutcome } from '../middleware/index.js';
import { render as renderZpl } from '../renderer/index.js';
import { binaryBody, buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';
import { hang, startFakeUpstream, UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';
import { boxPng } from './helpers/upstream-png.js';

const UPSTREAM_KEY = 'k_upstream_shadow';
const ZPL = '^XA^FO20,20^GB120,60,4^FS^FO30,100^A0N,30,30^FDa+b %41&^FS^XZ';
const path = labelsPath('8dpmm', '2x1', '0');

/** Collects shadow outcomes, divergence events and log lines, and waits for the next ones. */
function observe() {
  const outcomes: ShadowOutcome[] = [];
  const divergences: DivergenceEvent[] = [];
  const logged: string[] = [];
  const waiters: Array<() => void> = [];
  const wake = (): void => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const until = (done: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (done()) resolve();
        else waiters.push(check);
      };
      check();
    });
  return {
    outcomes,
    divergences,
    logged,
    options: {
      onDivergence: (event: DivergenceEvent) => {
        divergences.push(event);
        wake();
      },
      log: (line: string) => {
        logged.push(line);
        wake();
      },
    } satisfies Partial<LegacyRouterOptions>,
    onSettled: (outcome: ShadowOutcome) => {
      outcomes.push(outcome);
      wake();
    },
    /** Resolves once `count` outcomes have been reported. */
    settled: async (count: number): Promise<ShadowOutcome[]> => {
      await until(() => outcomes.length >= count);
      return outcomes;
    },
    loggedEvent: async (event: string): Promise<Record<string, unknown>> => {
      const find = (): string | undefined => logged.find((l) => (JSON.parse(l) as { event?: string }).event === event);
      await until(() => find() !== undefined);
      return JSON.parse(find()!) as Record<string, unknown>;
    },
  };
}

describe('shadow mode against the legacy service', () => {
  let upstream: FakeUpstream;
  let seen: ReturnType<typeof observe>;

  beforeEach(async () => {
    upstream = await startFakeUpstream();
    seen = observe();
  });
  afterEach(() => upstream.close());

  const shadowApp = (options: Partial<LegacyRouterOptions> = {}) =>
    buildApp({
      mode: 'shadow',
      upstream: { url: upstream.url, apiKey: UPSTREAM_KEY },
      ...seen.options,
      ...options,
      shadow: { sampleRate: 1, onSettled: seen.onSettled, ...options.shadow },
    });

  it('answers locally, then re-sends the same request upstream; identical labels score 1 and raise nothing', async () => {
    const ours = await renderZpl(ZPL, { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 });
    upstream.answer = (_r, res) =>
      res.status(200).type('image/png').set('X-Total-Count', '1').end(Buffer.from(ours.body));
    const { app } = await shadowApp();

    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('X-Request-Id', 'shadow-same')
      .type('form')
      .send(ZPL)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('local');
    expect(Buffer.compare(res.body as Buffer, Buffer.from(ours.body))).to.equal(0);

    const [outcome] = await seen.settled(1);
    expect(outcome).to.deep.equal({ requestId: 'shadow-same', outcome: 'same', score: 1 });
    expect(seen.divergences).to.have.length(0);
    const [sent] = upstream.received;
    expect(sent!.method).to.equal('POST');
    expect(sent!.url).to.equal('/printers/8dpmm/labels/2x1/0');
    expect(sent!.body.toString('latin1')).to.equal(ZPL);
    expect(sent!.headers).to.include({
      'x-api-key': UPSTREAM_KEY,
      'x-request-id': 'shadow-same',
      'content-type': 'application/x-www-form-urlencoded',
    });
  });

  it('reports a divergence with the ink F1 of our label against the legacy one, and logs it as JSON', async () => {
    // Ours: a 100x100 box; legacy: the top half of it (100x50), both at the origin of a 200x100 label.
    const local = boxPng(200, 100, { x: 0, y: 0, w: 100, h: 100 });
    const legacy = boxPng(200, 100, { x: 0, y: 0, w: 100, h: 50 });
    upstream.answer = (_r, res) => res.status(200).type('image/png').set('X-Total-Count', '1').end(legacy);
    const { app } = await shadowApp({ render: recordingRender({ body: local, totalCount: 1 }) });

    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('X-Request-Id', 'shadow-diff')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200);
    await seen.settled(1);

    // Recall: every legacy ink pixel lies inside our box. Precision: our pixels within one pixel of the
    // legacy half are its 50 rows plus the row below, 51 x 100 of our 100 x 100.
    const recall = 1;
    const precision = (51 * 100) / (100 * 100);
    const expected = (2 * recall * precision) / (recall + precision);
    expect(seen.divergences).to.have.length(1);
    const [event] = seen.divergences;
    expect(event!.score).to.be.closeTo(expected, 1e-12);
    expect(event).to.deep.include({
      requestId: 'shadow-diff',
      index: 0,
      labels: { local: 1, upstream: 1 },
      upstreamStatus: 200,
      bytes: { local: local.length, upstream: legacy.length },
    });
    const line = await seen.loggedEvent('shadow_divergence');
    expect(line).to.deep.include({ requestId: 'shadow-diff', score: event!.score, bytes: event!.bytes });
  });

  it('scores labels of different pixel sizes 0 and a different label count as a divergence', async () => {
    upstream.answer = (_r, res) =>
      res
        .status(200)
        .type('image/png')
        .set('X-Total-Count', '3')
        .end(boxPng(10, 10, { x: 0, y: 0, w: 1, h: 1 }));
    const { app } = await shadowApp({
      render: recordingRender({ body: boxPng(11, 10, { x: 0, y: 0, w: 1, h: 1 }), totalCount: 2 }),
    });
    await request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(ZPL);
    await seen.settled(1);
    expect(seen.divergences[0]).to.deep.include({ score: 0, labels: { local: 2, upstream: 3 } });
  });

  it('counts a legacy refusal of a label we drew as a divergence, a legacy failure only as a failure', async () => {
    const { app } = await shadowApp({ render: recordingRender({ body: UPSTREAM_PNG }) });
    upstream.answer = (_r, res) =>
      res.status(404).type('text/plain').end('ERROR: Requested 1st label but ZPL generated no labels');
    await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Request-Id', 'refused').type('form').send(ZPL);
    await seen.settled(1);
    expect(seen.divergences[0]).to.deep.include({
      requestId: 'refused',
      score: 0,
      upstreamStatus: 404,
      labels: { local: 1, upstream: null },
    });

    upstream.answer = (_r, res) => res.status(500).type('text/plain').end('ERROR: boom');
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('X-Request-Id', 'broken')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200);
    const outcomes = await seen.settled(2);
    expect(outcomes[1]).to.deep.equal({
      requestId: 'broken',
      outcome: 'failed',
      reason: 'upstream renderer answered 500',
    });
    expect(seen.divergences).to.have.length(1);
    expect(await seen.loggedEvent('shadow_failed')).to.deep.equal({
      event: 'shadow_failed',
      requestId: 'broken',
      reason: 'upstream renderer answered 500',
    });
  });

  it('counts 401, 403, 429 and 5xx from the legacy service as upstream errors: logged and settled as failed, never stored as divergences', async () => {
    const storeDir = await mkdtemp(join(tmpdir(), 'zpl-shadow-err-'));
    const { app } = await shadowApp({
      render: recordingRender({ body: boxPng(11, 10, { x: 0, y: 0, w: 1, h: 1 }) }),
      shadow: { storeDir },
    });
    const statuses = [401, 403, 429, 502, 503];
    for (const [i, status] of statuses.entries()) {
      upstream.answer = (_r, res) => res.status(status).json({ error: 'invalid_key', message: 'Invalid API key.' });
      const res = await request(app)
        .post(path)
        .set('X-API-Key', KEYS.all)
        .set('X-Request-Id', `err-${status}`)
        .type('form')
        .send(ZPL);
      expect(res.status).to.equal(200);
      const outcomes = await seen.settled(i + 1);
      expect(outcomes[i]).to.deep.equal({
        requestId: `err-${status}`,
        outcome: 'failed',
        reason: `upstream renderer answered ${status}`,
      });
    }
    expect(seen.divergences).to.have.length(0);
    const lines = seen.logged.map((l) => JSON.parse(l) as { event: string; requestId: string });
    expect(lines.filter((l) => l.event === 'shadow_failed').map((l) => l.requestId)).to.deep.equal(
      statuses.map((s) => `err-${s}`),
    );
    expect(lines.filter((l) => l.event === 'shadow_divergence')).to.have.length(0);
    // Only the running summary (its upstream-error count) is written; no case, no image.
    expect((await readdir(storeDir)).filter((name) => !name.startsWith('summary.json'))).to.deep.equal([]);
  });

  it('answers locally while the legacy service hangs, and gives the shadow request up after upstream.timeoutMs', async () => {
    upstream.answer = hang(upstream);
    const { app } = await shadowApp({ upstream: { url: upstream.url, timeoutMs: 150 } });
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('X-Request-Id', 'hung')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('local');
    await upstream.requests(1);
    expect(upstream.held).to.have.length(1);
    expect(upstream.held[0]!.headersSent).to.equal(false); // the legacy service has not answered at all

    const [outcome] = await seen.settled(1);
    expect(outcome).to.deep.equal({
      requestId: 'hung',
      outcome: 'failed',
      reason: 'upstream renderer did not answer within 150 ms',
    });
  });

  it('answers locally when the legacy service is unreachable', async () => {
    const { app } = await shadowApp();
    await upstream.close();
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('X-Request-Id', 'gone')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200);
    const [outcome] = await seen.settled(1);
    expect(outcome).to.deep.equal({
      requestId: 'gone',
      outcome: 'failed',
      reason: 'upstream renderer is unavailable (ECONNREFUSED)',
    });
  });

  it('keeps its work bounded: one running, `queueSize` waiting, the rest dropped', async () => {
    upstream.answer = hang(upstream);
    const { app } = await shadowApp({ shadow: { concurrency: 1, queueSize: 1 } });
    const send = (id: string): request.Test =>
      request(app).post(path).set('X-API-Key', KEYS.all).set('X-Request-Id', id).type('form').send(ZPL);

    expect((await send('first')).status).to.equal(200);
    await upstream.requests(1); // running, held by the legacy service
    expect((await send('second')).status).to.equal(200); // waits
    expect((await send('third')).status).to.equal(200); // dropped
    expect(await seen.loggedEvent('shadow_dropped')).to.deep.equal({
      event: 'shadow_dropped',
      dropped: 1,
      reason: 'queue full',
    });

    upstream.answer = (_r, res) => res.status(200).type('image/png').set('X-Total-Count', '1').end(UPSTREAM_PNG);
    upstream.held[0]!.status(200).type('image/png').set('X-Total-Count', '1').end(UPSTREAM_PNG);
    await seen.settled(2);
    expect(upstream.received.map((r) => r.headers['x-request-id'])).to.deep.equal(['first', 'second']);
  });

  it('re-sends only the sampled share of requests', async () => {
    const draws = [0.5, 0.05];
    const { app } = await shadowApp({ shadow: { sampleRate: 0.1, random: () => draws.shift() ?? 1 } });
    await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Request-Id', 'not-drawn').type('form').send(ZPL);
    await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Request-Id', 'drawn').type('form').send(ZPL);
    await seen.settled(1);
    expect(upstream.received.map((r) => r.headers['x-request-id'])).to.deep.equal(['drawn']);
  });

  it('stores both images of a divergent case when storeDir is set', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'zpl-shadow-')), 'divergent');
    const local = boxPng(20, 20, { x: 0, y: 0, w: 20, h: 20 });
    const { app } = await shadowApp({ render: recordingRender({ body: local }), shadow: { storeDir: dir } });
    await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Request-Id', 'keep.me:1').type('form').send(ZPL);
    await seen.settled(1);
    const files = seen.divergences[0]!.files!;
    expect(Buffer.compare(await readFile(files.local), local)).to.equal(0);
    expect(Buffer.compare(await readFile(files.upstream), UPSTREAM_PNG)).to.equal(0);
    const names = await readdir(dir);
    expect(names.filter((n) => n.endsWith('.png')))
      .to.have.length(2)
      .and.to.satisfy((pngs: string[]) => pngs.every((n) => /^\d+-keep_me_1\.(local|upstream)\.png$/.test(n)));
    // The record the shadow report lists: the event, when, and which endpoint (without the query).
    const recordName = names.find((n) => /^\d+-keep_me_1\.json$/.test(n))!;
    const record = JSON.parse(await readFile(join(dir, recordName), 'utf8')) as Record<string, unknown>;
    expect(record).to.include({
      requestId: 'keep.me:1',
      id: recordName.slice(0, -5),
      endpoint: 'POST /printers/8dpmm/labels/2x1/0',
      score: 0,
    });
    expect(Date.parse(record.time as string)).to.be.a('number').and.not.NaN;
  });

  it('survives a throwing onDivergence hook', async () => {
    const { app } = await shadowApp({
      render: recordingRender({ body: boxPng(20, 20, { x: 0, y: 0, w: 20, h: 20 }) }),
      onDivergence: () => {
        throw new Error('hook bug');
      },
    });
    const res = await request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(ZPL);
    expect(res.status).to.equal(200);
    expect(await seen.loggedEvent('shadow_hook_failed')).to.deep.equal({
      event: 'shadow_hook_failed',
      hook: 'onDivergence',
      reason: 'hook bug',
    });
    await seen.settled(1);
  });

  it('does not shadow PDF output (only PNG labels are compared)', async () => {
    const { app } = await shadowApp();
    const pdf = await request(app)
      .post(labelsPath('8dpmm', '2x1'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(ZPL);
    const png = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('X-Request-Id', 'png-after-pdf')
      .type('form')
      .send(ZPL);
    expect([pdf.status, png.status]).to.deep.equal([200, 200]);
    await seen.settled(1);
    expect(upstream.received.map((r) => r.headers['x-request-id'])).to.deep.equal(['png-after-pdf']);
  });
});
