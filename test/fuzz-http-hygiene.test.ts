// What the service lets out, checked over one request of every outcome (200 to 503): every response has
// an X-Request-Id, no body carries a stack trace or a path, and the API key never reaches a log line,
// a response, or a rate-limit counter name.

import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyStore, LegacyRouterOptions, ReserveOp, UsageStore } from '../middleware/index.js';
import { MemoryUsageStore } from '../middleware/stores/memory/usage-store.js';
import { RenderError } from '../renderer/index.js';
import { fuzzPool } from './helpers/fuzz-pool.js';
import { BASE, buildApp, KEYS } from './helpers/http-app.js';
import { responseProblems, sendRaw, type RawResponse } from './helpers/http-checks.js';

const SECRET = 'k_live_SECRET_never_print_me_0123456789';
const LIMITED = 'k_live_SECRET_limited_9876543210';
const PATH = `${BASE}/printers/8dpmm/labels/2x1/0`;
const LABEL = Buffer.from('^XA^FO10,10^GB50,50,5^FS^XZ');

/** A usage store that remembers every counter name it was given. */
class RecordingUsageStore extends MemoryUsageStore {
  readonly buckets = new Set<string>();
  override hit(bucket: string, windowMs: number): Promise<number> {
    this.buckets.add(bucket);
    return super.hit(bucket, windowMs);
  }
  override take(
    bucket: string,
    amount: number,
    limit: number,
    ttlMs: number,
  ): Promise<{ taken: boolean; used: number }> {
    this.buckets.add(bucket);
    return super.take(bucket, amount, limit, ttlMs);
  }
  override add(bucket: string, amount: number, ttlMs: number): Promise<number> {
    this.buckets.add(bucket);
    return super.add(bucket, amount, ttlMs);
  }
  override reserve(op: ReserveOp): Promise<{ taken: boolean; used: number }> {
    this.buckets.add(op.used).add(op.held);
    return super.reserve(op);
  }
}

async function listen(
  options: Partial<LegacyRouterOptions>,
  keys = [
    { key: SECRET, scope: 'all' as const },
    { key: LIMITED, scope: 'all' as const, requestsPerSecond: 1 },
    { key: KEYS.pdf, scope: 'pdf' as const },
  ],
): Promise<{ server: Server; base: string }> {
  const { app } = await buildApp(options, keys);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('HTTP hygiene: request ids, error bodies, keys', function () {
  this.timeout(60_000);
  const logged: string[] = [];
  const usage = new RecordingUsageStore();
  let server: Server;
  let base: string;

  before(async () => {
    const render = fuzzPool().render;
    ({ server, base } = await listen({
      usageStore: usage,
      log: (m) => logged.push(m),
      maxBodyBytes: 4096,
      // A document containing BOOM fails the way a renderer bug would: a plain Error with a stack.
      render: async (zpl, req) => {
        if (Buffer.from(zpl).includes('BOOM'))
          throw new TypeError(
            `Cannot read properties of undefined (reading 'x') at ${process.cwd()}/dist/renderer/x.js:1:1`,
          );
        if (Buffer.from(zpl).includes('SLOW'))
          throw new RenderError('timeout', 'Rendering took longer than 10000 ms and was stopped');
        return render(zpl, req);
      },
    }));
  });
  after(() => new Promise((r) => server.close(r)));

  const post = (
    key: string | undefined,
    body: Buffer,
    headers: Record<string, string> = {},
    path = PATH,
  ): Promise<RawResponse> =>
    sendRaw(
      base,
      'POST',
      path,
      {
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(key !== undefined && { 'X-API-Key': key }),
        ...headers,
      },
      body,
    );

  it('answers every outcome with an X-Request-Id and a clean body, and never lets the key out', async () => {
    const outcomes: [string, () => Promise<RawResponse>, number][] = [
      ['rendered', () => post(SECRET, LABEL), 200],
      ['bad density', () => post(SECRET, LABEL, {}, `${BASE}/printers/7dpmm/labels/2x1/0`), 400],
      ['bad rotation', () => post(SECRET, LABEL, { 'X-Rotation': '45' }), 400],
      ['no key', () => post(undefined, LABEL), 401],
      ['unknown key', () => post(`${SECRET}x`, LABEL), 401],
      ['scope', () => post(KEYS.pdf, LABEL), 403],
      ['no labels', () => post(SECRET, Buffer.from('^XA^XZ'), {}, `${BASE}/printers/8dpmm/labels/2x1/3`), 404],
      ['unknown path', () => post(SECRET, LABEL, {}, `${BASE}/nope`), 404],
      ['accept', () => post(SECRET, LABEL, { Accept: 'application/json' }), 406],
      ['body too large', () => post(SECRET, Buffer.alloc(8192, 0x41)), 413],
      ['too many labels', () => post(SECRET, Buffer.from('^XA^PQ99999999^XZ')), 413],
      ['render timeout', () => post(SECRET, Buffer.from('^XA^FDSLOW^FS^XZ')), 500],
      ['renderer bug', () => post(SECRET, Buffer.from('^XA^FDBOOM^FS^XZ')), 500],
      // One request a second: of three quick ones, two share a second (whatever the clock), so one is refused.
      [
        'rate limited',
        async () => {
          let res = await post(LIMITED, LABEL);
          for (let i = 0; i < 2 && res.status !== 429; i++) res = await post(LIMITED, LABEL);
          return res;
        },
        429,
      ],
    ];
    const ids = new Set<string>();
    for (const [what, send, status] of outcomes) {
      const res = await send();
      expect(res.status, what).to.equal(status);
      expect(
        responseProblems(res, { what, apiKey: SECRET }).filter((p) => !p.startsWith('an unexpected failure')),
        what,
      ).to.deep.equal([]);
      expect(res.body.toString('latin1'), what).to.not.include(SECRET).and.not.include(LIMITED);
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size, 'a fresh id per response').to.equal(outcomes.length);
    // The renderer bug is logged for the operator (with its stack), under the request id, without the key.
    expect(logged.some((l) => l.includes('Cannot read properties'))).to.equal(true);
    expect(logged.filter((l) => l.includes(SECRET) || l.includes(LIMITED))).to.deep.equal([]);
    expect([...usage.buckets].filter((b) => b.includes(SECRET) || b.includes(LIMITED))).to.deep.equal([]);
    expect(usage.buckets.size).to.be.greaterThan(0);
  });

  it('echoes a sane caller X-Request-Id and replaces one that is not', async () => {
    const sane = await post(SECRET, LABEL, { 'X-Request-Id': 'order-42.label:7' });
    expect(sane.headers['x-request-id']).to.equal('order-42.label:7');
    const insane = await post(SECRET, LABEL, { 'X-Request-Id': `evil ${'x'.repeat(300)}` });
    expect(insane.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('keeps the key out of the logs when the key store is down (503)', async () => {
    const lines: string[] = [];
    const down: KeyStore = {
      isReady: () => true,
      find: () => Promise.reject(new Error(`connection refused looking up ${SECRET}`)),
    } as unknown as KeyStore;
    const outage = await listen({
      keyStore: down,
      usageStore: new MemoryUsageStore() as UsageStore,
      log: (m) => lines.push(m),
      storeTimeoutMs: 200,
    });
    try {
      const res = await sendRaw(outage.base, 'POST', PATH, { 'X-API-Key': SECRET }, LABEL);
      expect(res.status).to.be.oneOf([500, 503]);
      expect(
        responseProblems(res, { what: 'key store down', apiKey: SECRET }).filter(
          (p) => !p.startsWith('an unexpected failure'),
        ),
      ).to.deep.equal([]);
      expect(res.headers['x-request-id']).to.be.a('string');
      expect(
        lines.filter((l) => l.includes(SECRET)),
        'log lines with the key',
      ).to.deep.equal([]);
    } finally {
      await new Promise((r) => outage.server.close(r));
    }
  });
});
