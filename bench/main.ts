// `npm run bench`: render speed in process and over HTTP, against zpl-renderer-js, memory and pixel budget.
// Options: --quick (fewer rounds, for a smoke run), --only=cost,inprocess,peer,http,memory,budget,
//          --http-seconds=N, --memory-renders=N, --server-env=NAME=VALUE (repeatable; e.g. a worker pool switch),
//          --baseline=DIR (another build's dist/, e.g. of main: its renders and server measured beside ours), --cost-rounds=N.

import { cpus, loadavg, platform, arch } from 'node:os';
import type { Dpmm } from '../renderer/api.js';
import { join, resolve } from 'node:path';
import { benchCost, type LabelCost } from './cost.js';
import { benchHttp, type HttpRun } from './http.js';
import { benchOverhead } from './overhead.js';
import { benchInProcess, DENSITIES, FORMATS, type Figures } from './in-process.js';
import { loadLabels } from './labels.js';
import { benchMemory } from './memory.js';
import { benchPeer, loadPeer, type PeerFigures } from './peer.js';
import { benchPixelBudget } from './pixel-budget.js';
import { median, mib, ms, table } from './stats.js';

const SECTIONS = ['cost', 'inprocess', 'peer', 'http', 'memory', 'budget'] as const;
const HTTP_LABEL = 'labelize/labels/ups';

interface Args {
  quick: boolean;
  only: Set<string>;
  httpSeconds: number;
  memoryRenders: number;
  serverEnv: Record<string, string>;
  baseline?: string;
  costRounds: number;
}

function parseArgs(argv: readonly string[]): Args {
  const value = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const quick = argv.includes('--quick');
  const serverEnv: Record<string, string> = {};
  for (const a of argv.filter((x) => x.startsWith('--server-env='))) {
    const [k, ...v] = a.slice('--server-env='.length).split('=');
    serverEnv[k] = v.join('=');
  }
  return {
    quick,
    only: new Set(value('only')?.split(',') ?? SECTIONS),
    httpSeconds: Number(value('http-seconds') ?? (quick ? 2 : 5)),
    memoryRenders: Number(value('memory-renders') ?? (quick ? 2000 : 20000)),
    serverEnv,
    ...(value('baseline') && { baseline: resolve(value('baseline')!) }),
    costRounds: Number(value('cost-rounds') ?? (quick ? 3 : 15)),
  };
}

const formatName = { png8: 'PNG 8-bit', png1: 'PNG 1-bit', pdf: 'PDF raster', pdfv: 'PDF vector' } as const;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const labels = loadLabels('carrier');
  const cpuCount = cpus().length;
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log('# Benchmarks\n');
  const startLoad = load();
  console.log(
    `node ${process.version}, ${platform()} ${arch()}, ${cpuCount} CPUs (${cpus()[0]?.model.trim() ?? '?'}), ` +
      `load average at start ${startLoad}; ${labels.length} carrier labels from the corpus\n`,
  );

  let ours: Figures[] = [];
  let ours4x6: Figures[] = [];
  let peer: PeerFigures[] = [];
  let http: HttpRun | undefined;
  const extraRows: string[][] = [];
  const check = (ok: boolean): string => (ok ? 'met' : 'MISSED');
  /** A median ratio with the range of the rounds it is the median of. */
  const ratioOfRounds = (medianRatio: number, ratios: readonly number[]): string =>
    `${medianRatio.toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x)`;
  const rounds = (dpmm: Dpmm): number => (args.quick ? 1 : dpmm === 24 ? 4 : dpmm === 12 ? 6 : 10);

  let cost: LabelCost[] = [];
  if (args.only.has('cost')) {
    cost = await benchCost(labels, args.costRounds, args.baseline);
    printCost(cost, args.baseline, extraRows, check);
  }

  if (args.only.has('inprocess')) {
    ours = await benchInProcess(labels, {
      densities: DENSITIES,
      formats: FORMATS,
      size: { name: 'native' },
      rounds,
      warmupRounds: 3,
    });
    ours4x6 = await benchInProcess(labels, {
      densities: [8, 24],
      formats: ['png8'],
      size: { name: '4x6', widthIn: 4, heightIn: 6 },
      rounds,
    });
    console.log('## In-process render (ms per label, wall clock; CPU = process CPU time)\n');
    console.log(
      table(
        ['dpmm', 'label size', 'format', 'renders', 'median ms', 'p95 ms', 'median CPU ms', 'median KiB', 'peak RSS'],
        [...ours, ...ours4x6].map((f) => [
          String(f.dpmm),
          f.size === 'native' ? '4x8 (manifest)' : f.size,
          formatName[f.format],
          String(f.renders),
          ms(f.medianMs),
          ms(f.p95Ms),
          ms(f.medianCpuMs),
          (f.medianBytes / 1024).toFixed(1),
          mib(f.peakRssBytes),
        ]),
      ),
    );
    console.log();
  }

  if (args.only.has('memory')) {
    const m = await benchMemory(labels, args.memoryRenders);
    const growth = m.endRssBytes - m.startRssBytes;
    console.log(`## Memory: ${m.renders} in-process renders (8 dpmm, all formats) in ${m.seconds.toFixed(0)} s\n`);
    console.log(
      `RSS start ${mib(m.startRssBytes)}, end ${mib(m.endRssBytes)} (${growth >= 0 ? '+' : ''}${mib(growth)}); ` +
        `heap+external start ${mib(m.startHeapBytes)}, end ${mib(m.endHeapBytes)}`,
    );
    console.log(`RSS every tenth: ${m.trace.map((b) => (b / 1048576).toFixed(0)).join(' ')} MiB`);
    const flat = growth < 64 * 1048576 && m.endHeapBytes - m.startHeapBytes < 16 * 1048576;
    console.log(`verdict: ${flat ? 'flat' : 'GROWING'}\n`);
    extraRows.push([
      `Memory: RSS across ${m.renders} in-process renders`,
      `${mib(m.startRssBytes)} -> ${mib(m.endRssBytes)}`,
      `flat: ${check(flat)}`,
    ]);
  }

  if (args.only.has('budget')) {
    const label = labels.find((l) => l.id === HTTP_LABEL) ?? labels[0];
    console.log('## Pixel budget (24 dpmm)\n');
    const budget = await benchPixelBudget(label);
    console.log(
      table(
        ['label', 'pixels', 'budget', 'outcome', 'ms', 'peak RSS growth'],
        budget.map((b) => [
          `${b.widthIn}x${b.heightIn} in`,
          String(b.pixels),
          String(b.budget),
          b.outcome,
          ms(b.ms),
          mib(b.rssGrowthBytes),
        ]),
      ),
    );
    for (const b of budget) {
      extraRows.push([`15x15 in at 24 dpmm, budget ${b.budget} pixels`, `${b.outcome} in ${ms(b.ms)} ms`, '']);
    }
    console.log();
  }

  if (args.only.has('http')) {
    const label = labels.find((l) => l.id === HTTP_LABEL) ?? labels[0];
    // The baseline's server first, then ours, back to back.
    const baseHttp = args.baseline
      ? await benchHttp(label, {
          dpmm: 8,
          size: '4x6',
          connections: [1, 16],
          seconds: args.httpSeconds,
          serverEnv: args.serverEnv,
          serverScript: join(args.baseline, 'server', 'server.js'),
        })
      : undefined;
    http = await benchHttp(label, {
      dpmm: 8,
      size: '4x6',
      connections: [1, 16, 64],
      seconds: args.httpSeconds,
      serverEnv: args.serverEnv,
    });
    if (baseHttp) {
      console.log(`## HTTP, baseline build (${args.baseline}), same label and levels\n`);
      console.log(
        table(
          ['connections', 'requests/s', 'p50 ms', 'p99 ms', 'errors', 'server CPU ms/request'],
          baseHttp.levels.map((l) => [
            String(l.connections),
            l.requestsPerSec.toFixed(0),
            String(l.p50Ms),
            String(l.p99Ms),
            String(l.errors),
            l.serverCpuMsPerRequest !== undefined ? ms(l.serverCpuMsPerRequest) : '-',
          ]),
        ),
      );
      console.log();
    }
    const one = http.levels.find((l) => l.connections === 1),
      sixteen = http.levels.find((l) => l.connections === 16);
    const overhead = await benchOverhead(label, {
      dpmm: 8,
      size: '4x6',
      serverEnv: args.serverEnv,
      rounds: args.quick ? 2 : 5,
      seconds: args.quick ? 1 : 3,
      renders: args.quick ? 200 : 1000,
    });
    extraRows.push([
      `UPS 4x6 8 dpmm: server CPU per HTTP request (1 connection) / in-process render CPU, each a total over a count, median of ${overhead.rounds.length} rounds taken in turns`,
      ratioOfRounds(
        overhead.medianRatio,
        overhead.rounds.map((r) => r.ratio),
      ),
      `<= 1.2x: ${check(overhead.medianRatio <= 1.2)}`,
    ]);
    extraRows.push([
      'the same for a bare node:http server rendering in process (bench/floor-server.ts), the same rounds: what a node:http server that does nothing else costs',
      ratioOfRounds(
        overhead.medianFloorRatio,
        overhead.rounds.map((r) => r.floorRatio),
      ),
      '',
    ]);
    if (one && sixteen) {
      const ratio = sixteen.p99Ms / one.p50Ms;
      extraRows.push([
        'HTTP p99 at 16 connections / p50 at 1 connection',
        `${sixteen.p99Ms} / ${one.p50Ms} ms = ${ratio.toFixed(1)}x`,
        `<= 16x: ${check(ratio <= 16)}`,
      ]);
    }
    const envNote = Object.keys(args.serverEnv).length ? ` (server env ${JSON.stringify(args.serverEnv)})` : '';
    console.log(`## HTTP: POST ${http.path}, ${label.id}, ${args.httpSeconds} s per level${envNote}\n`);
    console.log(
      table(
        [
          'connections',
          'requests',
          'requests/s',
          'p50 ms',
          'p99 ms',
          'errors',
          'server CPU ms/request',
          'of it main thread',
          'autocannon CPU ms/request',
        ],
        http.levels.map((l) => [
          String(l.connections),
          String(l.requests),
          l.requestsPerSec.toFixed(0),
          String(l.p50Ms),
          String(l.p99Ms),
          String(l.errors),
          l.serverCpuMsPerRequest !== undefined ? ms(l.serverCpuMsPerRequest) : '-',
          l.serverMainThreadCpuMsPerRequest !== undefined ? ms(l.serverMainThreadCpuMsPerRequest) : '-',
          ms(l.clientCpuMsPerRequest),
        ]),
      ),
    );
    const split = http.levels.filter((l) => l.serverMeanMs);
    if (split.length > 0) {
      console.log("\nWhere a request's time goes, as the server counts it (its /metrics), mean ms:\n");
      console.log(
        table(
          [
            'connections',
            'waiting for a render thread',
            'rendering',
            'whole request in the server',
            'rest (main thread, I/O)',
          ],
          split.map((l) => {
            const s = l.serverMeanMs!;
            return [
              String(l.connections),
              ms(s.queued),
              ms(s.rendering),
              ms(s.request),
              ms(Math.max(0, s.request - s.queued - s.rendering)),
            ];
          }),
        ),
      );
    }
    if (http.serverPeakRssBytes) console.log(`\nserver peak RSS ${mib(http.serverPeakRssBytes)}`);
    console.log();
    console.log(
      `## Serving overhead: ${label.id}, server CPU per request at 1 connection next to in-process CPU per render, in turns\n`,
    );
    console.log(
      table(
        [
          'round',
          'in process, ms/render',
          'server, ms/request',
          'ratio',
          'bare node:http floor, ms/request',
          'floor ratio',
        ],
        overhead.rounds.map((r, i) => [
          String(i + 1),
          ms(r.renderMs),
          ms(r.serverMs),
          `${r.ratio.toFixed(2)}x`,
          ms(r.floorMs),
          `${r.floorRatio.toFixed(2)}x`,
        ]),
      ),
    );
    console.log(
      `\nmedian ratio ${overhead.medianRatio.toFixed(2)}x; the floor's ${overhead.medianFloorRatio.toFixed(2)}x`,
    );
    const ups = cost.find((c) => c.id === HTTP_LABEL);
    if (ups && one?.serverCpuMsPerRequest !== undefined) {
      console.log(
        `(the HTTP levels above against the cost table, minutes apart: ${ms(one.serverCpuMsPerRequest)} / ${ms(ups.renderMeanMs)} ms mean render = ` +
          `${(one.serverCpuMsPerRequest / ups.renderMeanMs).toFixed(2)}x; against its median render ${ms(ups.renderMs)} ms: ${(one.serverCpuMsPerRequest / ups.renderMs).toFixed(2)}x)`,
      );
    }
    console.log();
  }

  // Last: the WebAssembly peer keeps hundreds of MB resident, which would blur the memory figures.
  if (args.only.has('peer')) {
    const zplToPng = await loadPeer();
    if (!zplToPng) console.log('## zpl-renderer-js\n\nnot installed; skipped\n');
    else {
      peer = await benchPeer(zplToPng, labels, DENSITIES, 1);
      console.log('## zpl-renderer-js, same labels and sizes, PNG (ms per label)\n');
      console.log(
        table(
          ['dpmm', 'renders', 'failures', 'median ms', 'p95 ms', 'ours PNG 8-bit median ms', 'ours is faster by'],
          peer.map((p) => {
            const o = ours.find((f) => f.dpmm === p.dpmm && f.format === 'png8');
            return [
              String(p.dpmm),
              String(p.renders),
              String(p.failures),
              ms(p.medianMs),
              ms(p.p95Ms),
              o ? ms(o.medianMs) : '-',
              o ? `${(p.medianMs / o.medianMs).toFixed(1)}x` : '-',
            ];
          }),
        ),
      );
      console.log();
    }
  }

  console.log(`## Summary (for docs/performance.md)\n`);
  const rows: string[][] = [['CPUs (os.cpus().length); load average at start', `${cpuCount}; ${startLoad}`, '']];
  const pick = (list: Figures[], dpmm: Dpmm, format: string): Figures | undefined =>
    list.find((f) => f.dpmm === dpmm && f.format === format);
  for (const [dpmm, target] of [
    [8, 8],
    [24, 60],
  ] as const) {
    const f = pick(ours4x6, dpmm, 'png8');
    if (f)
      rows.push([
        `4x6 carrier labels, ${dpmm} dpmm, PNG 8-bit: median / p95 (median CPU)`,
        `${ms(f.medianMs)} / ${ms(f.p95Ms)} ms (${ms(f.medianCpuMs)} ms)`,
        `<= ${target} ms median: ${check(f.medianMs <= target)}`,
      ]);
  }
  for (const dpmm of DENSITIES) {
    const cells = FORMATS.map((fmt) => pick(ours, dpmm, fmt)).filter((f): f is Figures => !!f);
    if (cells.length)
      rows.push([
        `4x8 carrier labels, ${dpmm} dpmm: median ${cells.map((c) => formatName[c.format]).join(' / ')}`,
        cells.map((c) => ms(c.medianMs)).join(' / ') + ' ms',
        '',
      ]);
    const raster = pick(ours, dpmm, 'pdf'),
      vector = pick(ours, dpmm, 'pdfv');
    if (raster && vector) {
      const ratio = vector.medianCpuMs / raster.medianCpuMs;
      rows.push([
        `4x8 carrier labels, ${dpmm} dpmm: vector PDF vs raster PDF, median CPU ms; KiB per label`,
        `${ms(vector.medianCpuMs)} vs ${ms(raster.medianCpuMs)} ms (${ratio.toFixed(2)}x); ${(vector.medianBytes / 1024).toFixed(1)} vs ${(raster.medianBytes / 1024).toFixed(1)} KiB`,
        `<= 1.5x raster PDF: ${check(ratio <= 1.5)}`,
      ]);
    }
  }
  for (const p of peer) {
    const o = pick(ours, p.dpmm, 'png8');
    if (o)
      rows.push([
        `vs zpl-renderer-js at ${p.dpmm} dpmm (median, PNG)`,
        `${(p.medianMs / o.medianMs).toFixed(1)}x faster (${ms(o.medianMs)} vs ${ms(p.medianMs)} ms)`,
        `>= 5x: ${check(p.medianMs / o.medianMs >= 5)}`,
      ]);
  }
  for (const l of http?.levels ?? []) {
    const target =
      l.connections === 16
        ? `>= 150/s, p99 <= 60 ms, 0 errors: ${check(l.requestsPerSec >= 150 && l.p99Ms <= 60 && l.errors === 0)}`
        : `0 errors: ${check(l.errors === 0)}`;
    const cpu = l.serverCpuMsPerRequest !== undefined ? `, server CPU ${ms(l.serverCpuMsPerRequest)} ms/request` : '';
    rows.push([
      `HTTP, ${l.connections} connection${l.connections === 1 ? '' : 's'}: labels/s, p50 / p99`,
      `${l.requestsPerSec.toFixed(0)}/s, ${l.p50Ms} / ${l.p99Ms} ms, ${l.errors} errors${cpu}`,
      target,
    ]);
  }
  console.log(table(['measure', 'result', 'target'], [...rows, ...extraRows]));
  console.log(`\nload average at end ${load()}`);
}

/** The cost section: a row per label, then the figures the targets read. */
function printCost(
  cost: readonly LabelCost[],
  baseline: string | undefined,
  extraRows: string[][],
  check: (ok: boolean) => string,
): void {
  console.log(
    '## CPU per label: 4x6 in, 8 dpmm, 8-bit PNG (median process CPU ms; render mean: the mean of the same samples)\n',
  );
  console.log("zlib floor: deflateSync (Z_RLE) over the label's own Up-filtered rows; phases as render() runs them.\n");
  const head = [
    'label',
    'render',
    'render mean',
    ...(baseline ? ['baseline', 'faster by'] : []),
    'zlib floor',
    'render / floor',
    'interpret',
    'layout',
    'paint',
    'encode',
    'KiB',
    ...(baseline ? ['baseline KiB'] : []),
  ];
  console.log(
    table(
      head,
      cost.map((c) => [
        c.id,
        ms(c.renderMs),
        ms(c.renderMeanMs),
        ...(c.baselineMs !== undefined ? [ms(c.baselineMs), `${(c.baselineMs / c.renderMs).toFixed(2)}x`] : []),
        ms(c.floorMs),
        `${(c.renderMs / c.floorMs).toFixed(2)}x`,
        ms(c.phases.interpret),
        ms(c.phases.layout),
        ms(c.phases.paint),
        ms(c.phases.encode),
        (c.bytes / 1024).toFixed(1),
        ...(c.baselineBytes !== undefined ? [(c.baselineBytes / 1024).toFixed(1)] : []),
      ]),
    ),
  );
  const m = (f: (c: LabelCost) => number): number => median(cost.map(f));
  console.log(
    `\nmedian over ${cost.length} labels: render ${ms(m((c) => c.renderMs))} ms` +
      (baseline ? `, baseline ${ms(m((c) => c.baselineMs!))} ms` : '') +
      `; interpret ${ms(m((c) => c.phases.interpret))}, layout ${ms(m((c) => c.phases.layout))}, paint ${ms(m((c) => c.phases.paint))}, encode ${ms(m((c) => c.phases.encode))} ms\n`,
  );
  const ups = cost.find((c) => c.id === HTTP_LABEL);
  if (ups) {
    const ratio = ups.renderMs / ups.floorMs;
    extraRows.push([
      'UPS 4x6 8 dpmm: render CPU / zlib floor of its rows',
      `${ms(ups.renderMs)} / ${ms(ups.floorMs)} ms = ${ratio.toFixed(2)}x`,
      `<= 2.0x: ${check(ratio <= 2)}`,
    ]);
  }
  if (baseline) {
    const ours = m((c) => c.renderMs),
      theirs = m((c) => c.baselineMs!);
    extraRows.push([
      `Carrier labels in process, median CPU: baseline / ours`,
      `${ms(theirs)} / ${ms(ours)} ms = ${(theirs / ours).toFixed(2)}x`,
      `>= 1.7x: ${check(theirs / ours >= 1.7)}`,
    ]);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
