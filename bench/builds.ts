// Two builds' carrier median, each build in processes of its own, taking turns:
// `node dist/bench/builds.js --baseline=DIR [--ours=DIR] [--processes=9] [--rounds=15] [--peer]`, DIR a build's dist/
// (`--ours`: another build measured in this one's place).
// Every process is bench/cost-child.ts (30 warm-up passes over the 26 carrier labels, then `rounds` renders a label,
// 4x6 in, 8 dpmm, 8-bit PNG, process CPU per render); a label's figure is the median of its samples pooled over a
// build's processes, the carrier median the median of the labels'. Pass i runs ours then the baseline's, pass i+1 the
// other way round, so the machine's drift over minutes weighs on both alike. `--peer` adds zpl-renderer-js on the same
// labels and size, in processes of its own (bench/peer-child.ts), and each build's ratio against it.

import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './cost.js';
import type { CostSamples } from './cost-child.js';
import type { PeerSamples } from './peer-child.js';
import { median, ms } from './stats.js';

const OUR_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Args {
  ours: string;
  baseline: string;
  processes: number;
  rounds: number;
  peer: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const value = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const baseline = value('baseline');
  if (!baseline) throw new Error('usage: builds.js --baseline=DIR [--ours=DIR] [--processes=9] [--rounds=15] [--peer]');
  return {
    ours: resolve(value('ours') ?? OUR_DIST),
    baseline: resolve(baseline),
    processes: Number(value('processes') ?? 9),
    rounds: Number(value('rounds') ?? 15),
    peer: argv.includes('--peer'),
  };
}

/** The median over labels of each label's median, its samples pooled over `runs`. */
function carrierMedian(runs: readonly CostSamples[][]): number {
  const ids = runs[0]!.map((s) => s.id);
  return median(ids.map((id) => median(runs.flatMap((run) => run.find((s) => s.id === id)!.renderMs))));
}

/** One zpl-renderer-js process (bench/peer-child.ts). */
function measurePeer(rounds: number): Promise<PeerSamples[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(OUR_DIST, 'bench', 'peer-child.js'), String(rounds)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0
        ? done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as PeerSamples[])
        : fail(new Error(`peer-child exited with ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? '?'}), load average at start ${load()}; ` +
      `${args.processes} processes a build, ${args.rounds} renders a label in each\n`,
  );
  const ours: CostSamples[][] = [],
    theirs: CostSamples[][] = [],
    peer: PeerSamples[][] = [];
  for (let pass = 0; pass < args.processes; pass++) {
    const order = pass % 2 === 0 ? ([ours, theirs] as const) : ([theirs, ours] as const);
    for (const runs of order) runs.push(await measure(runs === ours ? args.ours : args.baseline, args.rounds, false));
    if (args.peer) peer.push(await measurePeer(Math.max(1, Math.round(args.rounds / 5))));
    console.log(
      `pass ${pass + 1}: ours ${ms(carrierMedian([ours[pass]!]))} ms, baseline ${ms(carrierMedian([theirs[pass]!]))} ms`,
    );
  }
  const o = carrierMedian(ours),
    b = carrierMedian(theirs);
  const change = (o / b - 1) * 100;
  console.log('\n| build | carrier median, CPU ms per render |\n| --- | --- |');
  console.log(`| ours (${args.ours}) | ${ms(o)} |\n| baseline (${args.baseline}) | ${ms(b)} |`);
  console.log(
    `\nours / baseline = ${(o / b).toFixed(3)}x (ours ${Math.abs(change).toFixed(1)} % ${change > 0 ? 'slower' : 'faster'})`,
  );
  if (args.peer) {
    const ids = ours[0]!.map((s) => s.id);
    const p = median(ids.map((id) => median(peer.flatMap((run) => run.find((s) => s.id === id)!.cpuMs))));
    console.log(
      `zpl-renderer-js, same labels and size: ${ms(p)} ms; ours ${(p / o).toFixed(1)}x faster, baseline ${(p / b).toFixed(1)}x`,
    );
  }
  console.log(`load average at end ${load()}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
