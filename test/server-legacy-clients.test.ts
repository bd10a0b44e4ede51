// LEGACY_CLIENTS=1 on the standalone server: unchanged legacy clients get labels. With an anonymous key
// (ANONYMOUS_KEY_ID), a simple_zpl2-style raw POST to /v1/.../0/, a multipart upload, and a request sent
// through HTTP_PROXY (absolute-form request line) all return the label; without one, a key-less request is 401.

import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderPng } from '../index.js';
import { hashKey } from '../middleware/keys/key-record.js';
import { squareFont } from './helpers/hostile-fonts.js';
import { decodePng, inkCount } from './helpers/png.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'bin', 'zpl-server.js');
const ZPL = '^XA^FO10,10^GB80,80,40^FS^XZ';
const ANONYMOUS = { key: 'k_anonymous_legacy_0123456789', scope: 'png' };
const ANONYMOUS_ID = hashKey(ANONYMOUS.key).slice(0, 16);

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** One request; `path` may be absolute-form (`http://api.labelary.com/v1/...`), as a client behind HTTP_PROXY sends it. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Writes `bytes` on a fresh connection and resolves with the first whole answer (headers and Content-Length body),
 * as the client would read it on its keep-alive connection.
 */
function replay(port: number, bytes: string): Promise<Answer & { raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(bytes, 'latin1'));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (!(received.length >= end + 4 + length)) return;
      socket.destroy();
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        contentType: /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '',
        body: received.subarray(end + 4, end + 4 + length),
        raw: head,
      });
    });
    socket.on('error', reject);
  });
}

/**
 * What the `labelary` Ruby gem (Faraday on Net::HTTP) writes for its README's `Labelary::Label.render zpl: ...,
 * content_type: 'image/png', dpmm: 8, width: 2, height: 1` with `config.url` pointed here: an empty `X-Rotation` on
 * every request, Net::HTTP's default Content-Type and Accept-Encoding.
 */
function labelaryGemRequest(port: number, key: string, zpl: string): string {
  return (
    'POST /v1/printers/8dpmm/labels/2x1/0/ HTTP/1.1\r\n' +
    'Accept: image/png\r\n' +
    'X-Rotation: \r\n' +
    `X-Api-Key: ${key}\r\n` +
    'User-Agent: Faraday v2.12.2\r\n' +
    'Content-Type: application/x-www-form-urlencoded\r\n' +
    'Accept-Encoding: gzip;q=1.0,deflate;q=0.6,identity;q=0.3\r\n' +
    `Host: 127.0.0.1:${port}\r\n` +
    `Content-Length: ${Buffer.byteLength(zpl)}\r\n` +
    `\r\n${zpl}`
  );
}

/**
 * What the smart-dato PHP client (Guzzle) writes for `Labelary::convert($zpl, 'image/png', $key)`: index 0 is left out
 * of the path (`if ($instance->index)`), the key goes as `?key=`, the body has no Content-Type.
 */
function smartDatoRequest(port: number, key: string, zpl: string): string {
  return (
    `POST /v1/printers/8dpmm/labels/2x1?key=${encodeURIComponent(key)} HTTP/1.1\r\n` +
    `Host: 127.0.0.1:${port}\r\n` +
    'Accept: image/png\r\n' +
    `Content-Length: ${Buffer.byteLength(zpl)}\r\n` +
    'User-Agent: GuzzleHttp/7\r\n' +
    `\r\n${zpl}`
  );
}

function multipart(
  field: string,
  filename: string,
  content: string | Buffer,
): { headers: Record<string, string>; body: Buffer } {
  const boundary = '----zplLegacyClient7MA4YWxkTrZu0gW';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
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
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: '',
      UPSTREAM_MODE: 'off',
      SHUTDOWN_DELAY_MS: '0',
      API_KEYS_FILE: join(dir, 'keys.json'),
      ...env,
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
    before(async () => {
      legacy = server = await start({ LEGACY_CLIENTS: '1', ANONYMOUS_KEY_ID: ANONYMOUS_ID });
    });
    beforeEach(() => {
      server = legacy;
    });
    afterEach(() => {
      server = undefined;
    }); // one server for this group, stopped after it
    after(async () => {
      server = legacy;
      await stop();
    });

    it('says what it turned on, and which key serves clients that cannot send one', () => {
      expect(
        server!.lines.some((l) =>
          l.includes(
            `"msg":"LEGACY_CLIENTS=1: legacy API also at /v1 (/compatibility/legacy/v1, /v1), lenient paths, POST /graphics, POST /fonts, ?key=; clients that cannot send a key are served as key ${ANONYMOUS_ID} (ANONYMOUS_KEY_ID)"`,
          ),
        ),
      ).to.equal(true);
    });

    it('simple_zpl2-style: a raw POST to /v1/printers/8dpmm/labels/2x1/0/ without a key', async () => {
      const res = await send(
        port,
        'POST',
        '/v1/printers/8dpmm/labels/2x1/0/',
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        Buffer.from(ZPL),
      );
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('multipart: the ZPL as the form field `file`', async () => {
      const { headers, body } = multipart('file', 'label.zpl', ZPL);
      const res = await send(
        port,
        'POST',
        '/v1/printers/8dpmm/labels/2x1/0',
        { ...headers, Accept: 'image/png' },
        body,
      );
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('through HTTP_PROXY: an absolute-form request line naming the legacy host', async () => {
      const res = await send(
        port,
        'POST',
        'http://api.labelary.com/v1/printers/8dpmm/labels/2x1/0/',
        { Host: 'api.labelary.com', 'Content-Type': 'application/x-www-form-urlencoded' },
        Buffer.from(ZPL),
      );
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('POST /v1/graphics converts an image to ^GFA', async () => {
      const { headers, body } = multipart('file', 'logo.png', expected);
      const res = await send(port, 'POST', '/v1/graphics', headers, body);
      expect(res.status, res.body.toString()).to.equal(200);
      expect(res.body.toString()).to.match(/\^GFA,\d+,\d+,\d+,/);
    });

    it('POST /v1/fonts answers the ~DU that stores a TrueType font', async () => {
      const font = squareFont();
      const { headers, body } = multipart('file', 'square.ttf', font);
      const res = await send(port, 'POST', '/v1/fonts', headers, body);
      expect(res.status, res.body.toString()).to.equal(200);
      expect(res.body.toString()).to.equal(`^XA~DUR:FONT.TTF,${font.length},${font.toString('hex').toUpperCase()}^XZ`);
    });

    it('the anonymous key keeps its scope: a PDF is refused', async () => {
      const res = await send(
        port,
        'POST',
        '/v1/printers/8dpmm/labels/2x1/0',
        { Accept: 'application/pdf' },
        Buffer.from(ZPL),
      );
      expect(res.status).to.equal(403);
    });
  });

  describe('replayed clients, byte for byte', () => {
    const CLIENT = { key: 'k_replayed_client_0123456789', scope: 'all' };
    let replayed: WatchedProcess | undefined;
    before(async () => {
      await writeFile(join(dir, 'clients.json'), JSON.stringify([CLIENT]));
      replayed = server = await start({ LEGACY_CLIENTS: '1', API_KEYS_FILE: join(dir, 'clients.json') });
    });
    beforeEach(() => {
      server = replayed;
    });
    afterEach(() => {
      server = undefined;
    });
    after(async () => {
      server = replayed;
      await stop();
    });

    it('the labelary Ruby gem (empty X-Rotation on every request) gets the label', async () => {
      const res = await replay(port, labelaryGemRequest(port, CLIENT.key, ZPL));
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
    });

    it('the smart-dato PHP client (?key=) gets the label, and its key reaches no log line or metric', async () => {
      const res = await replay(port, smartDatoRequest(port, CLIENT.key, ZPL));
      expect([res.status, res.contentType], res.body.toString()).to.deep.equal([200, 'image/png']);
      expect(Buffer.compare(res.body, expected)).to.equal(0);
      const metrics = await send(port, 'GET', '/metrics', {});
      expect(metrics.status).to.equal(200);
      expect(metrics.body.toString()).to.not.include(CLIENT.key);
      await server!.waitFor(/"event":"request".*"status":200/);
      expect(server!.lines.join('\n')).to.not.include(CLIENT.key);
    });
  });

  it('without LEGACY_CLIENTS, ?key= is 401 naming ALLOW_QUERY_KEY and LEGACY_CLIENTS; with ALLOW_QUERY_KEY=1 it serves', async () => {
    const CLIENT = { key: 'k_replayed_client_0123456789', scope: 'all' };
    await writeFile(join(dir, 'clients.json'), JSON.stringify([CLIENT]));
    server = await start({ LEGACY_PATHS: '/v1', API_KEYS_FILE: join(dir, 'clients.json') });
    const res = await replay(port, smartDatoRequest(port, CLIENT.key, ZPL));
    expect(res.status).to.equal(401);
    const body = JSON.parse(res.body.toString()) as { error: string; message: string };
    expect(body.error).to.equal('invalid_key');
    expect(body.message).to.include('ALLOW_QUERY_KEY=1').and.include('LEGACY_CLIENTS=1');
    await stop();
    server = await start({ LEGACY_PATHS: '/v1', ALLOW_QUERY_KEY: '1', API_KEYS_FILE: join(dir, 'clients.json') });
    const zeroth = smartDatoRequest(port, CLIENT.key, ZPL).replace('/labels/2x1?', '/labels/2x1/0?'); // no lenient paths here
    const served = await replay(port, zeroth);
    expect([served.status, served.contentType]).to.deep.equal([200, 'image/png']);
  });

  it('never turns on key-less access by itself: without ANONYMOUS_KEY_ID a request without a key is 401, and the start-up line says so', async () => {
    server = await start({ LEGACY_CLIENTS: '1' });
    expect(
      server.lines.some((l) =>
        l.includes('it does not turn on key-less access: clients that cannot send a key need ANONYMOUS_KEY_ID'),
      ),
    ).to.equal(true);
    const res = await send(port, 'POST', '/v1/printers/8dpmm/labels/2x1/0/', {}, Buffer.from(ZPL));
    expect(res.status).to.equal(401);
    const keyed = await send(
      port,
      'POST',
      '/v1/printers/8dpmm/labels/2x1/0/',
      { 'X-API-Key': ANONYMOUS.key },
      Buffer.from(ZPL),
    );
    expect(keyed.status).to.equal(200);
    expect(inkCount(decodePng(keyed.body))).to.be.greaterThan(0);
  });

  it('is off by default: /v1 is 404', async () => {
    server = await start({});
    const res = await send(
      port,
      'POST',
      '/v1/printers/8dpmm/labels/2x1/0',
      { 'X-API-Key': ANONYMOUS.key },
      Buffer.from(ZPL),
    );
    expect(res.status).to.equal(404);
  });
});
