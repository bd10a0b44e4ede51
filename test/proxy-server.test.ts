// The standalone server's UPSTREAM_* variables: the legacy service answers through `npm start` too.

import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import request from 'supertest';
import { readServerConfig } from '../examples/config.js';
import { startFakeUpstream, UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';

const SERVER = join(process.cwd(), 'dist', 'examples', 'server.js');
const PATH = '/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0';

interface Started { child: ChildProcess; base: string; key: string; lines: string[] }

/** Starts the server on a free port; resolves with its address and dev key, or rejects with its output. */
function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', API_KEYS_FILE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      const key = lines.find((l) => l.startsWith('dev API key: '))?.slice('dev API key: '.length);
      if (match && key) resolve({ child, base: match[1]!, key, lines });
    });
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${lines.join('\n')}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('standalone server with UPSTREAM_* variables', () => {
  let upstream: FakeUpstream;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.close());

  it('UPSTREAM_MODE=proxy forwards with UPSTREAM_API_KEY after checking the client key', async () => {
    const { child, base, key } = await startServer({ UPSTREAM_MODE: 'proxy', UPSTREAM_URL: upstream.url, UPSTREAM_API_KEY: 'k_legacy' });
    try {
      expect((await request(base).post(PATH).type('form').send('^XA^XZ')).status).to.equal(401);
      const res = await request(base).post(PATH).set('X-API-Key', key).type('form').send('^XA^FDa+b%25^FS^XZ')
        .buffer(true).parse((r, cb) => { const c: Buffer[] = []; r.on('data', (d: Buffer) => c.push(d)); r.on('end', () => cb(null, Buffer.concat(c))); });
      expect(res.status).to.equal(200);
      expect(res.headers['x-renderer']).to.equal('upstream');
      expect(Buffer.compare(res.body as Buffer, UPSTREAM_PNG)).to.equal(0);
      expect(upstream.received).to.have.length(1);
      expect(upstream.received[0]!.headers['x-api-key']).to.equal('k_legacy');
      expect(upstream.received[0]!.body.toString()).to.equal('^XA^FDa+b%25^FS^XZ');
    } finally {
      await stop(child);
    }
  });

  it('UPSTREAM_MODE=fallback renders supported documents itself', async () => {
    const { child, base, key } = await startServer({ UPSTREAM_MODE: 'fallback', UPSTREAM_URL: upstream.url });
    try {
      const local = await request(base).post(PATH).set('X-API-Key', key).type('form').send('^XA^FO5,5^GB20,20,20^FS^XZ');
      const forwarded = await request(base).post(PATH).set('X-API-Key', key).type('form').send('^XA^QQ^XZ');
      expect([local.headers['x-renderer'], forwarded.headers['x-renderer']]).to.deep.equal(['local', 'upstream']);
      expect(upstream.received).to.have.length(1);
    } finally {
      await stop(child);
    }
  });

  it('reads UPSTREAM_* and SHADOW_* settings, refusing a mode without UPSTREAM_URL or odd values', () => {
    expect(readServerConfig({ UPSTREAM_MODE: 'Shadow', UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: '2500', SHADOW_SAMPLE_RATE: '0.25', SHADOW_DIR: '/tmp/d' }))
      .to.deep.include({
        upstream: { mode: 'shadow', url: upstream.url, timeoutMs: 2500 },
        shadow: { sampleRate: 0.25, storeDir: '/tmp/d' },
      });
    expect(readServerConfig({}).upstream).to.deep.equal({ mode: 'off' });
    for (const [env, message] of [
      [{ UPSTREAM_MODE: 'shadow' }, 'UPSTREAM_MODE=shadow needs UPSTREAM_URL'],
      [{ UPSTREAM_MODE: 'mirror', UPSTREAM_URL: upstream.url }, 'UPSTREAM_MODE must be off, fallback, shadow or proxy, not mirror'],
      [{ UPSTREAM_MODE: 'shadow', UPSTREAM_URL: upstream.url, SHADOW_SAMPLE_RATE: '2' }, 'SHADOW_SAMPLE_RATE must be a share between 0 and 1, not 2'],
      [{ UPSTREAM_MODE: 'proxy', UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: '0' }, 'UPSTREAM_TIMEOUT_MS must be a whole number of milliseconds above 0, not 0'],
    ] as const) {
      expect(() => readServerConfig(env)).to.throw(message);
    }
  });
});
