// Readiness that recovers: the standalone server on a Redis that comes up 15 s after it (past the 10 s that key
// management waits for a first connection), and on one stopped for 15 s mid-run and started again empty. Neither
// needs a restart of the server: /readyz goes 503 -> 200 by itself, requests are served after, and `listening on`
// is printed only once Redis has answered. The 15 s set the scene; every assertion waits for an event (a printed
// line, /readyz answering) within a generous bound.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendRaw, type RawResponse } from './helpers/http-checks.js';
import {
  eventually,
  freePort,
  redisServerAvailable,
  startRedisServer,
  stopProcess,
  uniqueNamespace,
} from './helpers/http-redis.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'bin', 'zpl-server.js');
const MOUNT = '/compatibility/legacy/v1';
const KEY = 'k_recovery_0123456789';
/** How long Redis stays away: past the key store's 10 s first-connection wait (DEFAULT_REDIS_READY_TIMEOUT_MS). */
const AWAY_MS = 15_000;
/** Bound on each wait for the server to notice (it reconnects within a second; the machine may be very busy). */
const NOTICE_MS = 90_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function twoPorts(): Promise<[number, number]> {
  const first = await freePort();
  for (;;) {
    const second = await freePort();
    if (second !== first) return [first, second];
  }
}

describe('standalone server: a store that answers late, or goes away and comes back', function () {
  this.timeout(4 * NOTICE_MS);
  let dir: string;
  const processes: ChildProcess[] = [];

  before(async function () {
    if (!(await redisServerAvailable())) this.skip();
    dir = await mkdtemp(join(tmpdir(), 'zpl-recovery-'));
    await writeFile(join(dir, 'keys.json'), JSON.stringify([{ key: KEY, scope: 'all' }]));
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((child) => stopProcess(child)));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  function start(port: number, redisPort: number): WatchedProcess {
    const server = spawnWatched(process.execPath, [SERVER], {
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      API_KEYS_FILE: join(dir, 'keys.json'),
      STORE_NAMESPACE: uniqueNamespace(),
      SHUTDOWN_DELAY_MS: '0',
      UPSTREAM_MODE: 'off',
      LOG_LEVEL: 'info',
      RENDER_THREADS: '1',
    });
    processes.push(server.child);
    return server;
  }

  const get = (port: number, path: string): Promise<RawResponse> =>
    sendRaw(`http://127.0.0.1:${port}`, 'GET', path, {});
  const render = (port: number): Promise<RawResponse> =>
    sendRaw(
      `http://127.0.0.1:${port}`,
      'POST',
      `${MOUNT}/printers/8dpmm/labels/2x1/0`,
      { 'X-API-Key': KEY, 'Content-Type': 'application/x-www-form-urlencoded' },
      Buffer.from('^XA^FO10,10^GB80,80,40^FS^XZ'),
    );
  const readyz = async (port: number): Promise<number> => (await get(port, '/readyz')).status;

  it('Redis up 15 s after the server: /readyz 503 -> 200, `listening on` only then, requests served', async () => {
    const [port, redisPort] = await twoPorts();
    const server = start(port, redisPort);
    await server.waitFor(
      /"msg":"accepting connections on http:\/\/127\.0\.0\.1:\d+; \/readyz answers 503 until Redis answers/,
    );
    expect(await readyz(port)).to.equal(503);
    await pause(AWAY_MS);
    // Redis is not there yet: nothing may claim the server is listening.
    expect(await readyz(port)).to.equal(503);
    expect(
      server.lines.filter((l) => l.startsWith('listening on')),
      'listening before Redis answered',
    ).to.deep.equal([]);
    expect((await render(port)).status, 'a request before Redis answers').to.equal(503);

    const redis = await startRedisServer(redisPort);
    processes.push(redis);
    expect(
      await eventually(async () => (await readyz(port)) === 200, NOTICE_MS),
      '/readyz 200 once Redis answers',
    ).to.equal(true);
    await server.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const served = await render(port);
    expect(served.status, served.body.toString()).to.equal(200);
    expect(served.headers['content-type']).to.equal('image/png');
    expect(server.lines.filter((l) => l.startsWith('listening on'))).to.have.length(1);
  });

  it('Redis stopped for 15 s mid-run and started again empty: 503 while away, then ready and serving again', async () => {
    const [port, redisPort] = await twoPorts();
    const first = await startRedisServer(redisPort);
    processes.push(first);
    const server = start(port, redisPort);
    await server.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect((await render(port)).status).to.equal(200);

    await stopProcess(first);
    expect(
      await eventually(async () => (await readyz(port)) === 503, NOTICE_MS),
      '/readyz 503 while Redis is away',
    ).to.equal(true);
    const away = await render(port);
    expect(away.status).to.equal(503);
    expect(JSON.parse(away.body.toString()).error).to.equal('key_store_unavailable');
    await pause(AWAY_MS);
    expect(await readyz(port)).to.equal(503);

    // Started again without its data (no persistence): the server re-seeds the keys from API_KEYS_FILE by itself.
    processes.push(await startRedisServer(redisPort));
    expect(
      await eventually(async () => (await readyz(port)) === 200, NOTICE_MS),
      '/readyz 200 once Redis is back',
    ).to.equal(true);
    const served = await render(port);
    expect(served.status, served.body.toString()).to.equal(200);
    expect(
      server.lines.some((l) => l.includes('"msg":"seeded 1 API key again (the key store had lost them)"')),
    ).to.equal(true);
    expect(server.lines.filter((l) => l.startsWith('listening on'))).to.have.length(1);
  });
});
