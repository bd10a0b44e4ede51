// Load what you use: what each package entry, and the standalone server serving a label with render workers, loads
// on the thread that imports it. Each case is a child process (helpers/loaded-modules.ts) that records its main
// thread's modules with module hooks; the render workers load the drawing code unseen, as they should.

import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { decodePng } from './helpers/png.js';

const DIST = join(process.cwd(), 'dist');
const DRIVER = join(DIST, 'test', 'helpers', 'loaded-modules.js');

/** The barcode, font and image libraries: only the renderer loads them, in the thread that draws. */
const DRAWING_PACKAGES = ['bwip-js', 'fontkit', 'pdf-lib', 'jimp', '@fontsource/roboto-condensed', 'dejavu-fonts-ttf'];
/** The shared stores' clients. */
const REDIS_PACKAGES = ['@redis/client', '@keyv/redis'];
const POSTGRES_PACKAGES = ['pg', '@keyv/postgres'];
/** What the router and the server load of the renderer: the pool (which starts the workers), its cost estimate, types and errors. */
const ROUTER_RENDERER = /^renderer\/(api|errors|cost-estimate|pool\/[a-z-]+|decode\/image-header|layout\/dots)\.js$/;

interface Loaded {
  /** Installed packages, by name. */
  packages: Set<string>;
  /** This package's modules, as paths below dist/ (`renderer/pool/index.js`). */
  own: string[];
}

function summarise(urls: readonly string[]): Loaded {
  const packages = new Set<string>();
  const own: string[] = [];
  const distUrl = `${pathToFileURL(DIST).href}/`;
  for (const url of urls) {
    const pkg = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (pkg) packages.add(pkg[1]!);
    else if (url.startsWith(distUrl)) own.push(url.slice(distUrl.length));
  }
  return { packages, own };
}

/** Resolves with the driver's next IPC message, or rejects with its output when it exits first. */
function nextMessage(child: ChildProcess, output: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null): void => reject(new Error(`child exited with ${code}:\n${output.join('\n')}`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message);
    });
  });
}

/** Starts the driver on `specifier`; `during` runs once it has imported it (and started the server). */
async function loadedBy(
  specifier: string,
  options: { startServer?: boolean; env?: Record<string, string>; during?: (lines: string[]) => Promise<void> } = {},
): Promise<Loaded> {
  const child = fork(DRIVER, [specifier, ...(options.startServer ? ['--start-server'] : [])], {
    execArgv: [],
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => output.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  try {
    expect(await nextMessage(child, output)).to.equal('imported');
    await options.during?.(output);
    const listed = nextMessage(child, output);
    child.send('list');
    return summarise((await listed) as string[]);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Resolves with the first line matching `re`, printed already or later. */
async function lineMatching(lines: string[], re: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    for (const line of lines) {
      const match = re.exec(line);
      if (match) return match;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function drawingModules(loaded: Loaded): string[] {
  return [
    ...DRAWING_PACKAGES.filter((p) => loaded.packages.has(p)),
    ...loaded.own.filter((f) => f.startsWith('renderer/') && !ROUTER_RENDERER.test(f)),
  ];
}

describe('what the main thread loads', function () {
  this.timeout(120_000);

  it('the standalone server with render workers serves a barcode and text, and loads no drawing code itself', async () => {
    let png: Uint8Array | undefined;
    const loaded = await loadedBy(pathToFileURL(join(DIST, 'server', 'server.js')).href, {
      startServer: true,
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        RENDER_THREADS: '1',
        API_KEYS_FILE: '',
        REDIS_URL: '',
        REDIS_CLUSTER_NODES: '',
        REDIS_SENTINELS: '',
        DATABASE_URL: '',
        UPSTREAM_MODE: '',
        SHUTDOWN_DELAY_MS: '0',
      },
      during: async (lines) => {
        const [, base] = await lineMatching(lines, /^listening on (http:\/\/127\.0\.0\.1:\d+)$/);
        const [, key] = await lineMatching(lines, /^dev API key: (\S+)$/);
        const res = await fetch(`${base}/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0/`, {
          method: 'POST',
          headers: { 'X-API-Key': key!, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: '^XA^FO20,20^BY2^BCN,60^FD12345^FS^FO20,110^A0N,30,30^FDHello^FS^XZ',
        });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('image/png');
        png = new Uint8Array(await res.arrayBuffer());
      },
    });
    // A worker drew the label: bars and letters are there.
    const image = decodePng(png!);
    expect(image.gray.some((g) => g < 128)).to.equal(true);
    expect(loaded.own).to.include.members([
      'server/server.js',
      'middleware/router/router.js',
      'renderer/pool/index.js',
    ]);
    expect(drawingModules(loaded)).to.deep.equal([]);
  });

  it('the package root loads everything, the drawing code included (the recorder sees it)', async () => {
    const loaded = await loadedBy('zpl-legacy-compat');
    expect(DRAWING_PACKAGES.filter((p) => loaded.packages.has(p))).to.include.members(['bwip-js', 'fontkit']);
    expect(loaded.own).to.include('renderer/barcodes/index.js');
  });

  it('zpl-legacy-compat/router loads no drawing code, no Redis client and no pg', async () => {
    const loaded = await loadedBy('zpl-legacy-compat/router');
    expect(loaded.own).to.include('middleware/router/router.js');
    expect(drawingModules(loaded)).to.deep.equal([]);
    expect([...REDIS_PACKAGES, ...POSTGRES_PACKAGES].filter((p) => loaded.packages.has(p))).to.deep.equal([]);
  });

  it('zpl-legacy-compat/renderer loads none of the router, its HTTP packages or the stores', async () => {
    const loaded = await loadedBy('zpl-legacy-compat/renderer');
    expect(loaded.packages).to.include('bwip-js');
    expect(loaded.own.filter((f) => !f.startsWith('renderer/'))).to.deep.equal([]);
    const http = ['router', 'busboy', 'prom-client', 'pino', 'http-proxy-middleware', 'keyv'];
    expect([...http, ...REDIS_PACKAGES, ...POSTGRES_PACKAGES].filter((p) => loaded.packages.has(p))).to.deep.equal([]);
  });

  for (const [backend, client, others] of [
    ['memory', undefined, [...REDIS_PACKAGES, ...POSTGRES_PACKAGES]],
    ['redis', '@redis/client', POSTGRES_PACKAGES],
    ['postgres', 'pg', REDIS_PACKAGES],
  ] as const) {
    it(`zpl-legacy-compat/stores/${backend} loads its own client only, and no renderer or router`, async () => {
      const loaded = await loadedBy(`zpl-legacy-compat/stores/${backend}`);
      if (client) expect(loaded.packages).to.include(client);
      expect(others.filter((p) => loaded.packages.has(p))).to.deep.equal([]);
      expect(
        loaded.own.filter((f) => !f.startsWith(`middleware/stores/`) && !f.startsWith('middleware/keys/')),
      ).to.deep.equal([]);
      expect(['router', 'busboy', 'pino', ...DRAWING_PACKAGES].filter((p) => loaded.packages.has(p))).to.deep.equal([]);
    });
  }
});
