// `npm run fuzz`: generated hostile requests over every input surface (test/helpers/fuzz-surfaces.ts) against the
// standalone server as a process with its render pool, and per surface: runs, failures, max and p99 time, peak
// RSS; then one summary line. Not a test: figures (the fixed-seed test is test/fuzz-surfaces.test.ts).
//
//   npm run fuzz                          # 10,000 runs over every surface, a random seed (printed)
//   npm run fuzz -- --runs=500 --seed=7   # replays: the same seed draws the same cases
//   npm run fuzz -- --surface=decoder     # only the surfaces whose name contains this

import { EXTRA_OUTPUTS } from '../middleware/index.js';
import {
  fuzzServerEnv,
  mib,
  quantile,
  rssBudgetFor,
  runFuzz,
  SEED_RSS_BUDGET_BYTES,
  type SurfaceReport,
} from '../test/helpers/fuzz-run.js';
import { fuzzSurfaces } from '../test/helpers/fuzz-surfaces.js';
import { startServer, stopServer } from '../test/helpers/server-process.js';

const MOUNT = '/compatibility/legacy/v1';

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

function whole(name: string, fallback: number): number {
  const text = option(name);
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, not ${text}`);
  return n;
}

const runs = whole('runs', 10_000);
const seed = whole('seed', Math.floor(Math.random() * 0x7fffffff));
const lanes = whole('lanes', 2);
/** The render deadline (RENDER_TIMEOUT_MS, 10 s) and room for a queue on a busy machine. */
const capMs = whole('cap-ms', 30_000);
/** A document's budget (256 MiB) for each request in flight. */
const rssBudgetBytes = whole('rss-budget-mib', rssBudgetFor(lanes) / 1024 / 1024) * 1024 * 1024;
const only = option('surface');

const surfaces = fuzzSurfaces().filter((s) => only === undefined || s.name.includes(only));
if (surfaces.length === 0) throw new Error(`no surface name contains ${only}`);
const runsPerSurface = Math.ceil(runs / surfaces.length);

const server = await startServer(fuzzServerEnv(EXTRA_OUTPUTS));
const apiKey = server.devKey;
if (!apiKey) throw new Error('the server printed no dev API key');
const exited = new Promise((resolve) => server.child.once('exit', resolve));

process.stdout.write(
  `fuzz: seed ${seed}, ${runsPerSurface} generated runs on each of ${surfaces.length} surfaces (plus named seeds), ` +
    `${lanes} at once, cap ${capMs} ms, RSS budget ${mib(rssBudgetBytes)} MiB over the start (${mib(SEED_RSS_BUDGET_BYTES)} MiB for a named seed alone)\n\n`,
);
const width = Math.max(...surfaces.map((s) => s.name.length));
process.stdout.write(`${'surface'.padEnd(width)}   runs  fail   max ms   p99 ms  peak RSS MiB  statuses\n`);
const line = (r: SurfaceReport): string =>
  `${r.name.padEnd(width)} ${String(r.runs).padStart(6)} ${String(r.failures.length).padStart(5)} ` +
  `${quantile(r.times, 1).toFixed(0).padStart(8)} ${quantile(r.times, 0.99).toFixed(0).padStart(8)} ` +
  `${mib(r.peakRssBytes).padStart(13)}  ${JSON.stringify(r.statuses)}\n`;

const started = performance.now();
const report = await runFuzz({ base: server.base, mount: MOUNT, apiKey, pid: server.child.pid!, exited }, surfaces, {
  runsPerSurface,
  seed,
  lanes,
  capMs,
  rssBudgetBytes,
  seedRssBudgetBytes: SEED_RSS_BUDGET_BYTES,
  onSurface: (r) => process.stdout.write(line(r)),
});
const seconds = (performance.now() - started) / 1000;
if (server.child.exitCode === null) await stopServer(server.child);

for (const f of report.failures.slice(0, 40))
  process.stdout.write(`\nFAIL ${f.surface} (${f.input}, --seed=${seed}): ${f.problem.slice(0, 600)}`);
const all = report.surfaces.flatMap((r) => r.times).sort((a, b) => a - b);
const totalRuns = report.surfaces.reduce((n, r) => n + r.runs, 0);
const peak = Math.max(...report.surfaces.map((r) => r.peakRssBytes));
process.stdout.write(
  `\n\nfuzz: ${totalRuns} runs over ${report.surfaces.length} surfaces in ${seconds.toFixed(0)} s, ` +
    `${report.failures.length} failures, max ${quantile(all, 1).toFixed(0)} ms, p99 ${quantile(all, 0.99).toFixed(0)} ms, ` +
    `peak RSS ${mib(peak)} MiB (start ${mib(report.baselineRssBytes)} MiB), /healthz ${report.healthz.checks} checks ` +
    `max ${report.healthz.maxMs.toFixed(0)} ms, seed ${seed}\n`,
);
process.exitCode = report.failures.length ? 1 : 0;
