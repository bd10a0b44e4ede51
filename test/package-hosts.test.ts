// The packed package (`npm pack`) installed into throw-away TypeScript hosts outside the repository, as a
// team would use it: the public types compile under `strict` with no @types/express, Express 4 and 5 hosts
// accept the router in app.use(), a CommonJS host require()s the package (Node 20.19+) with
// `module: nodenext` and gets TS1479 with `node16`, `zpl-legacy-compat/package.json` resolves, and a host
// imports the router, the renderer and each store backend by their subpaths.
// Offline: the tarball is unpacked into the host, and its dependencies are links into this repository's
// node_modules (so nothing from a parent folder, @types/express included, leaks into the hosts).

import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const MANIFEST = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

const STRICT = {
  strict: true,
  skipLibCheck: false,
  noEmitOnError: true,
  target: 'ES2022',
  outDir: 'out',
  types: ['node'],
};

/** A host folder: the unpacked package, its dependencies and `links` linked in, and the given files. */
function makeHost(
  root: string,
  tarball: string,
  name: string,
  links: Record<string, string>,
  files: Record<string, string>,
): string {
  const host = join(root, name);
  const modules = join(host, 'node_modules');
  mkdirSync(modules, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', modules]);
  renameSync(join(modules, 'package'), join(modules, 'zpl-legacy-compat'));
  const all: Record<string, string> = { '@types/node': '@types/node', ...links };
  for (const dep of Object.keys(MANIFEST.dependencies)) all[dep] = dep;
  for (const [as, from] of Object.entries(all)) {
    mkdirSync(dirname(join(modules, as)), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', from), join(modules, as), 'dir');
  }
  for (const [file, text] of Object.entries(files)) writeFileSync(join(host, file), text);
  return host;
}

/** tsc's diagnostics for the host ('' when it compiled). */
async function compile(host: string): Promise<string> {
  try {
    await run(process.execPath, [TSC, '-p', join(host, 'tsconfig.json')], { cwd: host });
    return '';
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || String(err);
  }
}

const tsconfig = (options: Record<string, unknown>): string =>
  JSON.stringify({ compilerOptions: { ...STRICT, ...options }, include: ['*.ts'] });

/** Renders one label through the router over HTTP, closes everything, and exits by itself. */
const SERVER_HOST = `
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLegacyRouter, createMemoryStores, type LegacyRouter } from 'zpl-legacy-compat';

const stores = createMemoryStores();
await stores.ready;
await stores.keyStore.add({ key: 'k_host', scope: 'all' });
const router: LegacyRouter = createLegacyRouter({ ...stores, renderThreads: 1, fallthrough: true });
// Type checks only, never called: were the router typed any, these expected errors would be missing.
export const typeChecks = (): void => {
  // @ts-expect-error close() takes no argument
  void router.close('now');
  // @ts-expect-error fallthrough is a boolean
  createLegacyRouter({ ...stores, fallthrough: 'yes' });
};
// A bare Node server: the router sees the whole path, so the legacy routes live at the root here.
const server = http.createServer((req, res) => router(req, res, () => { res.statusCode = 418; res.end('host'); }));
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const origin = 'http://127.0.0.1:' + (server.address() as AddressInfo).port;
const label = await fetch(origin + '/printers/8dpmm/labels/1x1/0', {
  method: 'POST', headers: { 'X-API-Key': 'k_host', Connection: 'close' }, body: '^XA^FO10,10^GB50,50,25^FS^XZ',
});
const png = Buffer.from(await label.arrayBuffer());
const other = await fetch(origin + '/elsewhere', { headers: { Connection: 'close' } });
server.close();
const closed: Promise<void> = router.close();
await closed;
console.log(JSON.stringify({ status: label.status, type: label.headers.get('content-type'), png: png.subarray(1, 4).toString(), other: other.status }));
`;

/** Express hosts: the router is accepted by app.use() with the host's own @types/express. */
const EXPRESS_HOST = `
import express from 'express';
import { createLegacyRouter, createMemoryStores, LEGACY_MOUNT_PATH } from 'zpl-legacy-compat';

const app = express();
app.use(express.json());
const router = createLegacyRouter({ ...createMemoryStores(), fallthrough: true });
app.use(LEGACY_MOUNT_PATH, router);
app.use('/api', router, (_req: express.Request, res: express.Response) => { res.json({ host: true }); });
export const stop = (): Promise<void> => router.close();
`;

/** A CommonJS host: its imports become require() calls. */
const CJS_HOST = `
import { createLegacyRouter, createMemoryStores } from 'zpl-legacy-compat';

const router = createLegacyRouter({ ...createMemoryStores() });
router.close().then(() => console.log(JSON.stringify({ required: typeof router, close: typeof router.close })));
`;

/** A host importing each subpath export alone, types included: the router, the renderer and the store backends. */
const SUBPATH_HOST = `
import { createLegacyRouter, LEGACY_MOUNT_PATH, type LegacyRouter, type OpenedStores } from 'zpl-legacy-compat/router';
import { layout, renderPng, type LayoutResult, type RenderRequest } from 'zpl-legacy-compat/renderer';
import { createMemoryStores, MemoryUsageStore } from 'zpl-legacy-compat/stores/memory';
import { createRedisStores, type RedisStoresOptions } from 'zpl-legacy-compat/stores/redis';
import { createPostgresStores, type PostgresStoresOptions } from 'zpl-legacy-compat/stores/postgres';

const zpl = '^XA^FO10,10^GB50,50,25^FS^XZ';
const stores: OpenedStores = createMemoryStores();
const router: LegacyRouter = createLegacyRouter({ ...stores, renderThreads: 1 });
const png = await renderPng(zpl, { dpmm: 8, widthIn: 1, heightIn: 1 });
const laid: LayoutResult = layout(zpl, { dpmm: 8, widthIn: 1, heightIn: 1 });
await router.close();
await stores.close();
// Type checks only, never called: were the entries typed any, these expected errors would be missing.
export const typeChecks = (): void => {
  const redis: RedisStoresOptions = { url: 'redis://127.0.0.1:6379' };
  const postgres: PostgresStoresOptions = { url: 'postgres://127.0.0.1:5432/labels' };
  void [createRedisStores(redis), createPostgresStores(postgres)];
  // @ts-expect-error a Redis URL is a string
  createRedisStores({ url: 6379 });
  // @ts-expect-error dpmm is 6, 8, 12 or 24
  const request: RenderRequest = { dpmm: 7, widthIn: 1, heightIn: 1 };
  void request;
};
console.log(JSON.stringify({
  png: Buffer.from(png).subarray(1, 4).toString(),
  elements: laid.elements.length,
  mount: LEGACY_MOUNT_PATH,
  backends: [typeof createRedisStores, typeof createPostgresStores, typeof MemoryUsageStore],
}));
`;

describe('the packed package in TypeScript hosts without @types/express', function () {
  this.timeout(120_000);
  let root: string;
  let tarball: string;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'zpl-hosts-'));
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', root], {
      cwd: REPO,
    });
    tarball = join(root, stdout.trim().split('\n').pop()!);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('has no express among its dependencies: the router is built on `router`', () => {
    expect(MANIFEST.dependencies).to.not.have.property('express');
    expect(MANIFEST.dependencies).to.have.property('router');
  });

  it('compiles a strict ESM host (module NodeNext, skipLibCheck off) and renders through it over HTTP', async () => {
    const host = makeHost(
      root,
      tarball,
      'esm',
      {},
      {
        'package.json': JSON.stringify({ type: 'module' }),
        'tsconfig.json': tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext' }),
        'host.ts': SERVER_HOST,
      },
    );
    expect(await compile(host)).to.equal('');
    const { stdout } = await run(process.execPath, [join(host, 'out', 'host.js')], { cwd: host, timeout: 60_000 });
    // The last line is the host's; the router's default logger (pino, standard output) writes its access line first.
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).to.deep.equal({
      status: 200,
      type: 'image/png',
      png: 'PNG',
      other: 418,
    });
  });

  it('compiles and runs a strict host that imports the router, the renderer and each store backend by subpath', async () => {
    const host = makeHost(
      root,
      tarball,
      'subpaths',
      {},
      {
        'package.json': JSON.stringify({ type: 'module' }),
        'tsconfig.json': tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext' }),
        'host.ts': SUBPATH_HOST,
      },
    );
    expect(await compile(host)).to.equal('');
    const { stdout } = await run(process.execPath, [join(host, 'out', 'host.js')], { cwd: host, timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).to.deep.equal({
      png: 'PNG',
      elements: 1,
      mount: '/compatibility/legacy/v1',
      backends: ['function', 'function', 'function'],
    });
  });

  it('compiles the same ESM host with module Node16', async () => {
    const host = makeHost(
      root,
      tarball,
      'esm-node16',
      {},
      {
        'package.json': JSON.stringify({ type: 'module' }),
        'tsconfig.json': tsconfig({ module: 'Node16', moduleResolution: 'Node16' }),
        'host.ts': SERVER_HOST,
      },
    );
    expect(await compile(host)).to.equal('');
  });

  for (const [types, express] of [
    ['@types/express', 'express'],
    ['@types/express4', 'express4'],
  ] as const) {
    it(`accepts the router in app.use() of a strict host with ${express === 'express' ? 'Express 5' : 'Express 4'} and its types`, async () => {
      const host = makeHost(
        root,
        tarball,
        `with-${express}`,
        { '@types/express': types, express },
        {
          'package.json': JSON.stringify({ type: 'module' }),
          'tsconfig.json': tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node', 'express'] }),
          'host.ts': EXPRESS_HOST,
        },
      );
      expect(await compile(host)).to.equal('');
    });
  }

  it('lets a CommonJS host with module NodeNext require() the package (Node 20.19+)', async () => {
    const host = makeHost(
      root,
      tarball,
      'cjs-nodenext',
      {},
      {
        'package.json': JSON.stringify({ type: 'commonjs' }),
        'tsconfig.json': tsconfig({ module: 'NodeNext', moduleResolution: 'NodeNext' }),
        'host.ts': CJS_HOST,
      },
    );
    expect(await compile(host)).to.equal('');
    expect(readFileSync(join(host, 'out', 'host.js'), 'utf8')).to.contain('require("zpl-legacy-compat")');
    const { stdout } = await run(process.execPath, [join(host, 'out', 'host.js')], { cwd: host, timeout: 60_000 });
    expect(JSON.parse(stdout.trim())).to.deep.equal({ required: 'function', close: 'function' });
    const version = await run(process.execPath, ['-p', "require('zpl-legacy-compat/package.json').version"], {
      cwd: host,
    });
    expect(version.stdout.trim()).to.equal(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  });

  it('gives a CommonJS host with module Node16 error TS1479, as docs/mounting.md says', async () => {
    const host = makeHost(
      root,
      tarball,
      'cjs-node16',
      {},
      {
        'package.json': JSON.stringify({ type: 'commonjs' }),
        'tsconfig.json': tsconfig({ module: 'Node16', moduleResolution: 'Node16' }),
        'host.ts': CJS_HOST,
      },
    );
    expect(await compile(host)).to.contain('error TS1479');
  });
});
