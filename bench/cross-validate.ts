// `npm run cross-validate -- [--folds 0,3,7] [--jobs N] [--baseline FILE] [--json FILE] [--keep]`: how the fitted
// tables generalise, measured on the whole corpus rather than on the held-out tenth alone. The hash of bench/holdout.ts
// splits the corpus into ten folds (fold 0 is the held-out tenth). For each fold k, a copy of this working tree
// refits the tables with fold k held out (the fitting tools' `--fold k`, in the order they build on each other),
// rebuilds, and scores the corpus as `npm run fidelity` does. Each case is then read twice: under the committed
// tables (fold 0's run, which checks that it reproduces them) and under the tables that never saw it.
//   --folds LIST      folds to run (default all; fold 0 is always run)
//   --jobs N          folds refitted at once (default 2)
//   --baseline FILE   an earlier build's `npm run fidelity -- --json`: mean strict change since, fitted and unseen
//   --json FILE       the summary and every fold's case scores
//   --keep            keep the copies (their logs say what each tool fitted)
// The boxes of renderer/fonts/font0-metrics.ts are not refitted: the committed table is older than its tool's
// held-out rule (bench/README.md), so every fold reads the same boxes.

import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FITTED_TABLES } from '../tools/font0-model/table-file.js';
import { crossValidation, type CaseKind, type FoldLine, type FoldScore } from './cross-validation.js';
import { HELD_OUT_MODULUS } from './holdout.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each fitting tool and its table, as paths in a copy of the tree, in the order the tools build on each other. */
const FITS = FITTED_TABLES.map((f) => ({
  tool: `dist/tools/font0-model/${f.tool}`,
  table: `renderer/fonts/${f.table}`,
}));

/**
 * The corpus's font fixtures apart from the labels: font 0's each repeat one glyph (what the glyph model fits on);
 * the device fonts' are single glyphs and short strings.
 */
const FIXTURES = ['labelary_text_default_images/', 'labelary_devicefont_images/'];
const KINDS: readonly CaseKind[] = [
  { name: 'font 0 fixtures', test: (id) => id.includes(FIXTURES[0]!) },
  { name: 'device fixtures', test: (id) => id.includes(FIXTURES[1]!) },
  { name: 'labels', test: (id) => !FIXTURES.some((f) => id.includes(f)) },
];

interface Args {
  folds: number[];
  jobs: number;
  baseline?: string;
  json?: string;
  keep: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    folds: [...Array(HELD_OUT_MODULUS).keys()],
    jobs: Math.min(2, availableParallelism()),
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return v;
    };
    switch (argv[i]) {
      case '--folds':
        args.folds = [...new Set([0, ...value().split(',').map(Number)])].sort((a, b) => a - b);
        break;
      case '--jobs':
        args.jobs = Math.max(1, Number(value()));
        break;
      case '--baseline':
        args.baseline = value();
        break;
      case '--json':
        args.json = value();
        break;
      case '--keep':
        args.keep = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  if (args.folds.some((k) => !Number.isInteger(k) || k < 0 || k >= HELD_OUT_MODULUS))
    throw new Error(`--folds: folds are 0 to ${HELD_OUT_MODULUS - 1}`);
  return args;
}

/** This working tree's files (tracked and new, as they stand) copied to `dir`; the corpus and node_modules linked. */
async function copyTree(dir: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    maxBuffer: 1 << 26,
  });
  for (const file of stdout.split('\0')) {
    if (!file || file.startsWith('corpus/')) continue;
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    try {
      cpSync(path.join(ROOT, file), path.join(dir, file));
    } catch {
      /* deleted in the working tree */
    }
  }
  symlinkSync(path.join(ROOT, 'corpus'), path.join(dir, 'corpus'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
}

/** One fold: its copy refitted with the fold held out, rebuilt and scored; the case scores. */
async function runFold(fold: number, dir: string): Promise<FoldScore[]> {
  await copyTree(dir);
  const step = async (args: string[], log: string): Promise<void> => {
    try {
      const { stdout } = await run(args[0]!, args.slice(1), { cwd: dir, maxBuffer: 1 << 26 });
      writeFileSync(path.join(dir, log), stdout);
    } catch (err) {
      throw new Error(`fold ${fold}: ${args.join(' ')} failed (${dir}): ${(err as Error).message}`);
    }
  };
  const tsc = (): Promise<void> =>
    step([process.execPath, path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], 'tsc.log');
  await tsc();
  // Rebuilt after each tool: the next reads the table it wrote (fidelity, last, reads them all).
  for (const fit of FITS) {
    await step(
      [process.execPath, fit.tool, '--write', '--fold', String(fold)],
      `${path.basename(fit.tool, '.js')}.log`,
    );
    await tsc();
  }
  await step([process.execPath, 'dist/bench/fidelity.js', '--json', 'scores.json'], 'fidelity.log');
  return (JSON.parse(readFileSync(path.join(dir, 'scores.json'), 'utf8')) as { cases: FoldScore[] }).cases;
}

/** Which committed tables fold 0's refit did not reproduce byte for byte (none: the fitted line is the repository's). */
function unreproduced(dir: string): string[] {
  return FITS.map((f) => f.table).filter(
    (t) => readFileSync(path.join(dir, t), 'utf8') !== readFileSync(path.join(ROOT, t), 'utf8'),
  );
}

const f4 = (n: number): string => n.toFixed(4);
const signed = (n: number | null): string => (n === null ? '' : `${n >= 0 ? '+' : ''}${n.toFixed(5)}`);

function row(name: string, l: FoldLine, baseline: boolean): string {
  return (
    `${name.padEnd(17)} ${String(l.cases).padStart(5)}  ${f4(l.strictFitted)}  ${f4(l.strictUnseen)}  ${signed(l.strictUnseen - l.strictFitted).padStart(8)}` +
    `   ${f4(l.nearFitted)}  ${f4(l.nearUnseen)}   ${String(l.identicalFitted).padStart(4)} ${String(l.identicalUnseen).padStart(6)}` +
    (baseline ? `   ${signed(l.sinceBaselineFitted).padStart(8)}  ${signed(l.sinceBaselineUnseen).padStart(8)}` : '')
  );
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(path.join(tmpdir(), 'zpl-cross-validate-'));
  const runs = new Map<number, FoldScore[]>();
  let missing: string[] = [];
  try {
    const queue = [...args.folds];
    const worker = async (): Promise<void> => {
      for (let fold = queue.shift(); fold !== undefined; fold = queue.shift()) {
        const dir = path.join(work, `fold-${fold}`);
        runs.set(fold, await runFold(fold, dir));
        if (fold === 0) missing = unreproduced(dir);
        console.error(`fold ${fold} scored`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(args.jobs, args.folds.length) }, worker));
  } finally {
    if (args.keep) console.log(`copies kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  const baseline = args.baseline
    ? (JSON.parse(readFileSync(args.baseline, 'utf8')) as { cases: FoldScore[] }).cases
    : undefined;
  const cv = crossValidation(runs, baseline, KINDS);
  console.log(
    `fold 0's refit ${missing.length ? `does not reproduce ${missing.join(', ')}: the fitted columns are not the committed tables'` : 'reproduces the committed tables byte for byte'}`,
  );
  console.log(
    `fitted: under the committed tables (fold 0 held out); unseen: under tables fitted with the case's own fold held out${baseline ? `; since: mean strict change from ${args.baseline}` : ''}`,
  );
  console.log(
    `${'fold'.padEnd(17)} cases  strict (fitted  unseen    change)   1-px (fitted  unseen)  identical (fitted unseen)${baseline ? '   since (fitted    unseen)' : ''}`,
  );
  for (const l of cv.folds) console.log(row(String(l.fold), l, !!baseline));
  console.log(row('folds 1-9', cv.fitted, !!baseline));
  for (const k of cv.kinds) console.log(row(` ${k.kind}`, k, !!baseline));
  console.log(row('all', cv.all, !!baseline));
  if (args.json)
    writeFileSync(args.json, JSON.stringify({ summary: cv, runs: Object.fromEntries(runs) }, null, 1) + '\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
