// The container builds and runs, checked without Docker: the Dockerfile is replayed step by step in temporary
// folders (COPY copies what it names from the context or the build stage, RUN runs there: `npm ci` reaches the
// npm registry), then the runtime stage's CMD is started from the runtime folder alone, with the host's node in
// place of the image's. It renders a label, serves the preview page and makes a shadow comparison against a
// stand-in legacy service; its HEALTHCHECK asks /healthz where HOST says the server listens, and passes.

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { renderPng } from '../index.js';
import { ignoredBy, parseDockerfile, replayDockerfile, type Stage } from './helpers/dockerfile-replay.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

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
    const compose = load(readFileSync(join(REPO, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { ports?: string[]; image?: string }>;
    };
    // Compose's own interpolation: ${NAME:-default} is the default when NAME is unset.
    const unset = (text: string): string => text.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
    const published = Object.values(compose.services).flatMap((service) => (service.ports ?? []).map(unset));
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
});
