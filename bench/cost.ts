// What a label costs and where: CPU per render next to the zlib floor of the label's own PNG rows (zlib's run-length
// deflate of the Up-filtered rows, what any zlib-based encoder pays), the phase split (interpret, layout, paint,
// encode), and, given the dist/ of another build (`--baseline=DIR`), the same renders through it. Each build renders
// in processes of its own (bench/cost-child.ts), ours and the baseline's taking turns, so load changes hit both alike.

import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CostSamples } from './cost-child.js';
import type { BenchLabel } from './labels.js';
import { mean, median } from './stats.js';

/** Processes per build, taking turns with the other build's. */
const PASSES = 3;

/** This build's dist/ (this file is dist/bench/cost.js). */
const OUR_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface LabelCost {
  id: string;
  /** Median CPU ms of a whole render (ours), and of the baseline build's when given. */
  renderMs: number;
  /** Mean CPU ms of a whole render (ours), over the same samples: the renders that took a young collection count too. */
  renderMeanMs: number;
  baselineMs?: number;
  /** Median CPU ms of zlib deflateSync (Z_RLE) over the label's filtered rows. */
  floorMs: number;
  phases: { interpret: number; layout: number; paint: number; encode: number };
  bytes: number;
  baselineBytes?: number;
}

/** One process measuring the build in `dist` (see cost-child.ts). */
export function measure(dist: string, rounds: number, phases: boolean): Promise<CostSamples[]> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [join(OUR_DIST, 'bench', 'cost-child.js'), dist, String(rounds), ...(phases ? ['--phases'] : [])],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) {
        fail(new Error(`cost-child for ${dist} exited with ${code}`));
        return;
      }
      done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as CostSamples[]);
    });
  });
}

/**
 * The cost of each label at 4x6 in, 8 dpmm, 8-bit PNG: PASSES processes of ours (with the phases) and, given another
 * build's dist/, as many of it, alternating; `rounds` renders of each label in each, medians over all of them.
 */
export async function benchCost(
  labels: readonly BenchLabel[],
  rounds: number,
  baselineDist?: string,
): Promise<LabelCost[]> {
  const ours: CostSamples[][] = [],
    theirs: CostSamples[][] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    ours.push(await measure(OUR_DIST, rounds, true));
    if (baselineDist) theirs.push(await measure(resolve(baselineDist), rounds, false));
  }
  const pooled = (runs: CostSamples[][], id: string, pick: (s: CostSamples) => number[]): number[] =>
    runs.flatMap((run) => pick(run.find((s) => s.id === id)!));
  return labels.map((label) => {
    const own = (pick: (s: CostSamples) => number[]): number => median(pooled(ours, label.id, pick));
    const base = theirs[0]?.find((s) => s.id === label.id);
    return {
      id: label.id,
      renderMs: own((s) => s.renderMs),
      renderMeanMs: mean(pooled(ours, label.id, (s) => s.renderMs)),
      floorMs: own((s) => s.floorMs!),
      bytes: ours[0]!.find((s) => s.id === label.id)!.bytes,
      phases: {
        interpret: own((s) => s.phases!.interpret),
        layout: own((s) => s.phases!.layout),
        paint: own((s) => s.phases!.paint),
        encode: own((s) => s.phases!.encode),
      },
      ...(base && { baselineMs: median(pooled(theirs, label.id, (s) => s.renderMs)), baselineBytes: base.bytes }),
    };
  });
}
