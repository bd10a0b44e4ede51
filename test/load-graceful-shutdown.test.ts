// Graceful shutdown of the standalone server (`node dist/examples/server.js`): on SIGTERM it stops
// accepting connections at once, lets the renders in flight finish and answer, then exits 0.

import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sendRaw, type RawResponse } from './helpers/http-checks.js';

const SERVER = join(process.cwd(), 'dist', 'examples', 'server.js');
const MOUNT = '/compatibility/legacy/v1';

interface Started {
  child: ChildProcess;
  port: number;
  key: string;
  lines: string[];
  exited: Promise<number | null>;
  /** Resolves when a line matching `re` has been printed (stdout or stderr). */
  waitFor(re: RegExp): Promise<string>;
}

function startServer(): Promise<Started> {
  const child = spawn(process.execPath, [SERVER], {
    // Raster PDFs: thirty 15x15 inch pages take seconds that way (vector pages of one box take milliseconds).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', API_KEYS_FILE: '', UPSTREAM_MODE: 'off', PDF_MODE: 'raster' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  const onLine = (line: string): void => {
    lines.push(line);
    for (const w of waiters.filter((x) => x.re.test(line))) { waiters.splice(waiters.indexOf(w), 1); w.resolve(line); }
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (re: RegExp): Promise<string> => {
    const seen = lines.find((l) => re.test(l));
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ re, resolve }));
  };
  return Promise.race([
    waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/).then((line) => {
      const key = lines.find((l) => l.startsWith('dev API key: '))?.slice('dev API key: '.length) ?? '';
      return { child, port: Number(/:(\d+)$/.exec(line)![1]), key, lines, exited, waitFor };
    }),
    exited.then((code) => { throw new Error(`server exited with ${code}: ${lines.join('\n')}`); }),
  ]);
}

/** A request on its own connection (no keep-alive), so the server cannot hold it idle. */
function post(port: number, key: string, path: string, body: string, accept = 'image/png'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: `${MOUNT}${path}`, method: 'POST', agent: false,
      headers: { 'X-API-Key': key, 'Content-Type': 'application/x-www-form-urlencoded', Accept: accept, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('standalone server: graceful shutdown', function () {
  this.timeout(120_000);
  let server: Started | undefined;

  afterEach(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    server = undefined;
  });

  it('finishes renders in flight after SIGTERM, refuses new connections, then exits 0', async () => {
    server = await startServer();
    const { port, key } = server;
    expect(key).to.have.length.greaterThan(10);
    const warm = await post(port, key, '/printers/8dpmm/labels/2x1/0', '^XA^FO5,5^GB40,40,4^FS^XZ');
    expect(warm.status).to.equal(200); // the render workers have loaded

    // Thirty 15x15 inch pages at 24 dpmm: seconds of work, still rendering when the signal arrives.
    let slowDoneAt = 0;
    const slow = post(port, key, '/printers/24dpmm/labels/15x15', '^XA^FO10,10^GB500,500,250^FS^PQ30^XZ', 'application/pdf')
      .finally(() => { slowDoneAt = Date.now(); });
    const quick = post(port, key, '/printers/8dpmm/labels/4x6/0', '^XA^FO5,5^GB400,400,40^FS^XZ');
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill('SIGTERM');
    await server.waitFor(/SIGTERM: shutting down/);
    const shutdownAt = Date.now();

    expect(await connectionRefused(port), 'new connections after SIGTERM are refused').to.equal(true);
    const [slowRes, quickRes] = await Promise.all([slow, quick]);
    expect(slowDoneAt, 'the slow render was still in flight when shutdown began').to.be.greaterThan(shutdownAt);
    expect(slowRes.status).to.equal(200);
    expect(slowRes.headers['content-type']).to.equal('application/pdf');
    expect(slowRes.headers['x-total-count']).to.equal('30');
    expect(slowRes.body.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(slowRes.body.subarray(-8).toString('latin1')).to.match(/%%EOF\s*$/);
    expect(quickRes.status).to.equal(200);
    expect(await server.exited).to.equal(0);
  });

  it('exits at once on SIGTERM when nothing is in flight', async () => {
    server = await startServer();
    const res = await sendRaw(`http://127.0.0.1:${server.port}`, 'POST', `${MOUNT}/printers/8dpmm/labels/2x1/0`,
      { 'X-API-Key': server.key, 'Content-Type': 'application/x-www-form-urlencoded' }, Buffer.from('^XA^XZ'));
    expect(res.status).to.equal(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });
});
