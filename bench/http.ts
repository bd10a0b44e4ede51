// HTTP throughput: autocannon against the standalone server (dist/server/server.js) on loopback.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchLabel } from './labels.js';
import { percentile } from './stats.js';

const tenths = (ms: number): number => Math.round(ms * 10) / 10;

export interface HttpFigures {
  connections: number;
  requests: number;
  requestsPerSec: number;
  /**
   * Latency percentiles of the answered (2xx) requests, ms to 0.1, from each response's own time: autocannon's
   * percentiles are whole milliseconds cut down (its histogram keeps integers), and a 2.98 ms p50 read as 2.
   */
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Server CPU time (all its threads) per answered request: what the throughput is made of, whatever else runs. */
  serverCpuMsPerRequest?: number;
  /** Of that, the main thread's (HTTP, routing, logs, metrics, the worker hop): the server's own cost beside the render. */
  serverMainThreadCpuMsPerRequest?: number;
  /** CPU time of the load generator (autocannon, in this process) per request. */
  clientCpuMsPerRequest: number;
  /** The server's own split of a request's time (its /metrics): mean ms waiting for a render thread, rendering, and in all. */
  serverMeanMs?: { queued: number; rendering: number; request: number };
}

/** Sum and count of the series of one histogram in Prometheus text, over all its label sets. */
function histogramTotals(text: string, name: string): { sum: number; count: number } {
  let sum = 0,
    count = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}_sum`)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    else if (line.startsWith(`${name}_count`)) count += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return { sum, count };
}

const SPLIT = {
  queued: 'zpl_render_queue_seconds',
  rendering: 'zpl_render_duration_seconds',
  request: 'zpl_http_request_duration_seconds',
} as const;

/** The histograms of SPLIT as the server's /metrics has them now (undefined when it cannot be read). */
async function splitTotals(
  metricsUrl: string,
): Promise<Record<keyof typeof SPLIT, { sum: number; count: number }> | undefined> {
  try {
    const text = await (await fetch(metricsUrl)).text();
    return {
      queued: histogramTotals(text, SPLIT.queued),
      rendering: histogramTotals(text, SPLIT.rendering),
      request: histogramTotals(text, SPLIT.request),
    };
  } catch {
    return undefined;
  }
}

/** Mean ms of each part between two readings. */
function meanSplit(
  before: Awaited<ReturnType<typeof splitTotals>>,
  after: Awaited<ReturnType<typeof splitTotals>>,
): HttpFigures['serverMeanMs'] {
  if (!before || !after) return undefined;
  const mean = (k: keyof typeof SPLIT): number => {
    const n = after[k].count - before[k].count;
    return n > 0 ? ((after[k].sum - before[k].sum) / n) * 1000 : 0;
  };
  return { queued: mean('queued'), rendering: mean('rendering'), request: mean('request') };
}

export interface HttpRun {
  path: string;
  serverPeakRssBytes?: number;
  levels: HttpFigures[];
}

const WARM_UP_REQUESTS = 3_000;

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'server.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts the server and resolves once it prints `listening on`. */
export function startServer(env: NodeJS.ProcessEnv, script = SERVER): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`server did not start: ${out}`));
    }, 20_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${out}`));
    });
  });
}

/** CPU time (user + system, every thread) a process has used so far, in ms, if readable (Linux /proc). */
/** Stops a server process: SIGTERM, then SIGKILL if it has not exited in 5 s. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

export function processCpuMs(pid: number): number | undefined {
  return cpuMsOfStat(`/proc/${pid}/stat`);
}

/** CPU time of a process's main thread (its thread id is the process id) so far, in ms, if readable. */
function mainThreadCpuMs(pid: number): number | undefined {
  return cpuMsOfStat(`/proc/${pid}/task/${pid}/stat`);
}

/** utime + stime of a /proc stat file, in ms. */
function cpuMsOfStat(file: string): number | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: /proc/<pid>/stat counts CPU time in these ticks (100 on every mainstream Linux). */
const CLOCK_TICKS = 100;

/** Peak resident set of a process (Linux /proc), if readable. */
function processPeakRss(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A started, warmed-up server to measure: where to send the label, and its process. */
export interface BenchServer {
  server: ChildProcess;
  url: string;
  path: string;
  metricsUrl: string;
  headers: Record<string, string>;
  label: BenchLabel;
}

export interface BenchServerOptions {
  dpmm: number;
  size: string;
  serverEnv?: NodeJS.ProcessEnv;
  /** Another build's server (its dist/server/server.js); default this build's. */
  serverScript?: string;
}

/** Starts a server with in-memory stores and one key, checks it renders `label`, warms it up, runs `use`, stops it. */
export async function withBenchServer<T>(
  label: BenchLabel,
  opts: BenchServerOptions,
  use: (s: BenchServer) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'zpl-bench-'));
  const key = `bench_${randomBytes(12).toString('hex')}`;
  const keysFile = join(dir, 'keys.json');
  writeFileSync(keysFile, JSON.stringify([{ key, scope: 'all' }]));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // In-memory stores and local rendering only, whatever the caller's environment says.
  for (const name of Object.keys(env))
    if (name === 'REDIS_URL' || name.startsWith('UPSTREAM_') || name.startsWith('SHADOW_')) delete env[name];
  Object.assign(env, opts.serverEnv, { PORT: String(port), HOST: '127.0.0.1', API_KEYS_FILE: keysFile });
  const server = await startServer(env, opts.serverScript);
  const path = `/compatibility/legacy/v1/printers/${opts.dpmm}dpmm/labels/${opts.size}/0`;
  const url = `http://127.0.0.1:${port}${path}`;
  const headers = { 'X-API-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' };
  try {
    const probe = await fetch(url, { method: 'POST', headers, body: new Uint8Array(label.zpl) });
    if (probe.status !== 200 || probe.headers.get('content-type') !== 'image/png') {
      throw new Error(`probe request answered ${probe.status} ${await probe.text()}`);
    }
    // Warm-up by count, not time: a per-request function reaches the optimizing compiler only after hundreds of calls,
    // and until then the server's threads also compile in the background (after 3 s: 2-3 ms of CPU per request, by 3,000
    // requests: 0.4 ms). 3,000 at 4 connections gives every worker about 1,000 renders: the steady state a server runs in.
    await autocannon({ url, method: 'POST', headers, body: label.zpl, connections: 4, amount: WARM_UP_REQUESTS });
    return await use({ server, url, path, metricsUrl: `http://127.0.0.1:${port}/metrics`, headers, label });
  } finally {
    server.removeAllListeners('exit');
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `connections` keep-alive connections sending the label for `seconds`: latency, throughput and the server's CPU. */
export async function measureLevel(
  { server, url, metricsUrl, headers, label }: BenchServer,
  connections: number,
  seconds: number,
): Promise<HttpFigures> {
  const split0 = await splitTotals(metricsUrl);
  const serverCpu0 = processCpuMs(server.pid!);
  const mainCpu0 = mainThreadCpuMs(server.pid!);
  const clientCpu0 = process.cpuUsage();
  const times: number[] = [];
  const r = await autocannon({
    url,
    method: 'POST',
    headers,
    body: label.zpl,
    connections,
    duration: seconds,
    timeout: 10,
  }).on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const clientCpu = process.cpuUsage(clientCpu0);
  const serverCpu1 = processCpuMs(server.pid!);
  const mainCpu1 = mainThreadCpuMs(server.pid!);
  const serverMeanMs = meanSplit(split0, await splitTotals(metricsUrl));
  const answered = Math.max(1, r.requests.total);
  return {
    ...(serverMeanMs && { serverMeanMs }),
    ...(serverCpu0 !== undefined &&
      serverCpu1 !== undefined && { serverCpuMsPerRequest: (serverCpu1 - serverCpu0) / answered }),
    ...(mainCpu0 !== undefined &&
      mainCpu1 !== undefined && { serverMainThreadCpuMsPerRequest: (mainCpu1 - mainCpu0) / answered }),
    clientCpuMsPerRequest: (clientCpu.user + clientCpu.system) / 1000 / answered,
    connections,
    requests: r.requests.total,
    requestsPerSec: r.requests.total / r.duration,
    p50Ms: tenths(percentile(times, 50)),
    p99Ms: tenths(percentile(times, 99)),
    errors: r.errors + r.non2xx, // timeouts are counted in errors
  };
}

export async function benchHttp(
  label: BenchLabel,
  opts: BenchServerOptions & { connections: readonly number[]; seconds: number },
): Promise<HttpRun> {
  return withBenchServer(label, opts, async (s) => {
    const levels: HttpFigures[] = [];
    for (const connections of opts.connections) levels.push(await measureLevel(s, connections, opts.seconds));
    return { path: s.path, serverPeakRssBytes: processPeakRss(s.server.pid!), levels };
  });
}
