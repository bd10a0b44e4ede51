// LEGACY_CLIENTS=1 on the standalone server: unchanged legacy clients get labels. With an anonymous key
// (ANONYMOUS_KEY_ID), a simple_zpl2-style raw POST to /v1/.../0/, a multipart upload, and a request sent
// through HTTP_PROXY (absolute-form request line) all return the label; without one, a key-less request is 401.

import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashKey, renderPng } from '../index.js';
import { decodePng, inkCount } from './helpers/png.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'bin', 'zpl-server.js');
const ZPL = '^XA^FO10,10^GB80,80,40^FS^XZ';
const ANONYMOUS = { key: 'k_anonymous_legacy_0123456789', scope: 'png' };
const ANONYMOUS_ID = hashKey(ANONYMOUS.key).slice(0, 16);

interface Answer { status: number; contentType: string; body: Buffer }

/** One request; `path` may be absolute-form (`http://api.labelary.com/v1/...`), as a client behind HTTP_PROXY sends it. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function multipart(field: string, filename: string, content: string | Buffer): { headers: Record<string, string>; body: Buffer } {
  const boundary = '----zplLegacyClient7MA4YWxkTrZu0gW';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body };
}

describe('LEGACY_CLIENTS=1: unchanged legacy clients get labels', function () {
  this.timeout(120_000); // waits end on printed lines and answers; the bound only ends a hung run
  let dir = '';
  let server: WatchedProcess | undefined;
  let port = 0;
  let expected: Buffer;

  const start = async (env: Record<string, string>): Promise<WatchedProcess> => {
    const started = spawnWatched(process.execPath, [SERVER], {
      PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', UPSTREAM_MODE: 'off', SHUTDOWN_DELAY_MS: '0', API_KEYS_FILE: join(dir, 'keys.json'), ...env,
    });
    port = Number(/:(\d+)$/.exec(await started.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/))![1]);
    return started;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zpl-legacy-clients-'));
    await writeFile(join(dir, 'keys.json'), JSON.stringify([ANONYMOUS]));
    expected = Buffer.from(await renderPng(ZPL, { dpmm: 8, widthIn: 2, heightIn: 1 }));
  });
  const stop = async (): Promise<void> => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.closed;
    }
    server = undefined;
  };
  afterEach(stop);
  after(() => rm(dir, { recursive: true, force: true }));

  describe('with an anonymous key', () => {
    let legacy: WatchedProcess | undefined;
    before(async () => { legacy = server = await start({ LEGACY_CLIENTS: '1', ANONYMOUS_KEY_ID: ANONYMOUS_ID }); });
    beforeEach(() => { server = legacy; });
    afterEach(() => { server = undefined; }); // one server for this group, stopped after it
    after(async () => { server = legacy; await stop(); });

    it('says what it turned on, and which key serves clients that cannot send one', () => {
      expect(server!.lines.some((l) => l.includes(`"msg":"LEGACY_CLIENTS=1: legacy API also at /v1 (/compatibility/legacy/v1, /v1), lenient paths, POST /graphics, ?key=; clients that cannot send a key are served as key ${ANONYMOUS_ID} (ANONYMOUS_KEY_ID)"`))).to.equal(true);
    });

    it('simple_zpl2-style: a raw POST to /v1/printers/8dpmm/labels/2x1/0/ without a key', async () => {
      const res = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0/', { 'Content-Type': 'application/x-www-form-urlencoded' }, Buffer.from(ZPL));
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('multipart: the ZPL as the form field `file`', async () => {
      const { headers, body } = multipart('file', 'label.zpl', ZPL);
      const res = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0', { ...headers, Accept: 'image/png' }, body);
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('through HTTP_PROXY: an absolute-form request line naming the legacy host', async () => {
      const res = await send(port, 'POST', 'http://api.labelary.com/v1/printers/8dpmm/labels/2x1/0/',
        { Host: 'api.labelary.com', 'Content-Type': 'application/x-www-form-urlencoded' }, Buffer.from(ZPL));
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('POST /v1/graphics converts an image to ^GFA', async () => {
      const { headers, body } = multipart('file', 'logo.png', expected);
      const res = await send(port, 'POST', '/v1/graphics', headers, body);
      expect(res.status, res.body.toString()).to.equal(200);
      expect(res.body.toString()).to.match(/\^GFA,\d+,\d+,\d+,/);
    });

    it('the anonymous key keeps its scope: a PDF is refused', async () => {
      const res = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0', { Accept: 'application/pdf' }, Buffer.from(ZPL));
      expect(res.status).to.equal(403);
    });
  });

  it('never turns on key-less access by itself: without ANONYMOUS_KEY_ID a request without a key is 401, and the start-up line says so', async () => {
    server = await start({ LEGACY_CLIENTS: '1' });
    expect(server.lines.some((l) => l.includes('it does not turn on key-less access: clients that cannot send a key need ANONYMOUS_KEY_ID'))).to.equal(true);
    const res = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0/', {}, Buffer.from(ZPL));
    expect(res.status).to.equal(401);
    const keyed = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0/', { 'X-API-Key': ANONYMOUS.key }, Buffer.from(ZPL));
    expect(keyed.status).to.equal(200);
    expect(inkCount(decodePng(keyed.body))).to.be.greaterThan(0);
  });

  it('is off by default: /v1 is 404', async () => {
    server = await start({});
    const res = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0', { 'X-API-Key': ANONYMOUS.key }, Buffer.from(ZPL));
    expect(res.status).to.equal(404);
  });
});
