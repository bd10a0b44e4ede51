// `node dist/bench/hostile-budget.js`: issue 50's hostile inputs (test/helpers/hostile-inputs.ts) against the
// standalone server on loopback, once with its render pool and once with RENDER_THREADS=0: for each, the answer's
// time and status, the server's RSS growth (peak during it minus before it) and the /healthz probes that failed
// (one every 10 ms, 2 s timeout: how many failed, and the slowest answer), and the same for a long but harmless
// document. Then the fairness figure: while one key sends 6 of the 2.6 KB conversions at
// once, another key's small labels, p95 against the same labels on the idle server, and the 503s. Not a test: figures.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conversionInput, HOSTILE_INPUTS, type HostileInput } from '../test/helpers/hostile-inputs.js';
import { rssOf } from '../test/helpers/fuzz-run.js';
import { freePort, stopProcess } from './http.js';
import { mib, percentile } from './stats.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'server.js');
const MOUNT = '/compatibility/legacy/v1';
const SMALL_LABEL = '^XA^FO50,50^A0N,40,40^FDSmall label^FS^FO50,120^BCN,80^FD12345678^FS^XZ';
const SMALL_LABELS = 40;
/** Not hostile, only long: 50 labels of 120 text fields as one PDF (what a RENDER_THREADS=0 server must render in slices). */
const LONG_DOCUMENT = {
  name: '50 labels of 120 fields, as PDF',
  zpl: Buffer.from(
    `^XA${Array.from({ length: 120 }, (_, i) => `^FO${(i % 6) * 130},${Math.floor(i / 6) * 60}^A0N,30,30^FDField ${i}^FS`).join('')}^PQ50^XZ`,
  ),
  headers: { Accept: 'application/pdf' },
  render: { format: 'png', dpmm: 8 },
} as const;

interface Running {
  child: ChildProcess;
  base: string;
}

async function startServer(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      if (pending.includes('listening on')) resolve();
    });
    child.stderr!.resume();
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function post(
  running: Running,
  key: string,
  h: Pick<HostileInput, 'zpl' | 'headers' | 'render'>,
): Promise<{ status: number; ms: number; body: Buffer }> {
  const path = `${MOUNT}/printers/${h.render.dpmm}dpmm/labels/4x6${h.render.index === undefined ? '' : `/${h.render.index}`}`;
  const from = performance.now();
  const res = await fetch(running.base + path, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/x-www-form-urlencoded', ...h.headers },
    body: new Uint8Array(h.zpl),
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, ms: performance.now() - from, body };
}

/** Runs `work` while sampling RSS and probing /healthz. */
async function watched<T>(running: Running, work: () => Promise<T>) {
  const before = rssOf(running.child.pid!);
  let peak = before,
    probes = 0,
    failed = 0,
    slowest = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(running.child.pid!));
  }, 50);
  // Probes go out every 10 ms whether or not the last one was answered, so a server that stops answering shows it.
  const inFlight: Array<Promise<void>> = [];
  const probe = async (): Promise<void> => {
    probes++;
    const sent = performance.now();
    try {
      const res = await fetch(`${running.base}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status !== 200) failed++;
    } catch {
      failed++;
    }
    slowest = Math.max(slowest, performance.now() - sent);
  };
  const prober = setInterval(() => inFlight.push(probe()), 10);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(prober);
    clearInterval(sampler);
    await Promise.all(inFlight); // the probes a busy server held count too
  }
  return { result, growth: peak - before, probes, failed, slowest };
}

const p95 = (xs: number[]): number => percentile(xs, 95);
const small = { zpl: Buffer.from(SMALL_LABEL), headers: {}, render: { format: 'png', dpmm: 8, index: 0 } } as const;

async function smallLabels(running: Running, key: string): Promise<{ ms: number[]; s503: number }> {
  const ms: number[] = [];
  let s503 = 0;
  for (let i = 0; i < SMALL_LABELS; i++) {
    const r = await post(running, key, small);
    if (r.status === 503) s503++;
    ms.push(r.ms);
  }
  return { ms, s503 };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'zpl-hostile-budget-'));
  const attacker = `hb_a_${randomBytes(12).toString('hex')}`;
  const victim = `hb_v_${randomBytes(12).toString('hex')}`;
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify([
      { key: attacker, scope: 'all' },
      { key: victim, scope: 'all' },
    ]),
  );
  const base = { API_KEYS_FILE: keysFile, EXTRA_OUTPUTS: 'json,zpl' };
  try {
    for (const threads of ['pool', '0']) {
      const running = await startServer({ ...base, ...(threads === '0' && { RENDER_THREADS: '0' }) });
      try {
        await post(running, victim, small); // loads the renderer
        console.log(`\n## ${threads === 'pool' ? 'render pool' : 'RENDER_THREADS=0'}\n`);
        console.log(
          '| input | status | time | RSS growth | /healthz failed | slowest /healthz |\n| --- | --- | --- | --- | --- | --- |',
        );
        for (const h of [...HOSTILE_INPUTS.map((make) => make()), LONG_DOCUMENT]) {
          const w = await watched(running, () => post(running, attacker, h));
          const { status, ms, body } = w.result;
          const answer = status === 200 ? `200 (${body.length} B)` : `${status} ${body.toString('utf8').slice(0, 60)}`;
          console.log(
            `| ${h.name} | ${answer} | ${ms.toFixed(0)} ms | ${mib(w.growth)} | ${w.failed} of ${w.probes} | ` +
              `${w.slowest.toFixed(0)} ms |`,
          );
        }
        const idle = await smallLabels(running, victim);
        const conversion = conversionInput();
        const loaded = await watched(running, async () => {
          const attack = Promise.all(Array.from({ length: 6 }, () => post(running, attacker, conversion)));
          const labels = await smallLabels(running, victim);
          const answers = await attack;
          return { labels, attackStatuses: answers.map((a) => a.status) };
        });
        console.log(
          `\nFairness: small labels p95 idle ${p95(idle.ms).toFixed(1)} ms, while 6 conversions ` +
            `${p95(loaded.result.labels.ms).toFixed(1)} ms (${(p95(loaded.result.labels.ms) / p95(idle.ms)).toFixed(1)}x); ` +
            `503s: ${loaded.result.labels.s503} of ${SMALL_LABELS}; conversions answered ` +
            `${loaded.result.attackStatuses.join(', ')}`,
        );
      } finally {
        await stopProcess(running.child);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
