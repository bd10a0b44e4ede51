// `npm run attack`: replays the hostile-input defects of the image endpoint, shadow mode and proxy mode against
// the standalone server (dist/server/server.js) on loopback, with a hostile legacy service beside it, and
// prints for each: the answer, its time, the server's peak RSS meanwhile and the /healthz probes that failed
// (one every 250 ms, 2 s timeout). Every loop is bounded; nothing leaves 127.0.0.1. Not a test: figures.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bigFrameGif, bombPng, greyPngOfSide, twoHeaderPng } from '../test/helpers/hostile-images.js';
import { rssOf } from '../test/helpers/fuzz-run.js';
import { freePort, stopProcess } from './http.js';
import { mib, table } from './stats.js';

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;
const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'server.js');
const MOUNT = '/compatibility/legacy/v1';
const ATTACK_BOUND_MS = 60_000;
const UPSTREAM_TIMEOUT_MS = 3000;

interface Running {
  child: ChildProcess;
  base: string;
  /** JSON log lines the server printed so far. */
  lines: Array<Record<string, unknown>>;
}

/** The standalone server with `env`, started and listening. */
async function startServer(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Running['lines'] = [];
  let pending = '';
  let listening: () => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    listening = resolve;
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.includes('listening on')) listening();
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // a plain start-up line
      }
    }
  });
  child.stderr!.resume();
  await started;
  return { child, base: `http://127.0.0.1:${port}`, lines };
}

/** Samples the server's RSS and probes /healthz while `attack` runs; stops both when it ends. */
async function watched<T>(
  running: Running,
  attack: () => Promise<T>,
): Promise<{ result: T; ms: number; peakRss: number; probes: number; failed: number }> {
  let peakRss = rssOf(running.child.pid!);
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(running.child.pid!));
  }, 100);
  let probes = 0,
    failed = 0,
    stop = false;
  const prober = (async () => {
    while (!stop) {
      probes++;
      const call = new AbortController();
      const timer = setTimeout(() => call.abort(), 2000);
      try {
        const res = await fetch(`${running.base}/healthz`, { signal: call.signal });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      } finally {
        clearTimeout(timer);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const from = performance.now();
  const bound = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no answer within ${ATTACK_BOUND_MS} ms`)), ATTACK_BOUND_MS).unref(),
  );
  let result: T;
  try {
    result = await Promise.race([attack(), bound]);
  } catch (err) {
    result = `(${(err as Error).message})` as T;
  }
  const ms = performance.now() - from;
  stop = true;
  clearInterval(sampler);
  await prober;
  return { result, ms, peakRss, probes, failed };
}

/** POST /graphics with `image` as the multipart field `file`; resolves with the status and the start of the body. */
async function postImage(running: Running, key: string, image: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(image)]), name);
  const res = await fetch(`${running.base}${MOUNT}/graphics?dither=true`, {
    method: 'POST',
    headers: { 'X-API-Key': key },
    body: form,
  });
  const text = await res.text();
  return `${res.status} ${text.length > 70 ? `${text.slice(0, 60)}... (${mib(text.length)})` : text}`;
}

/** Posts a label (shadow mode answers it locally), then waits for the shadow outcome in the server's log. */
async function shadowed(running: Running, key: string): Promise<string> {
  const seen = running.lines.length;
  const res = await fetch(`${running.base}${MOUNT}/printers/8dpmm/labels/2x1/0`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'text/plain' },
    body: '^XA^FO10,10^GB50,50,50^FS^XZ',
  });
  await res.arrayBuffer();
  for (;;) {
    const line = running.lines
      .slice(seen)
      .find((l) => l.event === 'shadow_failed' || l.event === 'shadow_divergence' || l.event === 'shadow_result');
    if (line) {
      const detail =
        line.event === 'shadow_divergence' ? `score ${String(line.score)}` : String(line.reason ?? line.msg ?? '');
      return `${res.status} here; shadow: ${String(line.event)} ${detail}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type UpstreamBehaviour = (req: IncomingMessage, res: ServerResponse) => void;

/** The hostile legacy service: answers every request as `behaviour` says (changed per attack). */
async function startUpstream(): Promise<{
  server: Server;
  url: string;
  behave: (b: UpstreamBehaviour) => void;
  received: () => number;
}> {
  let behaviour: UpstreamBehaviour = (_req, res) => res.end();
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    req.on('end', () => behaviour(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${MOUNT}`,
    behave: (b) => {
      behaviour = b;
    },
    received: () => received,
  };
}

const drip: UpstreamBehaviour = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'image/png', 'X-Total-Count': '1' });
  const timer = setInterval(() => res.write(Buffer.from([0])), 500);
  res.once('close', () => clearInterval(timer));
  setTimeout(() => {
    clearInterval(timer);
    res.end();
  }, 60_000).unref();
};

/** 100 MB as fast as it is read, then the end. */
const flood: UpstreamBehaviour = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'image/png', 'X-Total-Count': '1' });
  const chunk = Buffer.alloc(1 << 20);
  let sent = 0;
  const pump = (): void => {
    while (!res.destroyed && sent < 100) {
      sent++;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zpl-attack-'));
  const key = `attack_${randomBytes(12).toString('hex')}`;
  const limited = `attack_limited_${randomBytes(12).toString('hex')}`;
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify([
      { key, scope: 'all' },
      { key: limited, scope: 'all', pagesPerDay: 10 },
    ]),
  );
  const upstream = await startUpstream();
  const rows: string[][] = [];
  const record = (name: string, w: Awaited<ReturnType<typeof watched<string>>>): void => {
    rows.push([name, w.result, `${(w.ms / 1000).toFixed(2)} s`, mib(w.peakRss), `${w.failed} of ${w.probes}`]);
    console.log(`- ${name}: ${w.result}`);
  };
  console.log('# Attack replay (loopback)\n');
  try {
    const graphics = await startServer({ API_KEYS_FILE: keysFile, GRAPHICS_ENDPOINT: '1' });
    try {
      record(
        '1. /graphics: PNG, IHDR 1x1 then IHDR 30000x30000 (92 bytes)',
        await watched(graphics, () => postImage(graphics, key, twoHeaderPng(30000, 30000), 'a.png')),
      );
      record(
        '2. /graphics: GIF, 1x1 screen, one 65535x65535 frame',
        await watched(graphics, () => postImage(graphics, key, bigFrameGif(65535, 65535), 'a.gif')),
      );
      record(
        '2. /graphics: GIF, 1x1 screen, one 20000x20000 frame',
        await watched(graphics, () => postImage(graphics, key, bigFrameGif(20000, 20000), 'a.gif')),
      );
      const legal = await greyPngOfSide(4096);
      record(
        `2. /graphics: legal 4096x4096 PNG (${kib(legal.length)}), dithered`,
        await watched(graphics, () => postImage(graphics, key, legal, 'a.png')),
      );
    } finally {
      await stopProcess(graphics.child);
    }

    const shadow = await startServer({
      API_KEYS_FILE: keysFile,
      UPSTREAM_MODE: 'shadow',
      UPSTREAM_URL: upstream.url,
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      SHADOW_SAMPLE_RATE: '1',
    });
    try {
      upstream.behave(drip);
      record(
        `3. shadow: upstream sends headers, then 1 byte every 500 ms (UPSTREAM_TIMEOUT_MS=${UPSTREAM_TIMEOUT_MS})`,
        await watched(shadow, () => shadowed(shadow, key)),
      );
      upstream.behave(flood);
      record('3. shadow: upstream sends 100 MB as fast as read', await watched(shadow, () => shadowed(shadow, key)));
      const bomb = await bombPng(30000, 30000);
      upstream.behave((_req, res) =>
        res.writeHead(200, { 'Content-Type': 'image/png', 'X-Total-Count': '1' }).end(bomb),
      );
      record(
        `4. shadow: upstream PNG declaring 30000x30000 (${kib(bomb.length)} deflated)`,
        await watched(shadow, () => shadowed(shadow, key)),
      );
    } finally {
      await stopProcess(shadow.child);
    }

    for (const lenient of ['0', '1']) {
      // A fresh key store each time: the limited key's day starts empty.
      const proxy = await startServer({
        API_KEYS_FILE: keysFile,
        UPSTREAM_MODE: 'proxy',
        UPSTREAM_URL: upstream.url,
        LENIENT_PATHS: lenient,
      });
      try {
        upstream.behave((_req, res) =>
          res.writeHead(200, { 'Content-Type': 'image/png', 'X-Total-Count': '1' }).end(Buffer.from('png')),
        );
        const before = upstream.received();
        const name = `5. proxy${lenient === '1' ? ', LENIENT_PATHS=1' : ''}: 16 x {mount}//printers/8dpmm/labels/4x6/0, key with pagesPerDay 10`;
        record(
          name,
          await watched(proxy, async () => {
            const statuses: Record<string, number> = {};
            for (let i = 0; i < 16; i++) {
              const status = await rawPost(proxy.base, `${MOUNT}//printers/8dpmm/labels/4x6/0`, limited);
              statuses[status] = (statuses[status] ?? 0) + 1;
            }
            return `${JSON.stringify(statuses)}; ${upstream.received() - before} reached the upstream`;
          }),
        );
      } finally {
        await stopProcess(proxy.child);
      }
    }
  } finally {
    upstream.server.closeAllConnections();
    upstream.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log();
  console.log(table(['attack', 'answer', 'time', 'server peak RSS', 'failed /healthz probes'], rows));
}

/** A POST whose target is sent exactly as given (fetch would normalise the double slash). */
function rawPost(base: string, target: string, key: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        path: target,
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'text/plain' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('^XA^FO10,10^GB50,50,50^FS^XZ');
  });
}

await main();
