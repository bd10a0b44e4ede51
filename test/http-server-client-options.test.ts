// The standalone server's options for clients that cannot change, set by environment variables, over real
// HTTP against a spawned `dist/server/server.js`: LEGACY_PATHS, ANONYMOUS_KEY_ID, ALLOW_QUERY_KEY,
// LENIENT_PATHS, GRAPHICS_ENDPOINT. Without them nothing changes.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Jimp } from 'jimp';
import { startServer, stopServer, type StartedServer } from './helpers/server-process.js';

const ZPL = '^XA^FO50,50^GB100,100,100^FS^XZ';
const KEYS_CLI = join(process.cwd(), 'dist', 'bin', 'zpl-keys.js');
const run = promisify(execFile);

/** Runs `zpl-keys --file FILE ...` and returns its standard output. */
async function zplKeys(file: string, ...args: string[]): Promise<string> {
  return (await run(process.execPath, [KEYS_CLI, '--file', file, ...args])).stdout;
}

async function post(url: string, headers: Record<string, string> = {}, body = ZPL): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
}

const isPng = (bytes: ArrayBuffer) =>
  Buffer.from(bytes)
    .subarray(0, 4)
    .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));

describe('standalone server: options for clients that cannot change', function () {
  this.timeout(60_000);
  let file: string;
  let pngKey: string;
  let pngKeyId: string;

  before(async () => {
    file = join(await mkdtemp(join(tmpdir(), 'zpl-client-opts-')), 'keys.json');
    await writeFile(file, '[]'); // zpl-keys refuses a missing --file (issue 14)
    pngKey = /key: (\S+)/.exec(await zplKeys(file, 'create', '--scope', 'png'))![1]!;
    await zplKeys(file, 'create', '--scope', 'all');
    // The id exactly as `zpl-keys list` prints it (first column), for the key with scope png.
    const listed = (await zplKeys(file, 'list')).split('\n').find((line) => line.includes('scope=png'))!;
    pngKeyId = listed.trim().split(/\s+/)[0]!;
    expect(pngKeyId).to.match(/^[0-9a-f]{16}$/);
  });

  describe('with LEGACY_PATHS=/compatibility/legacy/v1,/v1 and ANONYMOUS_KEY_ID', () => {
    let server: StartedServer;
    before(async () => {
      server = await startServer({
        API_KEYS_FILE: file,
        LEGACY_PATHS: '/compatibility/legacy/v1,/v1',
        ANONYMOUS_KEY_ID: pngKeyId,
      });
    });
    after(() => stopServer(server.child));

    it('gives a client that sends only POST {base}/v1/printers/8dpmm/labels/4x6/0/ its PNG', async () => {
      const res = await post(`${server.base}/v1/printers/8dpmm/labels/4x6/0/`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(isPng(await res.arrayBuffer())).to.equal(true);
    });

    it('still refuses a PDF with 403, the anonymous key being png-only', async () => {
      const res = await post(`${server.base}/v1/printers/8dpmm/labels/4x6/0/`, { Accept: 'application/pdf' });
      expect(res.status).to.equal(403);
      expect(await res.json()).to.deep.include({ error: 'scope_denied', required: 'pdf', actual: 'png' });
    });

    it('serves the same API at /compatibility/legacy/v1 as well, and a sent key as itself', async () => {
      const res = await post(`${server.base}/compatibility/legacy/v1/printers/8dpmm/labels/4x6/0`);
      expect(res.status).to.equal(200);
      expect(
        (await post(`${server.base}/v1/printers/8dpmm/labels/4x6/0`, { 'X-API-Key': 'k_not_a_key' })).status,
      ).to.equal(401);
    });

    it('serves the legacy curl example: GET with the ZPL as the raw query string', async () => {
      const res = await fetch(`${server.base}/v1/printers/8dpmm/labels/4x6/0/?${encodeURIComponent(ZPL)}`);
      expect(res.status).to.equal(200);
      expect(isPng(await res.arrayBuffer())).to.equal(true);
    });

    it('answers the legacy linter header for ^GB0,0,0 byte for byte', async () => {
      const res = await post(
        `${server.base}/v1/printers/8dpmm/labels/4x6/0/`,
        { 'X-Linter': 'ON' },
        '^XA^FO50,50^GB0,0,0^FS^XZ',
      );
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-warnings')).to.equal(
        '18|1|^GB|3|Value 0 is less than minimum value 1; used 1 instead|' +
          '14|1|^GB|1|Value 0 is less than minimum value 1; used 1 instead|16|1|^GB|2|Value 0 is less than minimum value 1; used 1 instead',
      );
    });

    it('never logs the key', () => {
      expect(server.lines.join('\n')).to.not.include(pngKey);
    });

    it('names the anonymous key `anonymous` in its access lines, never by id', () => {
      const access = server.lines
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { keyId?: string; status?: number });
      expect(access.some((l) => l.keyId === 'anonymous' && l.status === 200)).to.equal(true);
      expect(access.some((l) => l.keyId === pngKeyId)).to.equal(false);
    });
  });

  describe('with ALLOW_QUERY_KEY=1, LENIENT_PATHS=1 and GRAPHICS_ENDPOINT=1', () => {
    let server: StartedServer;
    before(async () => {
      server = await startServer({
        API_KEYS_FILE: file,
        ALLOW_QUERY_KEY: '1',
        LENIENT_PATHS: '1',
        GRAPHICS_ENDPOINT: '1',
      });
    });
    after(() => stopServer(server.child));
    const base = () => `${server.base}/compatibility/legacy/v1`;

    it('takes the key from ?key=', async () => {
      const res = await fetch(
        `${base()}/printers/8dpmm/labels/4x6/0/${encodeURIComponent(ZPL)}?key=${encodeURIComponent(pngKey)}`,
      );
      expect(res.status).to.equal(200);
      expect(isPng(await res.arrayBuffer())).to.equal(true);
    });

    it('reads /labels/4x6// as every label', async () => {
      // The all-scope key's plain value is only in the key file the CLI wrote.
      const records = JSON.parse(await readFile(file, 'utf8')) as Array<{ key: string; scope: string }>;
      const allKey = records.find((r) => r.scope === 'all')!.key;
      const res = await post(
        `${base()}/printers/8dpmm/labels/4x6//`,
        { 'X-API-Key': allKey, Accept: 'application/pdf' },
        ZPL + ZPL,
      );
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-total-count')).to.equal('2');
    });

    it('never logs the ?key= value, and documents ?key= and POST /graphics in /openapi.json', async () => {
      await fetch(`${base()}/printers/8dpmm/labels/4x6/0/${encodeURIComponent(ZPL)}?key=${encodeURIComponent(pngKey)}`);
      expect(server.lines.join('\n')).to.not.include(pngKey);
      const doc = (await (await fetch(`${server.base}/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
        security: unknown[];
      };
      expect(doc.paths).to.have.property('/graphics');
      expect(doc.security).to.deep.include({ queryKey: [] });
    });

    it('converts an image on POST /graphics', async () => {
      const image = new Jimp({ width: 16, height: 2, color: 0x000000ff });
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(await image.getBuffer('image/png'))], { type: 'image/png' }),
        'logo.png',
      );
      const res = await fetch(`${base()}/graphics`, { method: 'POST', headers: { 'X-API-Key': pngKey }, body: form });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('^XA^FO0,0^GFA,4,4,2,FFFFFFFF^FS^XZ');
    });
  });

  describe('without any option', () => {
    let server: StartedServer;
    before(async () => {
      server = await startServer({ API_KEYS_FILE: file });
    });
    after(() => stopServer(server.child));

    it('answers no key 401, /v1 404, ignores ?key= and has no /graphics or /fonts', async () => {
      expect((await post(`${server.base}/compatibility/legacy/v1/printers/8dpmm/labels/4x6/0`)).status).to.equal(401);
      expect((await post(`${server.base}/v1/printers/8dpmm/labels/4x6/0/`, { 'X-API-Key': pngKey })).status).to.equal(
        404,
      );
      expect(
        (
          await post(
            `${server.base}/compatibility/legacy/v1/printers/8dpmm/labels/4x6/0?key=${encodeURIComponent(pngKey)}`,
          )
        ).status,
      ).to.equal(401);
      const graphics = await fetch(`${server.base}/compatibility/legacy/v1/graphics`, {
        method: 'POST',
        headers: { 'X-API-Key': pngKey },
      });
      expect(graphics.status).to.equal(404);
      const fonts = await fetch(`${server.base}/compatibility/legacy/v1/fonts`, {
        method: 'POST',
        headers: { 'X-API-Key': pngKey },
      });
      expect(fonts.status).to.equal(404);
    });
  });

  it('refuses to start with a LEGACY_PATHS entry that is no path', async () => {
    const error = await startServer({ API_KEYS_FILE: file, LEGACY_PATHS: 'v1' }).then(
      (s) => {
        s.child.kill();
        return undefined;
      },
      (e: Error) => e,
    );
    expect(error?.message).to.include('LEGACY_PATHS must be absolute URL paths');
  });
});
