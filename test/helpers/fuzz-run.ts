// Runs the fuzz surfaces (fuzz-surfaces.ts) against a server process: each surface's named seeds, then its generated
// requests, a few at a time; every answer must be the output asked for or a clear error in the service's shape
// (never a 5xx, a reset or no answer within the hard cap), the process's RSS must stay within the budget, and
// /healthz must answer throughout. Shared by test/fuzz-surfaces.test.ts (a fixed seed) and bench/fuzz.ts (long runs).

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { OUTPUT_TYPES } from '../../renderer/api.js';
import { DEFAULT_MAX_DOCUMENT_BYTES } from '../../renderer/work-meter.js';
import { ENGINE_ERROR } from './fuzz-outcome.js';
import { type FuzzRequest, type FuzzSurface, warmUpRequests } from './fuzz-surfaces.js';
import { type RawResponse, responseProblems, sendRaw } from './http-checks.js';

/** One document's memory budget: what a named seed, sent alone, may add to the server's RSS. */
export const SEED_RSS_BUDGET_BYTES = DEFAULT_MAX_DOCUMENT_BYTES;

/** What `lanes` requests in flight may add to the RSS after warm-up: a document's budget each. */
export function rssBudgetFor(lanes: number): number {
  return lanes * DEFAULT_MAX_DOCUMENT_BYTES;
}

export interface FuzzTarget {
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** Where the legacy API is mounted (the server's LEGACY_PATHS). */
  mount: string;
  apiKey: string;
  /** The server's process id: its RSS is read from /proc. */
  pid: number;
  /** Resolves if the process exits (a crash ends the run). */
  exited: Promise<unknown>;
}

export interface FuzzOptions {
  /** Generated requests per surface (named seeds come on top). */
  runsPerSurface: number;
  seed: number;
  /** Requests in flight at once. */
  lanes: number;
  /** No answer within this is a hang. */
  capMs: number;
  /** Peak RSS over the RSS a surface's generated cases start from (after warm-up at least) that counts as a budget breach. */
  rssBudgetBytes: number;
  /** RSS growth over one named seed (sent alone) that counts as a budget breach. */
  seedRssBudgetBytes: number;
  /** Called after each surface (the bench prints its line). */
  onSurface?: (s: SurfaceReport) => void;
}

export interface FuzzFailure {
  surface: string;
  /** The named seed, or the case's index in the surface's sample (replay: same seed, same surface). */
  input: string;
  problem: string;
}

export interface SurfaceReport {
  name: string;
  runs: number;
  failures: FuzzFailure[];
  /** Milliseconds per request, sorted. */
  times: number[];
  peakRssBytes: number;
  statuses: Record<number, number>;
}

export interface FuzzReport {
  surfaces: SurfaceReport[];
  baselineRssBytes: number;
  healthz: { checks: number; maxMs: number };
  failures: FuzzFailure[];
}

/** The process's resident set, from /proc (0 where there is none). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const MEDIA_TYPES = new Set<string>(Object.values(OUTPUT_TYPES).map((o) => o.mediaType));

/** Every problem of one answer: a 5xx, a 200 that is not what it says, or an error not in the service's shape. */
export function answerProblems(res: RawResponse, req: FuzzRequest): string[] {
  const what = req.how.slice(0, 400);
  if (res.status >= 500) return [`${res.status} ${res.body.toString('utf8').slice(0, 200)} [${what}]`];
  if (res.status !== 200) return responseProblems(res, { what });
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  const problems: string[] = [];
  if (!MEDIA_TYPES.has(type) && type !== 'text/plain') problems.push(`200 with content type "${type}"`);
  // A ZPL answer neither converted nor laid out is the document as sent, an empty one included.
  const echoes =
    type === 'application/zpl' &&
    req.path.startsWith('/printers/') &&
    !req.headers['X-Target-Dpmm']?.trim() &&
    !/^on$/i.test(req.headers['X-Formatter']?.trim() ?? '');
  if (echoes && req.body && !res.body.equals(req.body)) problems.push('the ZPL answer is not the document as sent');
  // An empty document's ZPL, converted or laid out, is empty too.
  const zplOfNothing = type === 'application/zpl' && req.body?.length === 0;
  if (res.body.length === 0 && !zplOfNothing) problems.push('200 with an empty body');
  if (type === 'image/png' && res.body.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a')
    problems.push('200 image/png is not a PNG');
  if (type === 'application/pdf' && res.body.subarray(0, 5).toString('latin1') !== '%PDF-')
    problems.push('200 application/pdf is not a PDF');
  if (type === 'application/json') {
    try {
      JSON.parse(res.body.toString('utf8'));
    } catch {
      problems.push('200 application/json does not parse');
    }
  }
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(String(res.headers['x-request-id'] ?? '')))
    problems.push('no usable X-Request-Id');
  // A field or command that failed on a JavaScript error is drawn around, but it is a bug all the same.
  const warnings = String(res.headers['x-warnings'] ?? '');
  if (/(Field not drawn|Command failed): /.test(warnings) && ENGINE_ERROR.test(warnings))
    problems.push(`an internal error in X-Warnings: ${warnings.slice(0, 300)}`);
  return problems.map((p) => `${p} [${what}]`);
}

/** Sends one request and checks its answer; the time it took, whatever came of it. */
async function attempt(
  target: FuzzTarget,
  req: FuzzRequest,
  capMs: number,
): Promise<{ ms: number; status: number; problems: string[] }> {
  const started = performance.now();
  try {
    const res = await sendRaw(
      target.base,
      req.method,
      `${target.mount}${req.path}`,
      { 'X-API-Key': target.apiKey, ...req.headers },
      req.body,
      capMs,
    );
    return { ms: performance.now() - started, status: res.status, problems: answerProblems(res, req) };
  } catch (e) {
    return {
      ms: performance.now() - started,
      status: 0,
      problems: [`no answer: ${(e as Error).message} [${req.how.slice(0, 400)}]`],
    };
  }
}

/** A fixed 32-bit seed per surface, so adding a surface does not change another's cases. */
function surfaceSeed(seed: number, name: string): number {
  let h = seed | 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h;
}

/** Samples a surface's requests a batch at a time (fonts and fixtures are large: not all held at once). */
function* generated(surface: FuzzSurface, seed: number, runs: number): Generator<FuzzRequest> {
  const batch = 50;
  for (let done = 0; done < runs; done += batch) {
    const n = Math.min(batch, runs - done);
    yield* fc.sample(surface.arbitrary, { seed: surfaceSeed(seed + done, surface.name), numRuns: n });
  }
}

/** Watches /healthz (one request at a time, each within the cap) until stopped; each failure goes to `onFailure`. */
function watchHealth(target: FuzzTarget, capMs: number, onFailure: (problem: string) => void) {
  let stopped = false;
  const stats = { checks: 0, maxMs: 0 };
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await sendRaw(target.base, 'GET', '/healthz', {}, undefined, capMs);
        if (res.status !== 200) onFailure(`/healthz answered ${res.status}`);
      } catch (e) {
        onFailure(`/healthz: ${(e as Error).message}`);
      }
      const ms = performance.now() - started;
      stats.checks++;
      stats.maxMs = Math.max(stats.maxMs, ms);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    stats,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** Every surface in order; resolves with what each did (failures listed, not thrown). */
export async function runFuzz(
  target: FuzzTarget,
  surfaces: readonly FuzzSurface[],
  o: FuzzOptions,
): Promise<FuzzReport> {
  let crashed: string | undefined;
  void target.exited.then(() => {
    crashed = 'the server process exited';
  });
  // The render threads load their drawing code on first use: the budget counts from after that.
  for (const req of warmUpRequests()) {
    const a = await attempt(target, req, o.capMs);
    if (a.status !== 200 || a.problems.length) throw new Error(`warm-up failed: ${a.status} ${a.problems.join('; ')}`);
  }
  const baselineRssBytes = rssOf(target.pid);
  const reports: SurfaceReport[] = [];
  let current: SurfaceReport | undefined;
  const health = watchHealth(target, o.capMs, (problem) =>
    current?.failures.push({ surface: current.name, input: '/healthz', problem }),
  );
  /** The highest RSS since the last mark (a named seed's own peak). */
  let sincePeak = 0;
  const sampler = setInterval(() => {
    const rss = rssOf(target.pid);
    sincePeak = Math.max(sincePeak, rss);
    if (current) current.peakRssBytes = Math.max(current.peakRssBytes, rss);
  }, 50);
  try {
    for (const surface of surfaces) {
      const report: SurfaceReport = {
        name: surface.name,
        runs: 0,
        failures: [],
        times: [],
        peakRssBytes: rssOf(target.pid),
        statuses: {},
      };
      current = report;
      const record = (input: string, a: Awaited<ReturnType<typeof attempt>>): void => {
        report.runs++;
        report.times.push(a.ms);
        report.statuses[a.status] = (report.statuses[a.status] ?? 0) + 1;
        for (const problem of a.problems) report.failures.push({ surface: surface.name, input, problem });
      };
      // Named seeds one at a time, each within the budget of one document on its own.
      for (const s of surface.seeds) {
        if (crashed) break;
        const before = rssOf(target.pid);
        sincePeak = before;
        const input = `seed "${s.name}"`;
        record(input, await attempt(target, s.request, o.capMs));
        const grew = Math.max(sincePeak, rssOf(target.pid)) - before;
        if (grew > o.seedRssBudgetBytes)
          report.failures.push({
            surface: surface.name,
            input,
            problem: `RSS grew ${mib(grew)} MiB, over the budget of ${mib(o.seedRssBudgetBytes)} MiB for one document`,
          });
      }
      const inputs: Iterator<[string, FuzzRequest]> = (function* () {
        let i = 0;
        for (const r of generated(surface, o.seed, o.runsPerSurface)) yield [`case ${i++}`, r] as [string, FuzzRequest];
      })();
      const lane = async (): Promise<void> => {
        for (let next = inputs.next(); !next.done && !crashed; next = inputs.next()) {
          const [input, req] = next.value;
          record(input, await attempt(target, req, o.capMs));
        }
      };
      // Generated cases are held to the budget over the RSS they start from (a named seed's excess is its own failure).
      const from = Math.max(baselineRssBytes, rssOf(target.pid));
      sincePeak = from;
      await Promise.all(Array.from({ length: o.lanes }, lane));
      const generatedPeak = Math.max(sincePeak, rssOf(target.pid));
      report.peakRssBytes = Math.max(report.peakRssBytes, generatedPeak);
      if (generatedPeak > from + o.rssBudgetBytes)
        report.failures.push({
          surface: surface.name,
          input: 'memory',
          problem: `peak RSS ${mib(generatedPeak)} MiB, over the budget of ${mib(from)} + ${mib(o.rssBudgetBytes)} MiB`,
        });
      if (crashed) report.failures.push({ surface: surface.name, input: 'process', problem: crashed });
      report.times.sort((a, b) => a - b);
      reports.push(report);
      o.onSurface?.(report);
      if (crashed) break;
    }
  } finally {
    clearInterval(sampler);
    current = undefined;
    await health.stop();
  }
  return { surfaces: reports, baselineRssBytes, healthz: health.stats, failures: reports.flatMap((r) => r.failures) };
}

export const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

/** The q-th quantile of sorted numbers. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : 0;
}

/** The server's environment for a fuzz: every output and endpoint on, no rate limit, the render pool, warnings only. */
export function fuzzServerEnv(extraOutputs: readonly string[]): Record<string, string> {
  return {
    EXTRA_OUTPUTS: extraOutputs.join(','),
    GRAPHICS_ENDPOINT: '1',
    FONTS_ENDPOINT: '1',
    ORG_REQUESTS_PER_SECOND: '0',
    LOG_LEVEL: 'warn',
  };
}
