// The container builds and runs, checked without Docker: the Dockerfile is replayed step by step in temporary
// folders (COPY copies what it names from the context or the build stage, RUN runs there: `npm ci` reaches the
// npm registry), then the runtime stage's CMD is started from the runtime folder alone, with the host's node in
// place of the image's. It renders a label, serves the preview page and makes a shadow comparison against a
// stand-in legacy service; its HEALTHCHECK asks /healthz where HOST says the server listens, and passes.

import { expect } from 'chai';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@keyv/redis';
import { load } from 'js-yaml';
import { renderPng } from '../index.js';
import { ignoredBy, parseDockerfile, replayDockerfile, type Stage } from './helpers/dockerfile-replay.js';
import { REDIS_URL, redisAnswers, uniqueNamespace } from './helpers/http-redis.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const run = promisify(execFile);

interface ComposeFile {
  services: Record<
    string,
    { ports?: string[]; image?: string; user?: string; environment?: Record<string, string>; secrets?: string[] }
  >;
  secrets?: Record<string, { file: string }>;
}

/** Compose's own interpolation: `${NAME:-default}` is NAME's value when set and not empty, else the default. */
const interpolate = (text: string, vars: Record<string, string> = {}): string =>
  text.replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, fallback: string) => vars[name] || fallback);

/** `command args` run as uid:gid with no supplementary groups (setpriv: util-linux), as a container's user runs. */
const asUser = (uid: number, gid: number, command: string, args: string[]): [string, string[]] => [
  'setpriv',
  [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', command, ...args],
];

const REPO = process.cwd();
const MOUNT = '/compatibility/legacy/v1';
const ZPL = '^XA^FO10,10^GB80,80,40^FS^XZ';

describe('container: the Dockerfile replayed without Docker', function () {
  // npm ci and a full build on a shared machine: the waits end when each step exits; the bound only ends a hang.
  this.timeout(1_800_000);
  const into = mkdtempSync(join(tmpdir(), 'zpl-container-'));
  let runtime: Stage;
  let server: WatchedProcess | undefined;
  let upstream: http.Server | undefined;
  after(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    upstream?.close();
    rmSync(into, { recursive: true, force: true });
  });

  it('sends as build context exactly what the COPY lines name (.dockerignore)', () => {
    const copied = parseDockerfile(readFileSync(join(REPO, 'Dockerfile'), 'utf8'))
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) =>
        i.args
          .split(/\s+/)
          .slice(0, -1)
          .map((source) => source.replace(/\/$/, '')),
      );
    const ignored = ignoredBy(REPO);
    const sent = readdirSync(REPO)
      .filter((entry) => !ignored(entry))
      .sort();
    expect(sent).to.deep.equal([...new Set(copied)].sort());
    for (const kept of ['renderer/render.ts', 'web/src/app.ts']) expect(ignored(kept), kept).to.equal(false);
    for (const left of ['corpus', 'test', 'docs', '.ci', 'bench', 'dist', 'node_modules', 'keys.json', 'README.md']) {
      expect(ignored(left), left).to.equal(true);
    }
  });

  it('compose publishes the API on loopback only by default, and pins Redis to one release', () => {
    const compose = load(readFileSync(join(REPO, 'compose.yaml'), 'utf8')) as ComposeFile;
    const published = Object.values(compose.services).flatMap((service) =>
      (service.ports ?? []).map((port) => interpolate(port)),
    );
    expect(published).to.deep.equal(['127.0.0.1:3000:3000']);
    expect(compose.services.redis!.image).to.match(/^redis:\d+\.\d+\.\d+-alpine$/);
  });

  it('builds: every COPY finds its files and every RUN exits 0', async () => {
    const stages = await replayDockerfile(join(REPO, 'Dockerfile'), REPO, into);
    expect(stages.map((s) => s.name)).to.deep.equal(['build', 'runtime']);
    runtime = stages.at(-1)!;
    expect(runtime.cmd).to.deep.equal(['node', 'dist/bin/zpl-server.js']);
    const app = join(runtime.root, runtime.workdir);
    expect(existsSync(join(app, 'node_modules', 'express')), 'no Express in the runtime').to.equal(false);
    expect(existsSync(join(app, 'node_modules', 'typescript')), 'no dev dependencies in the runtime').to.equal(false);
    expect(readFileSync(join(REPO, 'Dockerfile'), 'utf8')).to.match(/^FROM node:\d+\.\d+\.\d+-trixie-slim AS build$/m);
  });

  it('runs from the runtime files alone: a label, the preview page, a shadow comparison, a passing HEALTHCHECK', async () => {
    expect(runtime, 'the build step ran').to.not.equal(undefined);
    const expected = Buffer.from(await renderPng(ZPL, { dpmm: 8, widthIn: 2, heightIn: 1 }));
    // The legacy service stand-in answers with the label as the package draws it: the comparison must match.
    upstream = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'image/png', 'X-Total-Count': '1' }).end(expected));
    });
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as AddressInfo).port;

    const cwd = join(runtime.root, runtime.workdir);
    const [command, ...args] = runtime.cmd!;
    const env = {
      // Not 127.0.0.1: the HEALTHCHECK must ask the address the server listens on.
      PATH: process.env.PATH ?? '',
      HOME: tmpdir(),
      ...runtime.env,
      HOST: '127.0.0.2',
      PORT: '0',
      LOG_LEVEL: 'debug',
      SHUTDOWN_DELAY_MS: '0',
      UPSTREAM_MODE: 'shadow',
      UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}${MOUNT}`,
      SHADOW_SAMPLE_RATE: '1',
    };
    server = spawnWatched(command === 'node' ? process.execPath : command!, args, env, { cwd, cleanEnv: true });
    const port = Number(/:(\d+)$/.exec(await server.waitFor(/^listening on http:\/\/127\.0\.0\.2:\d+$/))![1]);
    const key = (await server.waitFor(/^dev API key: /)).slice('dev API key: '.length);
    const base = `http://127.0.0.2:${port}`;

    const label = await fetch(`${base}${MOUNT}/printers/8dpmm/labels/2x1/0`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: ZPL,
    });
    expect(label.status, await label.clone().text()).to.equal(200);
    expect(Buffer.compare(Buffer.from(await label.arrayBuffer()), expected)).to.equal(0);
    const matched = JSON.parse(await server.waitFor(/"msg":"shadow comparison (matched|diverged|failed)"/)) as Record<
      string,
      unknown
    >;
    expect(matched.msg, JSON.stringify(matched)).to.equal('shadow comparison matched');

    const page = await fetch(`${base}/`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.contain('src="preview/app.js"');
    const script = await fetch(`${base}/preview/app.js`);
    expect([script.status, script.headers.get('content-type')]).to.deep.equal([200, 'text/javascript; charset=utf-8']);
    expect((await fetch(`${base}/preview/style.css`)).status).to.equal(200);

    const [hcCommand, ...hcArgs] = runtime.healthcheck!;
    const healthcheck = (hcEnv: Record<string, string>) =>
      new Promise<number | null>((resolve) => {
        spawn(hcCommand === 'node' ? process.execPath : hcCommand!, hcArgs, {
          cwd,
          env: { ...env, ...hcEnv },
          stdio: 'ignore',
        }).once('exit', (code) => resolve(code));
      });
    expect(await healthcheck({ PORT: String(port) }), 'HEALTHCHECK exit status').to.equal(0);
    // The image's own HOST, the wildcard 0.0.0.0, is asked at 127.0.0.1 (here a stand-in answering /healthz).
    const loopback = http.createServer((req, res) => res.writeHead(req.url === '/healthz' ? 200 : 404).end());
    await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
    try {
      const loopbackPort = String((loopback.address() as AddressInfo).port);
      expect(
        await healthcheck({ HOST: runtime.env.HOST!, PORT: loopbackPort }),
        'HEALTHCHECK with HOST=0.0.0.0',
      ).to.equal(0);
      expect(runtime.env.HOST).to.equal('0.0.0.0');
    } finally {
      loopback.close();
    }

    server.child.kill('SIGTERM');
    expect(await server.closed).to.equal(0);
  });

  it("compose: the server, as the user compose's settings give a host user other than 1000, reads its mode-600 key file", async function () {
    expect(runtime, 'the build step ran').to.not.equal(undefined);
    if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) {
      console.log('    (switching users needs root and setpriv: skipping the compose user replay)');
      this.skip();
    }
    const compose = load(readFileSync(join(REPO, 'compose.yaml'), 'utf8')) as ComposeFile;
    const service = compose.services.zpl!;
    // Unset, the variables give the image's `node` user; a host user's ids (a root or CI runner would differ) go in.
    expect(interpolate(service.user!)).to.equal('1000:1000');
    const [uid, gid] = interpolate(service.user!, { ZPL_UID: '4242', ZPL_GID: '4343' }).split(':').map(Number) as [
      number,
      number,
    ];
    expect([uid, gid]).to.deep.equal([4242, 4343]);
    // The key file is the secret compose mounts as it is on the host, at /run/secrets/<name>: API_KEYS_FILE.
    const [secret] = service.secrets!;
    expect(compose.secrets![secret!]!.file).to.equal('./keys.json');
    expect(service.environment!.API_KEYS_FILE).to.equal(`/run/secrets/${secret}`);

    // The host user makes the key file as the docs say: it ends mode 600, owned by that user.
    const host = mkdtempSync(join(tmpdir(), 'zpl-compose-host-'));
    chmodSync(into, 0o755); // the replayed image's files, readable by any user as in the image
    const namespace = uniqueNamespace();
    const redis = (await redisAnswers()) ? REDIS_URL : '';
    let replayed: WatchedProcess | undefined;
    try {
      chownSync(host, uid, gid);
      const clean = { PATH: process.env.PATH ?? '', HOME: host, REDIS_URL: '', API_KEYS_FILE: '' };
      await run(...asUser(uid, gid, 'sh', ['-c', "echo '[]' > keys.json"]), { cwd: host, env: clean });
      // zpl-keys from the replayed image's files: readable by any user, wherever this checkout is.
      const keys = join(runtime.root, runtime.workdir, 'dist', 'bin', 'zpl-keys.js');
      const created = await run(
        ...asUser(uid, gid, process.execPath, [keys, '--file', 'keys.json', 'create', '--scope', 'png']),
        { cwd: host, env: clean },
      );
      const key = /^key: (\S+)$/m.exec(created.stdout)![1]!;
      const file = statSync(join(host, 'keys.json'));
      expect([file.uid, file.gid, file.mode & 0o777]).to.deep.equal([uid, gid, 0o600]);

      // The runtime's CMD with the image's ENV and the service's environment, as the user compose gives.
      const cwd = join(runtime.root, runtime.workdir);
      const start = (as: [number, number]): WatchedProcess =>
        spawnWatched(
          ...asUser(as[0], as[1], process.execPath, runtime.cmd!.slice(1)),
          {
            PATH: process.env.PATH ?? '',
            ...runtime.env,
            ...service.environment,
            API_KEYS_FILE: join(host, 'keys.json'), // the bind mount: the same file, owner and mode
            REDIS_URL: redis, // compose's own Redis is the shared test Redis, in a namespace of its own
            STORE_NAMESPACE: namespace,
            HOST: '127.0.0.1',
            PORT: '0',
            OPS_PORT: '0',
            SHUTDOWN_DELAY_MS: '0',
          },
          { cwd, cleanEnv: true },
        );

      // Before: the image's user, 1000, cannot read a host user's mode-600 file, and the server stops saying so.
      const refused = start([1000, 1000]);
      expect(await refused.closed).to.equal(1);
      expect(refused.lines.join('\n')).to.match(/^ERROR: cannot read key file .*keys\.json: EACCES/m);

      replayed = start([uid, gid]);
      const port = Number(/:(\d+)$/.exec(await replayed.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/))![1]);
      expect(readFileSync(`/proc/${replayed.child.pid}/status`, 'utf8')).to.match(new RegExp(`^Uid:\\t${uid}\\t`, 'm'));
      expect(
        replayed.lines.some((l) => l.startsWith('dev API key:')),
        'no development key',
      ).to.equal(false);
      const label = await fetch(`http://127.0.0.1:${port}/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0`, {
        method: 'POST',
        headers: { 'X-API-Key': key },
        body: ZPL,
      });
      expect(label.status, await label.clone().text()).to.equal(200);
      expect(
        Buffer.compare(
          Buffer.from(await label.arrayBuffer()),
          Buffer.from(await renderPng(ZPL, { dpmm: 8, widthIn: 2, heightIn: 1 })),
        ),
      ).to.equal(0);
      replayed.child.kill('SIGTERM');
      expect(await replayed.closed).to.equal(0);
    } finally {
      if (replayed && replayed.child.exitCode === null) replayed.child.kill('SIGKILL');
      rmSync(host, { recursive: true, force: true });
      if (redis) {
        const client = createClient({ url: redis });
        await client.connect();
        for await (const names of client.scanIterator({ MATCH: `*${namespace}*`, COUNT: 100 }))
          if (names.length > 0) await client.del(names);
        client.destroy();
      }
    }
  });
});
