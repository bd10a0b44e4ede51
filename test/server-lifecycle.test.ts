// The standalone server (`zpl-server`) in a fleet: ready means ready, and a rolling restart loses nothing.
// - Started before its Redis: /healthz 200 and /readyz 503 at once; `listening on` only once Redis answers
//   and the keys are seeded, and the first request after it is served.
// - SIGTERM: /readyz 503 at once while requests are still served (SHUTDOWN_DELAY_MS); then the listener
//   closes, idle keep-alive sockets are closed, the request in flight finishes, and the process exits 0.
// Every wait ends on an event (a printed line, a socket closing, a process exiting); the delay is ended by a
// second signal, never by a clock.

import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendRaw, type RawResponse } from './helpers/http-checks.js';
import { freePort, redisServerAvailable, startRedisServer, stopProcess } from './helpers/http-redis.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'bin', 'zpl-server.js');
const MOUNT = '/compatibility/legacy/v1';
const KEY = 'k_lifecycle_0123456789';

function start(env: Record<string, string>): WatchedProcess {
  return spawnWatched(process.execPath, [SERVER], {
    HOST: '127.0.0.1',
    REDIS_URL: '',
    API_KEYS_FILE: '',
    UPSTREAM_MODE: 'off',
    LOG_LEVEL: 'info',
    ...env,
  });
}

const get = (port: number, path: string): Promise<RawResponse> => sendRaw(`http://127.0.0.1:${port}`, 'GET', path, {});

function render(port: number, key: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return sendRaw(
    `http://127.0.0.1:${port}`,
    'POST',
    `${MOUNT}/printers/8dpmm/labels/2x1/0`,
    { 'X-API-Key': key, 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    Buffer.from('^XA^FO10,10^GB80,80,40^FS^XZ'),
  );
}

/** Two different free ports (one after the other, the system may hand out the same one twice). */
async function twoPorts(): Promise<[number, number]> {
  const first = await freePort();
  for (;;) {
    const second = await freePort();
    if (second !== first) return [first, second];
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** A kept-alive connection that has had one answer and now sits idle; `closed` resolves when the server closes it. */
async function idleKeepAlive(port: number): Promise<{ closed: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let text = '';
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n[\s\S]*\}\s*$/.test(text)) resolve();
    });
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
  });
  expect(text).to.match(/^HTTP\/1\.1 200 /);
  return { closed };
}

/** A render whose body is held back: in flight (headers read, `100 Continue` sent) until `finish()`. */
function heldRender(port: number, key: string): { accepted: Promise<void>; finish(): Promise<number> } {
  const body = '^XA^FO10,10^GB80,80,40^FS^XZ';
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path: `${MOUNT}/printers/8dpmm/labels/2x1/0`,
    method: 'POST',
    agent: false,
    headers: { 'X-API-Key': key, 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
  });
  const accepted = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const status = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  req.flushHeaders();
  return {
    accepted,
    finish: () => {
      req.end(body);
      return status;
    },
  };
}

describe('standalone server lifecycle: ready means ready, rolling restarts lose nothing', function () {
  // Waits are on events; the bound only ends a hung run.
  this.timeout(180_000);
  const started: WatchedProcess[] = [];
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zpl-lifecycle-'));
    await writeFile(join(dir, 'keys.json'), JSON.stringify([{ key: KEY, scope: 'all' }]));
  });
  afterEach(() => {
    for (const server of started.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('SIGTERM: /readyz 503 at once, requests still served during the delay, then listener and idle sockets closed, in-flight finished, exit 0', async () => {
    const port = await freePort();
    const server = start({
      PORT: String(port),
      API_KEYS_FILE: join(dir, 'keys.json'),
      SHUTDOWN_DELAY_MS: '3600000',
      SHUTDOWN_TIMEOUT_MS: '3600000',
    });
    started.push(server);
    await server.waitFor(/^listening on /);
    expect((await get(port, '/readyz')).status).to.equal(200);
    const idle = await idleKeepAlive(port);
    const inFlight = heldRender(port, KEY);
    await inFlight.accepted;

    server.child.kill('SIGTERM');
    await server.waitFor(/"msg":"SIGTERM: \/readyz answers 503; requests are served for another 3600000 ms/);
    const ready = await get(port, '/readyz');
    expect(ready.status).to.equal(503);
    expect(JSON.parse(ready.body.toString()).reasons).to.deep.equal(['shutting down']);
    expect((await get(port, '/healthz')).status, 'alive while draining').to.equal(200);
    const during = await render(port, KEY);
    expect(during.status, 'a new connection during the delay is served').to.equal(200);
    expect(during.headers['content-type']).to.equal('image/png');

    server.child.kill('SIGTERM'); // a second signal ends the delay
    await server.waitFor(/"msg":"SIGTERM: shutting down"/);
    await idle.closed; // the idle kept-alive socket is closed by the server
    expect(await refused(port), 'the listener is closed').to.equal(true);
    expect(server.child.exitCode, 'still running while a request is in flight').to.equal(null);
    expect(await inFlight.finish()).to.equal(200);
    expect(await server.closed).to.equal(0);
  });

  it('OPS_PORT: the ops routes on their own port, /metrics not on the API port', async () => {
    const [port, opsPort] = await twoPorts();
    const server = start({
      PORT: String(port),
      OPS_PORT: String(opsPort),
      API_KEYS_FILE: join(dir, 'keys.json'),
      SHUTDOWN_DELAY_MS: '0',
    });
    started.push(server);
    await server.waitFor(/^listening on /);
    expect(
      server.lines.some((l) =>
        l.includes(`OPS_PORT: /healthz, /readyz, /metrics and /openapi.json on http://127.0.0.1:${opsPort}`),
      ),
    ).to.equal(true);
    expect((await get(opsPort, '/metrics')).status).to.equal(200);
    expect((await get(opsPort, '/readyz')).status).to.equal(200);
    expect((await get(port, '/metrics')).status).to.equal(404);
    expect((await get(port, '/healthz')).status).to.equal(404);
    expect((await render(port, KEY)).status).to.equal(200);
    expect((await get(opsPort, `${MOUNT}/printers/8dpmm/labels/2x1/0`)).status, 'no API on the ops port').to.equal(404);
    server.child.kill('SIGTERM');
    expect(await server.closed).to.equal(0);
  });

  it('started before its Redis: /healthz 200 and /readyz 503 until Redis answers; the first request after `listening` is served', async function () {
    if (!(await redisServerAvailable())) this.skip();
    const [port, redisPort] = await twoPorts();
    const server = start({
      PORT: String(port),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      API_KEYS_FILE: join(dir, 'keys.json'),
      REDIS_NAMESPACE: `zpl-lifecycle-${process.pid}-${redisPort}`,
      SHUTDOWN_DELAY_MS: '0',
      ANONYMOUS_KEY_ID: 'ffffffffffffffff', // no such key: with Redis a warning (zpl-keys may add it later)
    });
    started.push(server);
    await server.waitFor(/"msg":"accepting connections on http:\/\/127\.0\.0\.1:\d+; \/readyz answers 503/);
    expect((await get(port, '/healthz')).status).to.equal(200);
    const notReady = await get(port, '/readyz');
    expect(notReady.status).to.equal(503);
    expect(JSON.parse(notReady.body.toString()).reasons).to.include('starting');
    expect(
      server.lines.some((l) => l.startsWith('listening on')),
      'not listening yet',
    ).to.equal(false);

    const redis = await startRedisServer(redisPort);
    try {
      await server.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      const first = await render(port, KEY);
      expect(first.status, first.body.toString()).to.equal(200);
      expect(first.headers['content-type']).to.equal('image/png');
      expect((await get(port, '/readyz')).status).to.equal(200);
      expect(
        server.lines.some(
          (l) => l.includes('"level":"warn"') && l.includes('ANONYMOUS_KEY_ID ffffffffffffffff matches no key'),
        ),
      ).to.equal(true);
      // The seeding line comes before `listening`, never after.
      const seededAt = server.lines.findIndex((l) => l.includes('"msg":"API keys stored in Redis: 1"'));
      expect(seededAt).to.be.within(
        0,
        server.lines.findIndex((l) => l.startsWith('listening on')),
      );
      server.child.kill('SIGTERM');
      expect(await server.closed).to.equal(0);
    } finally {
      await stopProcess(redis);
    }
  });
});
