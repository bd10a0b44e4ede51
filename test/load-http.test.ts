// Load (bounded, loopback only): 2,000 mixed good and bad requests at concurrency 32 against the router as
// users mount it (default renderer: the shared worker pool). Every response must be well-formed, good
// requests must render, and the process's memory must stay bounded.

import { expect } from 'chai';
import type { Server } from 'node:http';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { closeSharedRenderPools } from '../renderer/pool/index.js';
import { craftedAttack, drawCases, loadFixtures, mutatedFixture, runAll } from './helpers/fuzz-cases.js';
import { BASE, buildApp, KEYS } from './helpers/http-app.js';
import { responseProblems, type RawResponse } from './helpers/http-checks.js';
import { request as httpRequest } from 'node:http';

const TOTAL = Number(process.env.LOAD_REQUESTS) || 2000;
const CONCURRENCY = 32;
/** Generous bounds: the renderer keeps at most a few label rasters per worker alive. */
const MAX_RSS_MB = 2048;
const MAX_GROWTH_MB = 512;

interface LoadRequest {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Statuses this request may get. */
  expect: number[];
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(base: string, r: LoadRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${r.path}`,
      {
        method: r.method,
        agent,
        headers: { ...r.headers, ...(r.body && { 'Content-Length': String(r.body.length) }) },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 60 s')));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** The mix: a third well-formed labels, the rest every kind of refusal and hostile document. */
function mix(): LoadRequest[] {
  const fixtures = loadFixtures().filter((f) => f.group === 'carrier' || f.group === 'barcode');
  const form = { 'Content-Type': 'application/x-www-form-urlencoded', 'X-API-Key': KEYS.all };
  const path = (dims = '4x6', index: string | null = '0', dpmm = '8dpmm') =>
    `${BASE}/printers/${dpmm}/labels/${dims}${index === null ? '' : `/${index}`}`;
  const good = (i: number): LoadRequest => {
    const f = fixtures[i % fixtures.length];
    const pdf = i % 5 === 0;
    return {
      kind: `fixture ${f.id}${pdf ? ' (pdf)' : ''}`,
      method: 'POST',
      path: path(`${f.widthIn}x${f.heightIn}`, pdf ? null : String(f.index), `${f.dpmm}dpmm`),
      headers: { ...form, ...(pdf && { Accept: 'application/pdf' }) },
      body: Buffer.from(f.zpl),
      expect: [200, 404], // a few barcode fixtures print nothing at their index
    };
  };
  const hostile = drawCases(fc.oneof(mutatedFixture(), craftedAttack()), 0x10ad, Math.ceil(TOTAL / 3));
  const refusals: ((i: number) => LoadRequest)[] = [
    () => ({
      kind: 'no key',
      method: 'POST',
      path: path(),
      headers: { 'Content-Type': form['Content-Type'] },
      body: Buffer.from('^XA^XZ'),
      expect: [401],
    }),
    () => ({
      kind: 'unknown key',
      method: 'POST',
      path: path(),
      headers: { ...form, 'X-API-Key': 'k_nobody' },
      body: Buffer.from('^XA^XZ'),
      expect: [401],
    }),
    () => ({
      kind: 'bad density',
      method: 'POST',
      path: path('4x6', '0', '7dpmm'),
      headers: form,
      body: Buffer.from('^XA^XZ'),
      expect: [400],
    }),
    () => ({
      kind: 'too wide',
      method: 'POST',
      path: path('16x6'),
      headers: form,
      body: Buffer.from('^XA^XZ'),
      expect: [400],
    }),
    () => ({
      kind: 'too many labels',
      method: 'POST',
      path: path(),
      headers: form,
      body: Buffer.from('^XA^FO1,1^GB9,9,9^FS^PQ99999999^XZ'),
      expect: [413],
    }),
    () => ({
      kind: 'body over 1 MB',
      method: 'POST',
      path: path(),
      headers: form,
      body: Buffer.alloc(1024 * 1024 + 1, 0x20),
      expect: [413],
    }),
    () => ({
      kind: 'GET label',
      method: 'GET',
      path: `${path('2x1')}/${encodeURIComponent('^XA^FO5,5^GB40,40,4^FS^XZ')}`,
      headers: { 'X-API-Key': KEYS.all },
      expect: [200],
    }),
    () => ({
      kind: 'index out of range',
      method: 'POST',
      path: path('4x6', '5'),
      headers: form,
      body: Buffer.from('^XA^FO5,5^GB40,40,4^FS^XZ'),
      expect: [404],
    }),
    (i) => {
      const c = hostile[i % hostile.length];
      return {
        kind: `hostile: ${c.how.slice(0, 120)}`,
        method: 'POST',
        path: path('2x2', c.req.format === 'pdf' ? null : '0'),
        headers: { ...form, ...(c.req.format === 'pdf' && { Accept: 'application/pdf' }) },
        body: Buffer.from(c.zpl),
        expect: [200, 400, 404, 413, 500],
      };
    },
  ];
  return Array.from({ length: TOTAL }, (_, i) => (i % 3 === 0 ? good(i / 3) : refusals[i % refusals.length](i)));
}

describe('load: mixed good and bad requests', function () {
  this.timeout(600_000);
  let server: Server;
  let base: string;

  before(async () => {
    // As users mount it: no renderer given, so requests go through the shared worker pool.
    const { app } = await buildApp({ log: () => {}, organizationRequestsPerSecond: 0 });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    agent.destroy();
    await new Promise((r) => server.close(r));
    await closeSharedRenderPools();
  });

  it(`answers ${TOTAL} requests at concurrency ${CONCURRENCY}, every one well-formed, in bounded memory`, async () => {
    const requests = mix();
    // Warm up: the pool's workers load the renderer.
    await send(base, requests[0]);
    const rssAtStart = process.memoryUsage().rss;
    let peak = rssAtStart;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const byStatus = new Map<number, number>();
    let rendered = 0;
    try {
      const failures = await runAll(requests, CONCURRENCY, async (r) => {
        const res = await send(base, r);
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        const problems = responseProblems(res, { what: r.kind, apiKey: r.headers['X-API-Key'] });
        if (!r.expect.includes(res.status))
          problems.push(
            `status ${res.status}, expected ${r.expect.join('/')} [${r.kind}]: ${res.body.toString('latin1', 0, 200)}`,
          );
        if (res.status === 200) rendered++;
        if (problems.length) throw new Error(problems.join('\n'));
      });
      expect(failures.map((f) => f.message).slice(0, 5), `${failures.length} bad responses`).to.deep.equal([]);
    } finally {
      clearInterval(sampler);
    }
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    expect(total).to.equal(TOTAL);
    expect(rendered, 'good requests rendered').to.be.greaterThan(TOTAL / 4);
    const mb = (b: number) => Math.round(b / 2 ** 20);
    process.stdout.write(
      `      statuses ${JSON.stringify(Object.fromEntries(byStatus))}; RSS ${mb(rssAtStart)} MB at start, peak ${mb(peak)} MB\n`,
    );
    expect(mb(peak), 'peak RSS (MB)').to.be.below(MAX_RSS_MB);
    expect(mb(peak - rssAtStart), 'RSS growth (MB)').to.be.below(MAX_GROWTH_MB);
  });
});
