// Fuzzing the HTTP layer: random methods, paths, headers, keys and hostile bodies (mutated fixtures and
// crafted attacks) against an app that mounts the router the way users do. Every response is well-formed
// (documented status, X-Request-Id, `ERROR: ` text or JSON error, no stack traces or paths), API keys
// never reach a log line or a response, and the next request still works.

import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { craftedAttack, drawCases, mutatedFixture, reportFailures, runAll } from './helpers/fuzz-cases.js';
import { fuzzPool } from './helpers/fuzz-pool.js';
import { BASE, buildApp, KEYS } from './helpers/http-app.js';
import { responseProblems, sendRaw, type RawResponse } from './helpers/http-checks.js';

interface HttpCase {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  multipart?: { boundary: string; field: string };
  what: string;
}

const RANDOM_KEY_PREFIX = 'k_fuzz_';

/** Mostly valid values, so requests get past validation to the renderer; sometimes garbage. */
const mostly = <T>(valid: fc.Arbitrary<T>, garbage: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: garbage });

const dpmm = mostly(
  fc.constantFrom('8dpmm', '8', '6dpmm', '12', '24dpmm'),
  fc.constantFrom('7dpmm', 'x', '', '%zz', '8dpmm%00', '9'.repeat(30)),
);
const dims = mostly(
  fc.constantFrom('4x6', '2x1', '1x1', '3x2', '4.005x8.01'),
  fc.oneof(
    fc.constantFrom(
      '0x6',
      '16x1',
      '15x15',
      '0.001x0.001',
      '1e3x2',
      'axb',
      '4x',
      'x6',
      '-1x-1',
      '4x6x8',
      'NaNxNaN',
      '4X6',
    ),
    fc
      .tuple(fc.double({ min: -1, max: 20, noNaN: true }), fc.double({ min: -1, max: 20, noNaN: true }))
      .map(([w, h]) => `${w}x${h}`),
  ),
);
const index = mostly(
  fc.constantFrom('0', '0', '0', '1'),
  fc.constantFrom('3', '-1', 'abc', '1e9', '99999999999999999999', '0x1', ''),
);
const apiKey = fc.oneof(
  { weight: 6, arbitrary: fc.constant(KEYS.all) },
  { weight: 1, arbitrary: fc.constantFrom(KEYS.pdf, KEYS.png, KEYS.expired, KEYS.revoked, KEYS.future) },
  {
    weight: 1,
    arbitrary: fc
      .string({ minLength: 1, maxLength: 40 })
      .map((s) => RANDOM_KEY_PREFIX + s.replace(/[^\x21-\x7e]/g, 'x')),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const headerValue = (values: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')) },
  );

const httpCase: fc.Arbitrary<HttpCase> = fc
  .record({
    method: mostly(
      fc.constantFrom<HttpCase['method']>('post', 'post', 'get'),
      fc.constantFrom<HttpCase['method']>('put', 'delete', 'patch'),
    ),
    dpmm,
    dims,
    index,
    shape: mostly(fc.constantFrom('one', 'one', 'all'), fc.constantFrom('all-slash', 'extra', 'short')),
    doc: fc.oneof({ weight: 3, arbitrary: mutatedFixture() }, { weight: 2, arbitrary: craftedAttack() }),
    key: apiKey,
    accept: headerValue([
      'image/png',
      'application/pdf',
      '*/*',
      'text/html',
      'application/json',
      'image/*',
      'application/pdf;q=0.5, image/png',
    ]),
    rotation: headerValue(['0', '90', '180', '270', '45']),
    quality: headerValue(['Bitonal', 'grayscale', 'BITONAL', 'colour']),
    linter: headerValue(['On', 'off', 'ON']),
    pageSize: headerValue(['Letter', 'a4', 'A3', 'A6', 'legal']),
    layout: headerValue(['1x1', '2x3', '0x1', '100x100', 'x']),
    requestId: headerValue(['abc-123', 'a'.repeat(200), 'bad id with spaces']),
    contentType: mostly(
      fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data'),
      fc.constantFrom('text/plain', 'application/octet-stream', 'multipart/form-data; boundary=', ''),
    ),
    multipartField: fc.constantFrom('file', 'file', 'other'),
  })
  .map((c) => {
    const base = `${BASE}/printers/${c.dpmm}/labels/${c.dims}`;
    const docText = encodeURIComponent(Buffer.from(c.doc.zpl.subarray(0, 3000)).toString('latin1'));
    const path =
      c.method === 'get'
        ? `${base}/${c.index}/${c.shape === 'short' ? '' : docText}`
        : {
            one: `${base}/${c.index}`,
            all: base,
            'all-slash': `${base}/`,
            extra: `${base}/${c.index}/more`,
            short: `${BASE}/printers/${c.dpmm}`,
          }[c.shape]!;
    const headers: Record<string, string> = {};
    if (c.key !== undefined) headers['X-API-Key'] = c.key;
    if (c.accept !== undefined) headers.Accept = c.accept;
    if (c.rotation !== undefined) headers['X-Rotation'] = c.rotation;
    if (c.quality !== undefined) headers['X-Quality'] = c.quality;
    if (c.linter !== undefined) headers['X-Linter'] = c.linter;
    if (c.pageSize !== undefined) headers['X-Page-Size'] = c.pageSize;
    if (c.layout !== undefined) headers['X-Page-Layout'] = c.layout;
    if (c.requestId !== undefined) headers['X-Request-Id'] = c.requestId;
    const what = `${c.method.toUpperCase()} ${path.slice(0, 120)} ${JSON.stringify(headers)} ${c.contentType} body: ${c.doc.how.slice(0, 160)}`;
    if (c.method === 'get') return { method: c.method, path, headers, what };
    if (c.contentType.startsWith('multipart/form-data') && c.contentType.length > 'multipart/form-data; '.length) {
      return {
        method: c.method,
        path,
        headers: { ...headers, 'Content-Type': c.contentType },
        body: Buffer.from(c.doc.zpl),
        what,
      };
    }
    if (c.contentType === 'multipart/form-data') {
      return {
        method: c.method,
        path,
        headers,
        body: Buffer.from(c.doc.zpl),
        multipart: { boundary: 'fuzzb0undary', field: c.multipartField },
        what,
      };
    }
    if (c.contentType) headers['Content-Type'] = c.contentType;
    return { method: c.method, path, headers, body: Buffer.from(c.doc.zpl), what };
  });

function multipartBody(doc: Buffer, boundary: string, field: string): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="label.zpl"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    doc,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

function send(base: string, c: HttpCase): Promise<RawResponse> {
  if (c.multipart) {
    const headers = { ...c.headers, 'Content-Type': `multipart/form-data; boundary=${c.multipart.boundary}` };
    return sendRaw(
      base,
      c.method.toUpperCase(),
      c.path,
      headers,
      multipartBody(c.body!, c.multipart.boundary, c.multipart.field),
    );
  }
  return sendRaw(base, c.method.toUpperCase(), c.path, c.headers, c.body);
}

describe('fuzz: HTTP layer', function () {
  this.timeout(600_000);
  let server: Server;
  let base: string;
  const logged: string[] = [];
  const consoleLines: string[] = [];
  const originals = { log: console.log, error: console.error, warn: console.warn, info: console.info };

  before(async () => {
    const { app } = await buildApp({
      render: fuzzPool().render,
      log: (m) => logged.push(m),
      maxBodyBytes: 256 * 1024,
      organizationRequestsPerSecond: 0,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Anything the service prints while fuzzed is checked for keys too.
    for (const name of Object.keys(originals) as (keyof typeof originals)[]) {
      console[name] = (...args: unknown[]) => {
        consoleLines.push(args.map(String).join(' '));
      };
    }
  });
  after(async () => {
    Object.assign(console, originals);
    await new Promise((r) => server.close(r));
  });

  const canary = async (): Promise<void> => {
    const res = await send(base, {
      method: 'post',
      path: `${BASE}/printers/8dpmm/labels/2x1/0`,
      headers: { 'X-API-Key': KEYS.all, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('^XA^FO10,10^GB50,50,5^FS^XZ'),
      what: 'canary',
    });
    expect(res.status, 'the service still answers').to.equal(200);
    expect(res.headers['content-type']).to.equal('image/png');
  };

  it('answers every random request with a well-formed response, and keeps answering', async () => {
    const cases = drawCases(httpCase, 0x477, 240);
    const statuses = new Map<number, number>();
    const keysSent = new Set<string>();
    const failures = await runAll(cases, 4, async (c) => {
      if (c.headers['X-API-Key']) keysSent.add(c.headers['X-API-Key']);
      const res = await send(base, c);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const problems = responseProblems(res, { what: c.what, apiKey: c.headers['X-API-Key'] });
      if (problems.length) throw new Error(problems.join('\n'));
    });
    if (process.env.FUZZ_RUNS)
      process.stdout.write(
        `      statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}\n`,
      );
    expect(failures, reportFailures(failures)).to.have.length(0);
    await canary();
    // The run reached the renderer, the validators and the key checks alike.
    for (const status of [200, 400, 401, 404])
      expect(statuses.get(status) ?? 0, `responses with status ${status}`).to.be.greaterThan(0);
    const leaks = [...logged, ...consoleLines].filter((line) =>
      [...keysSent].some((k) => k.length >= 6 && line.includes(k)),
    );
    expect(leaks, 'log lines naming an API key').to.deep.equal([]);
  });

  it('answers truncated and oversized bodies and broken multipart with clean errors', async () => {
    const cases: HttpCase[] = [
      {
        method: 'post',
        path: `${BASE}/printers/8dpmm/labels/4x6/0`,
        headers: { 'X-API-Key': KEYS.all, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Buffer.alloc(300 * 1024, 0x41),
        what: 'a body over the limit',
      },
      {
        method: 'post',
        path: `${BASE}/printers/8dpmm/labels/4x6/0`,
        headers: { 'X-API-Key': KEYS.all, 'Content-Type': 'multipart/form-data; boundary=abc' },
        body: Buffer.from('--abc\r\nContent-Disposition: form-data; name="file"\r\n\r\n^XA^FO1,1^GB5,5,5^FS'),
        what: 'multipart cut short',
      },
      {
        method: 'post',
        path: `${BASE}/printers/8dpmm/labels/4x6/0`,
        headers: { 'X-API-Key': KEYS.all, 'Content-Type': 'multipart/form-data' },
        body: Buffer.from('no boundary'),
        what: 'multipart without boundary',
      },
      {
        method: 'get',
        path: `${BASE}/printers/8dpmm/labels/4x6/0/%E0%A4%A`,
        headers: { 'X-API-Key': KEYS.all },
        what: 'broken percent-encoding',
      },
      {
        method: 'get',
        path: `${BASE}/printers/8dpmm/labels/4x6/0/${'%5EXA'.repeat(3000)}`,
        headers: { 'X-API-Key': KEYS.all },
        what: 'a 15 KB URL',
      },
    ];
    for (const c of cases) {
      const res = await send(base, c);
      expect(responseProblems(res, { what: c.what, apiKey: KEYS.all })).to.deep.equal([]);
      expect(res.status, c.what).to.be.oneOf([400, 404, 413]);
    }
    await canary();
  });

  it('answers a render that fails in the worker with a 500 `ERROR: ` text and no internals', async () => {
    const { app } = await buildApp({
      log: () => {},
      render: async () => {
        throw Object.assign(new Error('boom at /work/main/dist/renderer/x.js:1:2'), {
          stack: 'Error: boom\n    at secret (/work/main/x.js:1:1)',
        });
      },
    });
    const res = await request(app)
      .post(`${BASE}/printers/8dpmm/labels/4x6/0`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send('^XA^XZ');
    expect(res.status).to.equal(500);
    expect(res.text).to.match(/^ERROR: /);
    expect(res.text).to.not.match(/work|secret|\.js/);
    expect(res.headers['x-request-id']).to.be.a('string');
  });
});
