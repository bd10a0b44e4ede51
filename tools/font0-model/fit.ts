// `node dist/tools/font0-model/fit.js [--write | --out FILE] [--params wx,wy,dx,dy,adv] [--fold K]`: fits the font 0
// glyph model (renderer/fonts/font0-model.ts) to the legacy renderer's PNGs. For every size band and every glyph
// that the corpus shows alone (tools/font0-model/cases.ts, held-out tenth excluded), a coordinate search over the stem
// weight across x and along y, the placement offset and the pen advance draws the glyph and keeps the candidate
// with the fewest ink pixels off the reference (then the smallest grey error), never one with a lower 1-px F1
// than the unadjusted glyph. Each band first gets one rule for all its glyphs (a stem weight fitted to all of
// them at once); that is what glyphs the band has no case of get, and where each glyph's search starts. Last, a glyph
// the fit set shows at two heights or more gets one edge refinement for all its sizes (across-sizes.ts;
// `--no-shared` skips it, `--shared-only` refines the table in use without refitting the bands). Prints every fit,
// the strict F1 before and after, and the held-out glyph cases under the fitted table; --write regenerates the
// table (--out FILE writes it there instead). The ratchet's floors are not read: the references alone decide.

import { heldOutFold } from '../../bench/holdout.js';
import { glyphAdvance } from '../../renderer/fonts/font0.js';
import { font0Metrics } from '../../renderer/fonts/font0-metrics.js';
import { font0Model, type Font0Band } from '../../renderer/fonts/font0-model.js';
import { fitAcrossSizes, withShared, type SharedFit } from './across-sizes.js';
import { glyphCases, type GlyphCase } from './cases.js';
import { scoreCandidate, type Candidate } from './score.js';
import { tableFile, writeTable } from './table-file.js';
import { tableRows } from './table-rows.js';
import { asBand, withTransfers, type BandFit } from './transfers.js';
import {
  ALL_PARAMS,
  modelUnits,
  search as searchUnits,
  total as totalUnits,
  ZERO,
  type Param,
  type Units,
} from './search.js';

const search = (cases: readonly GlyphCase[], params: readonly Param[], start: Units, rounds = 4) =>
  searchUnits(cases, params, start, candidate, meanHeight(cases), rounds);
const total = (cases: readonly GlyphCase[], u: Units) => totalUnits(cases, u, candidate);

/** Upper heights of the bands (dots): the corpus shows font 0 alone at 20, 30 (and 39), 50, and 80 (84, 87). */
const BAND_TOPS = [25, 44, 65, Infinity];

function candidate(c: GlyphCase, u: Units): Candidate {
  // The box's advance alone: the run fit (fit-runs.ts) is fitted after this model, on top of it.
  const base = glyphAdvance(c.cp, c.h, [], []) ?? 0.5;
  const sx = c.w / c.h;
  return {
    weightX: u.wx * c.h,
    weightY: u.wy * c.h,
    dx: u.dx * c.h,
    dy: u.dy * c.h,
    advance: (base + u.adv) * c.h * sx,
  };
}

/** Font 0 models are in units of the height: one unit is the cases' mean height in dots. */
const meanHeight = (cases: readonly GlyphCase[]): number => cases.reduce((s, c) => s + c.h, 0) / cases.length;

/** Fewer cases than this and a band has no rule of its own (weights 0 for glyphs it has no case of): a dozen glyphs
 * at one size fitted a rule that lowered real labels at that size (text_ft_b at 28 dots). */
const MIN_FOR_RULE = 40;

/** Every glyph the font 0 metrics measure: what family transfers may reach. */
function fontGlyphs(): number[] {
  return Object.keys(font0Metrics.glyphs).map(Number);
}

/**
 * What the search may change, chosen by the held-out tenth: per glyph the stem weights and the advance; per band
 * the weights and an offset. Offsets per glyph fitted the fit set alone (strict +0.0028 there, +0.0002 held out):
 * they are where one size's pixel grid fell, not a property of the glyph (`--params wx,wy,dx,dy,adv` fits them).
 */
const GLYPH_PARAMS: Param[] = ['wx', 'wy', 'adv'];
const RULE_PARAMS: Param[] = ['wx', 'wy', 'dx', 'dy'];

/** The fitted deltas, one line a glyph, with the strict F1 over its cases before and after. */
function reportShared(fits: SharedFit[]): SharedFit[] {
  console.log('\none refinement per glyph for all its sizes (units of the height):');
  for (const f of fits) {
    console.log(
      `${JSON.stringify(String.fromCodePoint(f.cp)).padEnd(6)} heights ${f.heights.join(',').padEnd(16)} ` +
        `wx ${f.delta.wx} wy ${f.delta.wy} dx ${f.delta.dx} dy ${f.delta.dy}  strict ${f.before.strictF1.toFixed(4)} -> ${f.after.strictF1.toFixed(4)}  ` +
        `grey error ${f.before.greyError} -> ${f.after.greyError}`,
    );
  }
  return fits;
}

function parseArgs(argv: string[]): {
  out?: string;
  fold: number;
  transfer: boolean;
  shared: boolean;
  sharedOnly: boolean;
  params: Param[];
  ruleParams: Param[];
} {
  const list = (flag: string, fallback: Param[]): Param[] => {
    const i = argv.indexOf(flag);
    return i >= 0
      ? (argv[i + 1] ?? '').split(',').filter((p): p is Param => ALL_PARAMS.includes(p as Param))
      : fallback;
  };
  return {
    out: tableFile(argv, 'font0-model.ts'),
    fold: heldOutFold(argv),
    transfer: !argv.includes('--no-transfer'),
    shared: !argv.includes('--no-shared'),
    sharedOnly: argv.includes('--shared-only'),
    params: list('--params', GLYPH_PARAMS),
    ruleParams: list('--rule-params', RULE_PARAMS),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const all = await glyphCases(true, '0', args.fold);
  const fitting = all.filter((c) => !c.heldOut);
  const fits: BandFit[] = [];
  const f4 = (n: number): string => n.toFixed(4);
  console.log(
    `fitting ${args.params.join(',')} per glyph and ${args.ruleParams.join(',')} per band to ${fitting.length} glyph cases (${all.length - fitting.length} held out)`,
  );
  let lower = 0;
  for (const top of args.sharedOnly ? [] : BAND_TOPS) {
    const inBand = fitting.filter((c) => c.h > lower && c.h <= top);
    const byCp = new Map<number, GlyphCase[]>();
    for (const c of inBand) byCp.set(c.cp, [...(byCp.get(c.cp) ?? []), c]);
    const glyphs = new Map<number, Units>();
    console.log(`\nband ${lower + 1}..${top} dots: ${inBand.length} cases, ${byCp.size} glyphs`);
    // The band's rule first: one stem weight for every glyph it shows, fitted to all of them at once.
    const rule =
      inBand.length >= MIN_FOR_RULE
        ? search(inBand, args.ruleParams, ZERO, 2)
        : { units: ZERO, before: total(inBand, ZERO), after: total(inBand, ZERO) };
    const fallback: Units = { ...rule.units };
    console.log(
      `rule for every glyph (${inBand.length} cases): weightX ${f4(fallback.wx)} weightY ${f4(fallback.wy)} dx ${f4(fallback.dx)} dy ${f4(fallback.dy)} (units of the height); ` +
        `strict ${f4(rule.before.strictF1)} -> ${f4(rule.after.strictF1)} (mean)`,
    );
    console.log('glyph  cases  strict before -> after  mismatched  weightX weightY dx dy advance (dots)');
    for (const [cp, cases] of [...byCp].sort((a, b) => a[0] - b[0])) {
      // Each glyph from the rule: it keeps an entry of its own only where that fits it better than the rule.
      const { units, after } = search(cases, args.params, fallback);
      const before = total(cases, ZERO);
      const h = cases[0]!.h;
      const own = (Object.keys(units) as Param[]).some((p) => units[p] !== fallback[p]);
      if (own) glyphs.set(cp, units);
      console.log(
        `${JSON.stringify(String.fromCodePoint(cp)).padEnd(6)} ${String(cases.length).padStart(5)}  ${f4(before.strictF1)} -> ${f4(after.strictF1)}  ${String(before.mismatched).padStart(4)} -> ${String(after.mismatched).padStart(4)}  ` +
          `${[units.wx, units.wy, units.dx, units.dy, units.adv].map((v) => (v * h).toFixed(3).padStart(6)).join(' ')}`,
      );
    }
    fits.push({ top, rule: fallback, glyphs });
    lower = top;
  }
  const known = [...new Set([...fontGlyphs(), ...all.map((c) => c.cp)])].sort((a, b) => a - b);
  const banded = args.sharedOnly ? font0Model : args.transfer ? withTransfers(fits, known) : fits.map(asBand);
  const bands = args.shared ? withShared(banded, reportShared(fitAcrossSizes(banded, fitting, candidate))) : banded;

  // The held-out glyph cases under the table just fitted (never fitted to): what a new glyph or size gains.
  const held = all.filter((c) => c.heldOut);
  let gain = 0;
  console.log(`\nheld-out glyph cases (${held.length}), strict F1 without -> with the fitted table:`);
  for (const c of held) {
    const band = bands.find((b) => c.h <= b.maxHeight)!;
    const u = modelUnits(band.glyphs[c.cp] ?? band.fallback);
    const before = scoreCandidate(c, candidate(c, ZERO)),
      after = scoreCandidate(c, candidate(c, u));
    gain += after.strictF1 - before.strictF1;
    console.log(
      `  ${c.id.split('/').pop()!.padEnd(28)} ${f4(before.strictF1)} -> ${f4(after.strictF1)}${band.glyphs[c.cp] ? '' : '  (fallback)'}`,
    );
  }
  if (held.length) console.log(`  mean change ${(gain / held.length).toFixed(4)}`);

  if (args.out) writeTable(args.out, args.fold, renderTable(bands, fitting.length, args.ruleParams, args.params));
}

function renderTable(
  bands: readonly Font0Band[],
  cases: number,
  ruleParams: readonly Param[],
  params: readonly Param[],
): string {
  // Eight entries a line, their glyphs in a comment: the table stays under the 400 lines a renderer file may have.
  const band = (b: Font0Band): string => {
    const rows = tableRows(
      Object.entries(b.glyphs).map(([cp, m]) => [cp, `[${m.join(', ')}]`]),
      8,
    );
    return `  {\n    maxHeight: ${b.maxHeight === Infinity ? 'Infinity' : b.maxHeight},\n    fallback: [${b.fallback.join(', ')}],\n    glyphs: {\n${rows.join('\n')}\n    },\n  },`;
  };
  return `// Generated by tools/font0-model/fit.ts from the legacy renderer's reference PNGs (${cases} glyph cases; the held-out
// tenth of the corpus excluded; fitted per band: ${ruleParams.join(', ')}; per glyph: ${params.join(', ')}; per glyph seen at several
// sizes, its ink edges for all of them). Do not edit by hand; rerun the tool with --write. Per size band of font 0
// (height in dots up to \`maxHeight\`) and per code point, in units of the height: the stem weight added across x
// and along y, the placement offset, and the pen advance where the band's differs from the measured box's.

/** [weightX, weightY, dx, dy, advance] in units of the font height (see GlyphAdjustment); advance: added to the box's. */
export type GlyphModel = readonly [number, number, number, number, number?];

export interface Font0Band {
  maxHeight: number;
  /** For glyphs the band does not list: one stem weight fitted to every glyph case of the band at once. */
  fallback: GlyphModel;
  glyphs: Readonly<Record<number, GlyphModel>>;
}

export const font0Model: readonly Font0Band[] = [
${bands.map(band).join('\n')}
];
`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
