// The router inside the apps teams already run, mounted from the package's built entry (dist/index.js):
// an Express 4 app whose json, urlencoded and text parsers run first, and an Express 5 app sharing its
// `/api` prefix with the router (`fallthrough: true`). Everything over real HTTP on ephemeral ports.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express5 from 'express';
import express4 from 'express4';
import { createLegacyRouter, createMemoryStores, LEGACY_MOUNT_PATH, render, type LegacyRouter } from '../index.js';
import { decodePng } from './helpers/png.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const KEY = 'k_host_test';
/** `+`, `%41` and `&` are ZPL text here: a form decoder would turn them into ' ', 'A' and a field split. */
const ZPL = '^XA^FO20,20^A0N,30,30^FDa+b%41&c^FS^FO20,80^GB120,40,40^FS^XZ';

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, text: body.toString('utf8') };
}

async function listen(app: {
  listen: (port: number, host: string) => Server;
}): Promise<{ server: Server; origin: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The PNG this package draws for `zpl` (bytes as given), 2x1 in at 8 dpmm. */
async function expectedPng(zpl: Uint8Array | string): Promise<Buffer> {
  const result = await render(zpl, {
    dpmm: 8,
    widthIn: 2,
    heightIn: 1,
    format: 'png',
    index: 0,
    rotation: 0,
    quality: 'grayscale',
  });
  return Buffer.from(result.body);
}

async function keyedStores() {
  const stores = createMemoryStores();
  await stores.ready;
  await stores.keyStore.add({ key: KEY, scope: 'all' });
  return stores;
}

describe('the router in an Express 4 app with json, urlencoded and text parsers mounted first', function () {
  this.timeout(30_000);
  let server: Server;
  let origin: string;
  let router: LegacyRouter;
  let atRoot: LegacyRouter;
  const logged: string[] = [];
  const labelUrl = (): string => `${origin}${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0`;

  before(async () => {
    const app = express4();
    app.use(express4.json());
    app.use(express4.urlencoded({ extended: false }));
    app.use(express4.text());
    // A multer-like multipart parser: reads the whole stream and leaves only decoded fields behind.
    app.use((req, _res, next) => {
      if (!req.is('multipart/form-data')) return next();
      req.on('data', () => {});
      req.on('end', () => {
        req.body = { note: 'fields only' };
        next();
      });
    });
    // A second router at the root, before the host's routes: with fallthrough they still answer.
    atRoot = createLegacyRouter({ ...(await keyedStores()), renderThreads: 0, fallthrough: true, log: () => {} });
    app.use(atRoot);
    app.get('/health', (_req, res) => {
      res.json({ ok: true });
    });
    app.post('/echo', (req, res) => {
      res.json({ got: req.body as unknown });
    });
    router = createLegacyRouter({ ...(await keyedStores()), renderThreads: 0, log: (line) => logged.push(line) });
    app.use(LEGACY_MOUNT_PATH, router);
    ({ server, origin } = await listen(app));
  });
  after(async () => {
    await closeServer(server);
    await Promise.all([router.close(), atRoot.close()]);
  });
  beforeEach(() => {
    logged.length = 0;
  });

  it('answers a form-encoded body the urlencoded parser decoded at once with 500 and an ERROR text naming cause and fix, and logs it', async () => {
    const res = await send(labelUrl(), {
      method: 'POST',
      body: ZPL,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).to.equal(500);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(res.text).to.match(/^ERROR: The request body was already read by a form parser \(express\.urlencoded\(\)\)/);
    expect(res.text).to.contain('Mount the legacy router before any body parser, or exclude its path from the parser');
    expect(logged).to.have.length(1);
    expect(logged[0]).to.contain(res.headers.get('x-request-id')!).and.contain('express.urlencoded()');
  });

  it('answers a JSON body the json parser decoded at once with the same 500', async () => {
    const res = await send(labelUrl(), {
      method: 'POST',
      body: JSON.stringify({ zpl: ZPL }),
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
    });
    expect([res.status, res.text.slice(0, 74)]).to.deep.equal([
      500,
      'ERROR: The request body was already read by a JSON parser (express.json())',
    ]);
  });

  it('answers a multipart body another parser consumed with the same 500', async () => {
    const form = new FormData();
    form.set('file', new Blob([ZPL]), 'label.zpl');
    const res = await send(labelUrl(), { method: 'POST', body: form, headers: { 'X-API-Key': KEY } });
    expect(res.status).to.equal(500);
    expect(res.text).to.match(/^ERROR: The request body was already read by a multipart parser/);
  });

  it('renders a body the text parser kept, byte for byte', async () => {
    const res = await send(labelUrl(), {
      method: 'POST',
      body: ZPL,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'text/plain' },
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.compare(res.body, await expectedPng(ZPL))).to.equal(0);
    expect(decodePng(res.body).width).to.equal(406);
  });

  it('renders a Latin-1 text body with its charset byte for byte, and refuses one the UTF-8 decoder mangled', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('^XA^CI27^FO20,20^A0N,30,30^FD'),
      Buffer.from([0xc4, 0xe9]),
      Buffer.from('^FS^XZ'),
    ]);
    const kept = await send(labelUrl(), {
      method: 'POST',
      body: latin1,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'text/plain; charset=iso-8859-1' },
    });
    expect(kept.status, kept.text).to.equal(200);
    expect(Buffer.compare(kept.body, await expectedPng(latin1))).to.equal(0);

    const mangled = await send(labelUrl(), {
      method: 'POST',
      body: latin1,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'text/plain' },
    });
    expect(mangled.status).to.equal(500);
    expect(mangled.text).to.match(
      /^ERROR: The request body was already read by a text parser \(express\.text\(\)\) that could not decode every byte/,
    );
  });

  it('still reads a raw body itself when no parser claimed its type', async () => {
    const res = await send(labelUrl(), {
      method: 'POST',
      body: ZPL,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/octet-stream' },
    });
    expect(res.status, res.text).to.equal(200);
    expect(Buffer.compare(res.body, await expectedPng(ZPL))).to.equal(0);
  });

  it('serves the legacy routes from a router mounted at the root with fallthrough, and the host routes after it', async () => {
    const res = await send(`${origin}/printers/8dpmm/labels/2x1/0/${encodeURIComponent(ZPL)}`, {
      headers: { 'X-API-Key': KEY },
    });
    expect(res.status, res.text).to.equal(200);
    expect(Buffer.compare(res.body, await expectedPng(ZPL))).to.equal(0);
    const health = await send(`${origin}/health`);
    expect([health.status, health.headers.get('x-request-id')]).to.deep.equal([200, null]);
  });

  it("leaves the host's own routes and parsers working", async () => {
    expect(JSON.parse((await send(`${origin}/health`)).text)).to.deep.equal({ ok: true });
    const echo = await send(`${origin}/echo`, {
      method: 'POST',
      body: 'a=1+2',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(JSON.parse(echo.text)).to.deep.equal({ got: { a: '1 2' } });
  });
});

describe('the router in an Express 5 app, on the /api prefix it shares with the host (fallthrough: true)', function () {
  this.timeout(30_000);
  let server: Server;
  let origin: string;
  let router: LegacyRouter;
  let upstream: FakeUpstream;
  let proxyRouter: LegacyRouter;

  before(async () => {
    upstream = await startFakeUpstream();
    const stores = await keyedStores();
    const app = express5();
    // express.raw keeps the bytes: the router renders from req.body, multipart included.
    app.use(express5.raw({ type: ['application/octet-stream', 'multipart/form-data'], limit: '4mb' }));
    router = createLegacyRouter({ ...stores, renderThreads: 0, fallthrough: true, log: () => {} });
    proxyRouter = createLegacyRouter({
      ...stores,
      fallthrough: true,
      mode: 'proxy',
      upstream: { url: upstream.url },
      log: () => {},
    });
    app.use('/api', router);
    app.get('/api/users', (_req, res) => {
      res.json(['ada']);
    });
    app.use('/proxied', proxyRouter);
    // A host middleware that reads every request stream to its end (a logger, a signature check...).
    const drain = (req: express5.Request, _res: express5.Response, next: express5.NextFunction): void => {
      req.resume();
      req.once('end', () => next());
    };
    app.use('/drained', drain, proxyRouter);
    app.get('/proxied/status', (_req, res) => {
      res.type('text').send('host status');
    });
    ({ server, origin } = await listen(app));
  });
  after(async () => {
    await closeServer(server);
    await Promise.all([router.close(), proxyRouter.close(), upstream.close()]);
  });

  it("passes the host's routes on untouched: no key asked, no X-Request-Id added", async () => {
    const res = await send(`${origin}/api/users`);
    expect([res.status, res.text]).to.deep.equal([200, '["ada"]']);
    expect(res.headers.get('x-request-id')).to.equal(null);
  });

  it("lets the host answer paths nobody routes (Express's own 404, not the legacy one)", async () => {
    const res = await send(`${origin}/api/nothing`, { headers: { 'X-API-Key': KEY } });
    expect(res.status).to.equal(404);
    expect(res.text).to.contain('Cannot GET /api/nothing');
  });

  it('keeps /printers/... as the legacy API: key checked, legacy 404 for unknown shapes', async () => {
    expect((await send(`${origin}/api/printers/8dpmm/labels/2x1/0`, { method: 'POST', body: ZPL })).status).to.equal(
      401,
    );
    const unknown = await send(`${origin}/api/printers/8dpmm/status`, { headers: { 'X-API-Key': KEY } });
    expect([unknown.status, unknown.text]).to.deep.equal([404, 'ERROR: HTTP 404 Not Found']);
  });

  it('renders a raw body express.raw() read, byte for byte', async () => {
    const res = await send(`${origin}/api/printers/8dpmm/labels/2x1/0`, {
      method: 'POST',
      body: ZPL,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/octet-stream' },
    });
    expect(res.status, res.text).to.equal(200);
    expect(Buffer.compare(res.body, await expectedPng(ZPL))).to.equal(0);
  });

  it('renders the file of a multipart body express.raw() read', async () => {
    const form = new FormData();
    form.set('file', new Blob([ZPL]), 'label.zpl');
    const res = await send(`${origin}/api/printers/8dpmm/labels/2x1/0`, {
      method: 'POST',
      body: form,
      headers: { 'X-API-Key': KEY },
    });
    expect(res.status, res.text).to.equal(200);
    expect(Buffer.compare(res.body, await expectedPng(ZPL))).to.equal(0);
  });

  it('refuses a raw body over maxBodyBytes with 413 even when the host read it', async () => {
    const res = await send(`${origin}/api/printers/8dpmm/labels/2x1/0`, {
      method: 'POST',
      body: Buffer.alloc(1024 * 1024 + 1, 0x20),
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/octet-stream' },
    });
    expect([res.status, res.text]).to.deep.equal([
      413,
      'ERROR: Request body is larger than the limit of 1048576 bytes',
    ]);
  });

  it('in proxy mode forwards only /printers/... and leaves the rest to the host', async () => {
    const before = upstream.received.length;
    const host = await send(`${origin}/proxied/status`, { headers: { 'X-API-Key': KEY, Cookie: 'session=secret' } });
    expect([host.status, host.text]).to.deep.equal([200, 'host status']);
    expect(upstream.received.length).to.equal(before);
    const forwarded = await send(`${origin}/proxied/printers/8dpmm/labels/2x1/0`, {
      method: 'POST',
      body: ZPL,
      headers: { 'X-API-Key': KEY, 'Content-Type': 'application/octet-stream' },
    });
    expect([forwarded.status, forwarded.headers.get('x-renderer')]).to.deep.equal([200, 'upstream']);
    expect(upstream.received.slice(before).map((r) => [r.url, r.body.toString()])).to.deep.equal([
      ['/printers/8dpmm/labels/2x1/0', ZPL],
    ]);
  });

  it('forwards a bodiless GET whose empty stream a host middleware already drained', async () => {
    const before = upstream.received.length;
    const res = await send(`${origin}/drained/printers/8dpmm/labels/2x1/0/%5EXA%5EXZ`, {
      headers: { 'X-API-Key': KEY },
    });
    expect([res.status, res.headers.get('x-renderer')]).to.deep.equal([200, 'upstream']);
    expect(upstream.received.slice(before).map((r) => [r.method, r.url, r.body.length])).to.deep.equal([
      ['GET', '/printers/8dpmm/labels/2x1/0/%5EXA%5EXZ', 0],
    ]);
  });

  it('without fallthrough keeps the spec: every path under the mount point is the legacy API', async () => {
    const app = express5();
    const own = createLegacyRouter({ ...(await keyedStores()), renderThreads: 0, log: () => {} });
    app.use('/api', own);
    app.get('/api/users', (_req, res) => {
      res.json(['ada']);
    });
    const { server: plain, origin: plainOrigin } = await listen(app);
    try {
      expect((await send(`${plainOrigin}/api/users`)).status).to.equal(401);
      const res = await send(`${plainOrigin}/api/users`, { headers: { 'X-API-Key': KEY } });
      expect([res.status, res.text]).to.deep.equal([404, 'ERROR: HTTP 404 Not Found']);
    } finally {
      await closeServer(plain);
      await own.close();
    }
  });
});
