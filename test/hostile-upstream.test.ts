// Hostile legacy service (issue: hostile input, defect 3): an upstream that drips its answer or sends an endless
// body. Every upstream call (shadow, proxy, fallback) has a deadline that holds whatever the GC does, and a body
// cap past which the upstream connection is cut. Runs under --expose-gc (.mocharc.json) and forces collections.

import { expect } from 'chai';
import type { Response as ExpressResponse } from 'express';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import type { ShadowOutcome } from '../middleware/index.js';
import { buildApp, KEYS, labelsPath, listen, type Listening } from './helpers/http-app.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const gc = (globalThis as { gc?: () => void }).gc;
const ZPL = '^XA^FO20,20^GB120,60,4^FS^XZ';
const path = labelsPath('8dpmm', '2x1', '0');

/** Each answer the upstream started, and when its connection closed (by us: the answers below never end). */
interface Opened {
  res: ExpressResponse;
  closed: Promise<void>;
}

function opening(opened: Opened[], res: ExpressResponse): void {
  opened.push({ res, closed: new Promise((resolve) => res.once('close', () => resolve())) });
}

/** Headers at once, then one byte every 100 ms, for ever (until we cut it). */
function drip(opened: Opened[]): (r: unknown, res: ExpressResponse) => void {
  return (_r, res) => {
    opening(opened, res);
    res.status(200).set({ 'Content-Type': 'image/png', 'X-Total-Count': '1' });
    res.flushHeaders();
    const timer = setInterval(() => res.write(Buffer.from([0])), 100);
    res.once('close', () => clearInterval(timer));
  };
}

/** A chunked body of 64 KiB writes for ever, as fast as the reader takes it. */
function flood(opened: Opened[]): (r: unknown, res: ExpressResponse) => void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  return (_r, res) => {
    opening(opened, res);
    res.status(200).set({ 'Content-Type': 'image/png', 'X-Total-Count': '1' });
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  };
}

/** Calls gc() on every turn of a 20 ms timer until stopped: the deadline must not depend on anything collectable. */
function collectGarbage(): () => void {
  const timer = setInterval(() => gc!(), 20);
  return () => clearInterval(timer);
}

/** One request over a real socket; resolves with the status and whether the body arrived whole. */
function fetchRaw(
  port: number,
  urlPath: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; complete: boolean; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: 'POST',
        headers: { 'X-API-Key': KEYS.all, 'Content-Type': 'text/plain', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        const done = (): void =>
          resolve({
            status: res.statusCode ?? 0,
            complete: res.complete,
            text: Buffer.concat(chunks).toString('latin1'),
          });
        res.on('end', done);
        res.on('aborted', done);
        res.on('error', done);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('upstream deadline and body cap (shadow, proxy, fallback)', () => {
  let upstream: FakeUpstream;
  let served: Listening | undefined;
  const opened: Opened[] = [];
  before(() => {
    if (!gc) throw new Error('this test needs node --expose-gc (see .mocharc.json)');
  });
  beforeEach(async () => {
    upstream = await startFakeUpstream();
    opened.length = 0;
  });
  afterEach(async () => {
    served?.close();
    served = undefined;
    await upstream.close();
  });

  const shadowOutcome = async (maxBodyBytes?: number): Promise<ShadowOutcome> => {
    let settle: (o: ShadowOutcome) => void = () => {};
    const outcome = new Promise<ShadowOutcome>((resolve) => {
      settle = resolve;
    });
    const { app } = await buildApp({
      mode: 'shadow',
      upstream: { url: upstream.url, timeoutMs: 600, ...(maxBodyBytes !== undefined && { maxBodyBytes }) },
      shadow: { sampleRate: 1, onSettled: settle },
    });
    const res = await request(app).post(path).set('X-API-Key', KEYS.all).type('text').send(ZPL);
    expect(res.status).to.equal(200);
    return outcome;
  };

  it('shadow: an upstream that sends headers, then a byte every 100 ms, is cut at the deadline while the GC runs', async () => {
    upstream.answer = drip(opened);
    const stop = collectGarbage();
    try {
      const outcome = await shadowOutcome();
      expect(outcome).to.deep.include({ outcome: 'failed', reason: 'upstream renderer did not answer within 600 ms' });
      await opened[0]!.closed;
    } finally {
      stop();
    }
  });

  it('shadow: an endless body is cut at the cap, and the connection to the upstream closed', async () => {
    upstream.answer = flood(opened);
    const outcome = await shadowOutcome(256 * 1024);
    expect(outcome.outcome).to.equal('failed');
    expect((outcome as { reason: string }).reason).to.match(
      /^upstream renderer sent a body of \d+ bytes or more, over the limit of 262144$/,
    );
    await opened[0]!.closed;
  });

  it('shadow: a declared Content-Length over the cap is refused before the body is read', async () => {
    upstream.answer = (_r, res) => {
      opening(opened, res);
      res.status(200).set({ 'Content-Type': 'image/png', 'Content-Length': String(2 << 20) });
      res.flushHeaders();
    };
    const outcome = await shadowOutcome(1 << 20);
    expect(outcome).to.deep.include({
      outcome: 'failed',
      reason: 'upstream renderer sent a body of 2097152 bytes or more, over the limit of 1048576',
    });
    await opened[0]!.closed;
  });

  for (const mode of ['proxy', 'fallback'] as const) {
    const routerFor = async (maxBodyBytes?: number): Promise<number> => {
      const { app } = await buildApp({
        mode,
        upstream: { url: upstream.url, timeoutMs: 600, ...(maxBodyBytes !== undefined && { maxBodyBytes }) },
      });
      served = await listen(app);
      return served.port;
    };
    // Proxy forwards every label request; fallback forwards a PDF asking for page composition.
    const send = (port: number) =>
      mode === 'proxy'
        ? fetchRaw(port, path, ZPL)
        : fetchRaw(port, path, ZPL, { Accept: 'application/pdf', 'X-Page-Size': 'Letter' });

    it(`${mode}: a dripping answer is cut at the deadline while the GC runs (the client sees it cut off)`, async () => {
      upstream.answer = drip(opened);
      const port = await routerFor();
      const stop = collectGarbage();
      try {
        const answer = await send(port);
        // Cut off once the upstream's headers were passed on; a clean 502 if the deadline came first.
        if (answer.status === 200) expect(answer.complete).to.equal(false);
        else
          expect([answer.status, answer.text]).to.deep.equal([
            502,
            'ERROR: Upstream renderer did not answer within 600 ms',
          ]);
        await opened[0]!.closed;
      } finally {
        stop();
      }
    });

    it(`${mode}: headers and then silence is a clean 502 at the deadline (none of the upstream's headers kept)`, async () => {
      upstream.answer = (_r, res) => {
        opening(opened, res);
        res.status(200).set({ 'Content-Type': 'image/png', 'X-Total-Count': '1' });
        res.flushHeaders();
      };
      const port = await routerFor();
      const answer = await send(port);
      expect([answer.status, answer.text]).to.deep.equal([
        502,
        'ERROR: Upstream renderer did not answer within 600 ms',
      ]);
      await opened[0]!.closed;
    });

    it(`${mode}: an endless body is cut at the cap, the upstream connection closed`, async () => {
      upstream.answer = flood(opened);
      const port = await routerFor(256 * 1024);
      const answer = await send(port);
      expect(answer.complete).to.equal(false);
      await opened[0]!.closed;
    });

    it(`${mode}: a declared length over the cap is a 502 in the service's error shape`, async () => {
      upstream.answer = (_r, res) => {
        opening(opened, res);
        res.status(200).set({ 'Content-Type': 'image/png', 'Content-Length': String(2 << 20) });
        res.flushHeaders();
      };
      const port = await routerFor(1 << 20);
      const answer = await send(port);
      expect(answer.status).to.equal(502);
      expect(answer.text).to.equal(
        'ERROR: Upstream renderer sent a body of 2097152 bytes or more, over the limit of 1048576',
      );
      await opened[0]!.closed;
    });
  }
});
