// Graceful shutdown of the standalone server (`node dist/server/server.js`): on SIGTERM it stops
// accepting connections at once, lets the requests in flight finish and answer, then exits 0. Every step
// waits on an event, never on a clock: the request is in flight once the server has answered its headers
// with `100 Continue`; new connections are refused once "shutting down" is printed (it is printed after
// server.close()); the in-flight render may take as long as the machine needs (SHUTDOWN_TIMEOUT_MS).

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { sendRaw, type RawResponse } from './helpers/http-checks.js';
import { spawnWatched } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'server', 'server.js');
const MOUNT = '/compatibility/legacy/v1';

interface Started {
  child: ChildProcess;
  port: number;
  key: string;
  exited: Promise<number | null>;
  /** Resolves when a line matching `re` has been printed (stdout or stderr). */
  waitFor(re: RegExp): Promise<string>;
}

async function startServer(shutdownTimeoutMs: number): Promise<Started> {
  // Raster PDFs: the slow request's 15x15 inch pages take their time that way (vector pages of one box take milliseconds).
  const server = spawnWatched(process.execPath, [SERVER], {
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_URL: '',
    API_KEYS_FILE: '',
    UPSTREAM_MODE: 'off',
    SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
    SHUTDOWN_DELAY_MS: '0', // the delay for a load balancer has its own test (server-lifecycle)
    PDF_MODE: 'raster',
  });
  const line = await server.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
  const key = server.lines.find((l) => l.startsWith('dev API key: '))?.slice('dev API key: '.length) ?? '';
  return {
    child: server.child,
    port: Number(/:(\d+)$/.exec(line)![1]),
    key,
    exited: server.closed,
    waitFor: server.waitFor,
  };
}

interface HeldRequest {
  /** Resolves once the server has read the request's headers (it answered `100 Continue`). */
  accepted: Promise<void>;
  /** Sends the body; resolves with the answer. */
  finish(): Promise<RawResponse>;
  /** Resolves when the connection fails or is closed without an answer. */
  dropped: Promise<string>;
}

/** A request on its own connection whose body is held back until `finish()`: in flight for as long as the test wants. */
function heldPost(port: number, key: string, path: string, body: string, accept = 'image/png'): HeldRequest {
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path: `${MOUNT}${path}`,
    method: 'POST',
    agent: false,
    headers: {
      'X-API-Key': key,
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: accept,
      'Content-Length': Buffer.byteLength(body),
      Expect: '100-continue',
    },
  });
  const accepted = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  const answered = new Promise<RawResponse>((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
  });
  const dropped = new Promise<string>((resolve) => {
    req.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.once('close', () => resolve('closed'));
  });
  req.flushHeaders();
  return {
    accepted,
    dropped,
    finish: () => {
      req.end(body);
      return answered;
    },
  };
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('standalone server: graceful shutdown', function () {
  // Waits are on events; the bound is only there to end a hung run.
  this.timeout(300_000);
  let server: Started | undefined;

  afterEach(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    server = undefined;
  });

  it('finishes requests in flight after SIGTERM, refuses new connections, then exits 0', async () => {
    server = await startServer(3_600_000);
    const { port, key } = server;
    expect(key).to.have.length.greaterThan(10);

    // Three 15x15 inch pages at 24 dpmm: a render that takes its time, started only after shutdown began.
    const slow = heldPost(
      port,
      key,
      '/printers/24dpmm/labels/15x15',
      '^XA^FO10,10^GB500,500,250^FS^PQ3^XZ',
      'application/pdf',
    );
    const quick = heldPost(port, key, '/printers/8dpmm/labels/4x6/0', '^XA^FO5,5^GB400,400,40^FS^XZ');
    await Promise.all([slow.accepted, quick.accepted]);

    server.child.kill('SIGTERM');
    await server.waitFor(/"msg":"SIGTERM: shutting down"/);
    expect(await connectionRefused(port), 'new connections after SIGTERM are refused').to.equal(true);
    expect(server.child.exitCode, 'still running while requests are in flight').to.equal(null);

    const [slowRes, quickRes] = await Promise.all([slow.finish(), quick.finish()]);
    expect(slowRes.status).to.equal(200);
    expect(slowRes.headers['content-type']).to.equal('application/pdf');
    expect(slowRes.headers['x-total-count']).to.equal('3');
    expect(slowRes.body.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(slowRes.body.subarray(-8).toString('latin1')).to.match(/%%EOF\s*$/);
    expect(quickRes.status).to.equal(200);
    expect(quickRes.headers['content-type']).to.equal('image/png');
    expect(await server.exited).to.equal(0);
  });

  it('exits at once on SIGTERM when nothing is in flight', async () => {
    server = await startServer(3_600_000);
    const res = await sendRaw(
      `http://127.0.0.1:${server.port}`,
      'POST',
      `${MOUNT}/printers/8dpmm/labels/2x1/0`,
      { 'X-API-Key': server.key, 'Content-Type': 'application/x-www-form-urlencoded' },
      Buffer.from('^XA^XZ'),
    );
    expect(res.status).to.equal(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });

  it('does not wait past SHUTDOWN_TIMEOUT_MS for a request that never finishes, and logs it as cut off', async () => {
    server = await startServer(0);
    const stuck = heldPost(server.port, server.key, '/printers/8dpmm/labels/2x1/0', '^XA^XZ');
    await stuck.accepted;
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
    expect(await stuck.dropped).to.be.oneOf(['ECONNRESET', 'closed']);
    const line = JSON.parse(await server.waitFor(/"msg":"request cut off at shutdown"/)) as Record<string, unknown>;
    expect(line).to.include({
      event: 'request',
      method: 'POST',
      route: '/printers/{dpmm}/labels/{dimensions}/{index}',
      completed: false,
      endedBy: 'shutdown',
    });
  });
});
