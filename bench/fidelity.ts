// `npm run fidelity`: renders every corpus case in process and scores it against the legacy service's PNG
// with the shadow comparison's ink F1. Prints one line per group (1-px F1, then the strict line: F1 with no
// tolerance and pixel-identical labels), the strict line overall, on the held-out tenth (bench/holdout.ts) and on
// the rest, and `fidelity: mean F1 X (min Y) over N cases`.
//   --manifest FILE   another corpus in the same format (default corpus/manifest.json)
//   --only SUBSTR     cases whose id contains SUBSTR        --group G   cases of one group
//   --cases           one line per case as well            --diff DIR  DIR/<id>.png: black both, red only
//   --json FILE       every case's scores and the summary              in the reference, blue only ours
//   --min F1          exit 1 when the mean F1 is below F1
//   --raise-floors    raise corpus/fidelity-floors.json to today's scores minus the margin (commit it alone)

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus, CORPUS_MANIFEST } from './corpus.js';
import { FLOORS_FILE, raiseFloors, readFloors, writeFloors } from './fidelity-floors.js';
import {
  scoreCase,
  scoredCases,
  summarizeHoldout,
  summarizeScores,
  type CaseScore,
  type GroupScore,
} from './fidelity-score.js';

interface Args {
  manifest: string;
  only?: string;
  group?: string;
  diff?: string;
  json?: string;
  min?: number;
  cases: boolean;
  raiseFloors: boolean;
}

const USAGE =
  'usage: npm run fidelity -- [--manifest FILE] [--only SUBSTR] [--group G] [--cases] [--diff DIR] [--json FILE] [--min F1] [--raise-floors]';

function parseArgs(argv: string[]): Args {
  const args: Args = { manifest: CORPUS_MANIFEST, cases: false, raiseFloors: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--manifest':
        args.manifest = value();
        break;
      case '--only':
        args.only = value();
        break;
      case '--group':
        args.group = value();
        break;
      case '--diff':
        args.diff = value();
        break;
      case '--json':
        args.json = value();
        break;
      case '--min':
        args.min = Number(value());
        break;
      case '--cases':
        args.cases = true;
        break;
      case '--raise-floors':
        args.raiseFloors = true;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  return args;
}

const f4 = (n: number): string => n.toFixed(4);

function caseLine(s: CaseScore): string {
  return `${s.id.padEnd(48)} F1 ${f4(s.f1)}  strict ${f4(s.strictF1)}${s.identical ? '  identical' : ''}  ${s.ms.toFixed(0).padStart(5)} ms${s.note ? `  ${s.note}` : ''}`;
}

function groupLine(g: GroupScore): string {
  return `group ${g.group.padEnd(10)} mean F1 ${f4(g.meanF1)}  min ${f4(g.minF1)}  strict ${f4(g.meanStrictF1)}  identical ${String(g.identical).padStart(3)}  cases ${g.cases}`;
}

function strictLine(label: string, g: GroupScore): string {
  const share = g.cases ? ((100 * g.identical) / g.cases).toFixed(1) : '0.0';
  return `${label}: mean F1 ${f4(g.meanStrictF1)} with no tolerance; ${g.identical} of ${g.cases} labels (${share}%) pixel-identical`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const corpus = loadCorpus(args.manifest);
  const cases = scoredCases(corpus, {
    ...(args.only && { only: args.only }),
    ...(args.group && { group: args.group }),
  });
  if (args.diff) mkdirSync(args.diff, { recursive: true });
  const scores: CaseScore[] = [];
  for (const c of cases) {
    const diffFile = args.diff ? join(args.diff, `${c.id.replace(/[^\w.-]/g, '_')}.png`) : undefined;
    const score = await scoreCase(corpus, c, diffFile ? (png) => writeFileSync(diffFile, png) : undefined);
    scores.push(score);
    if (args.cases) console.log(caseLine(score));
  }
  const { groups, all } = summarizeScores(scores);
  for (const g of groups) console.log(groupLine(g));
  const problems = scores.filter((s) => s.note);
  for (const s of problems) console.log(`${s.id}: ${s.note}`);
  const { heldOut, fitted } = summarizeHoldout(scores);
  console.log(strictLine('strict', all));
  console.log(`${strictLine('strict held-out tenth', heldOut)}; 1-px F1 ${f4(heldOut.meanF1)}`);
  console.log(`${strictLine('strict fitted rest', fitted)}; 1-px F1 ${f4(fitted.meanF1)}`);
  console.log(`fidelity: mean F1 ${f4(all.meanF1)} (min ${f4(all.minF1)}) over ${all.cases} cases`);

  if (args.json)
    writeFileSync(
      args.json,
      JSON.stringify({ summary: { groups, all, heldOut, fitted }, cases: scores }, null, 1) + '\n',
    );
  if (args.raiseFloors) {
    if (args.only || args.group || args.manifest !== CORPUS_MANIFEST)
      throw new Error('--raise-floors needs the whole corpus (no --only, --group or --manifest)');
    writeFloors(raiseFloors(readFloorsIfAny(), scores, [...groups, all]));
    console.log(`floors raised where scores rose: ${FLOORS_FILE}`);
  }
  if (args.min !== undefined && !(all.meanF1 >= args.min)) process.exitCode = 1;
}

function readFloorsIfAny(): ReturnType<typeof readFloors> | undefined {
  try {
    return readFloors();
  } catch {
    return undefined;
  }
}

main().catch((err: unknown) => {
  console.error(`ERROR: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
});
