// `node dist/tools/font0-model/fit-runs.js [--manifest FILE] [--out FILE] [--write] [--fold K]`: fits font 0's pen
// advances to runs of text (renderer/fonts/font0-run-advances.ts). The boxes' advances come from three copies of a
// glyph at 50 dots, each pen a whole dot: an advance known to about a hundredth of the height, so five glyphs at 28
// dots can end a dot off (GOGREEN at 28 dots: O, the second G and both Es stood a dot off the legacy pens). Every
// label of the corpus that draws font 0 (held-out tenth excluded) is rendered whole and scored strictly (ink F1 with
// no tolerance); per size band and glyph, a coordinate search over steps of STEPS keeps an advance that raises the
// sum of the scores of the labels drawing that glyph at that band, and only where more of them rise than fall and at
// least SUPPORT rise: one label is where a pixel grid fell, two agreeing are a glyph's advance. Starts from no
// changes, so the table depends on the references and the other tables alone; prints every move.
// Run after fit.js: the run advances sit on the model's.

import { loadCorpus, readCorpusFile, type CorpusCase } from '../../bench/corpus.js';
import { foldOf, heldOutFold } from '../../bench/holdout.js';
import { cropTopLeft } from '../../compare/ink-f1.js';
import { decodeGreyPng } from '../../compare/png.js';
import { advanceLetter } from '../../renderer/fonts/font0.js';
import { font0Model } from '../../renderer/fonts/font0-model.js';
import { forgetBuiltinFaces } from '../../renderer/fonts/resolve.js';
import { font0RunAdvances, type Font0RunBand } from '../../renderer/fonts/font0-run-advances.js';
import { openDocument } from '../../renderer/layout/document.js';
import { layout } from '../../renderer/layout/inspect.js';
import { paintRows } from '../../renderer/raster/paint.js';
import { settle } from '../../renderer/raster/row-order.js';
import { r4 } from './search.js';
import { tableFile, writeTable } from './table-file.js';
import { tableRows } from './table-rows.js';

/** Advance steps in units of the height, coarse first: 0.01 is half a dot at 50 dots, the boxes' uncertainty. */
const STEPS = [0.01, 0.005];
/** Labels that must rise with a move. */
const SUPPORT = 2;

/** One label that draws font 0: its ZPL, its reference's ink, and the (band, glyph) keys it draws. */
interface RunLabel {
  id: string;
  zpl: Buffer;
  request: { dpmm: CorpusCase['dpmm']; widthIn: number; heightIn: number; index: number };
  refInk: Uint8Array;
  refCount: number;
  width: number;
  height: number;
  keys: Set<string>;
}

const keyOf = (band: number, cp: number): string => `${band}:${cp}`;

/** The bands of the run table: the glyph model's. */
const bandTops = (): number[] => font0Model.map((b) => b.maxHeight);

async function runLabels(manifest: string | undefined, fold: number): Promise<RunLabel[]> {
  const corpus = loadCorpus(manifest);
  const tops = bandTops();
  const out: RunLabel[] = [];
  for (const c of corpus.cases) {
    if (!c.png || foldOf(c.id) === fold) continue;
    const zpl = readCorpusFile(corpus, c.zpl);
    const request = { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 };
    let elements: ReturnType<typeof layout>['elements'];
    try {
      elements = layout(zpl, request).elements;
    } catch {
      continue;
    }
    const keys = new Set<string>();
    for (const e of elements) {
      if (e.kind !== 'glyphRun' || !e.font.startsWith('0:')) continue;
      const band = tops.findIndex((top) => Number(e.font.split(':')[1]) <= top);
      // A glyph is keyed by the letter whose advance it takes (ń by n), so that a move of n rescores labels drawing ń.
      for (const g of e.glyphs) keys.add(keyOf(band, advanceLetter(g.cp)));
    }
    if (!keys.size) continue;
    const ref = cropTopLeft(await decodeGreyPng(readCorpusFile(corpus, c.png)), c.referenceCrop);
    const refInk = new Uint8Array(ref.grey.length);
    let refCount = 0;
    for (let i = 0; i < refInk.length; i++) refCount += refInk[i] = ref.grey[i]! < 128 ? 1 : 0;
    out.push({ id: c.id, zpl, request, refInk, refCount, width: ref.width, height: ref.height, keys });
  }
  return out;
}

/** Strict ink F1 of the label as the renderer draws it now (0 when the sizes differ): scoreInk's strict F1 without its
 * 1-px dilations, which this search would pay thousands of times. */
function strictScore(l: RunLabel): number {
  const doc = openDocument(l.zpl, { ...l.request, output: 'raster' });
  const { raster, order } = paintRows(doc.label(l.request.index));
  const r = settle(raster, order);
  if (r.width !== l.width || r.height !== l.height) return 0;
  let both = 0,
    got = 0;
  for (let i = 0; i < r.ink.length; i++)
    if (r.ink[i]! > 127) {
      got++;
      both += l.refInk[i]!;
    }
  return l.refCount + got ? (2 * both) / (l.refCount + got) : 1;
}

/**
 * The table the renderer reads, emptied and then changed in place as the search moves: labels are rendered whole,
 * through the same face the service uses. The tool's process owns it; nothing else runs here.
 */
function editableTable(): Record<number, number>[] {
  const table = font0RunAdvances as Font0RunBand[];
  table.splice(0, table.length, ...bandTops().map((maxHeight) => ({ maxHeight, advances: {} })));
  return table.map((b) => b.advances as Record<number, number>);
}

function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  return fit(option('--manifest'), tableFile(args, 'font0-run-advances.ts'), heldOutFold(args));
}

async function fit(manifest: string | undefined, out: string | undefined, fold: number): Promise<void> {
  const advances = editableTable();
  const labels = await runLabels(manifest, fold);
  const byKey = new Map<string, RunLabel[]>();
  for (const l of labels) for (const k of l.keys) byKey.set(k, [...(byKey.get(k) ?? []), l]);
  const scores = new Map(labels.map((l) => [l.id, strictScore(l)]));
  const mean = (): number => labels.reduce((s, l) => s + scores.get(l.id)!, 0) / Math.max(1, labels.length);
  const tops = bandTops();
  console.log(
    `${labels.length} labels draw font 0 (${fold ? `fold ${fold}` : 'held-out tenth'} excluded); strict F1 ${mean().toFixed(5)} (mean)`,
  );
  // Glyphs drawn by the most labels first; ties in key order, so a rerun moves the same way.
  const keys = [...byKey.keys()].sort((a, b) => byKey.get(b)!.length - byKey.get(a)!.length || (a < b ? -1 : 1));
  for (const step of STEPS) {
    let moved = 0;
    for (const key of keys) {
      const [band, cp] = key.split(':').map(Number) as [number, number];
      const group = byKey.get(key)!;
      const now = advances[band]![cp] ?? 0;
      const sum = (s: ReadonlyMap<string, number>): number => group.reduce((t, l) => t + s.get(l.id)!, 0);
      let best = {
        total: sum(scores),
        advance: now,
        scores: undefined as Map<string, number> | undefined,
        up: 0,
        down: 0,
      };
      for (const advance of [r4(now - step), r4(now + step)]) {
        advances[band]![cp] = advance;
        forgetBuiltinFaces(); // faces keep the advances they worked out
        const tried = new Map(group.map((l) => [l.id, strictScore(l)]));
        const up = group.filter((l) => tried.get(l.id)! > scores.get(l.id)! + 1e-9).length;
        const down = group.filter((l) => tried.get(l.id)! < scores.get(l.id)! - 1e-9).length;
        const total = sum(tried);
        if (total > best.total + 1e-6 && up >= SUPPORT && up > down) best = { total, advance, scores: tried, up, down };
      }
      if (best.advance) advances[band]![cp] = best.advance;
      else delete advances[band]![cp];
      forgetBuiltinFaces();
      if (!best.scores) continue;
      for (const [id, s] of best.scores) scores.set(id, s);
      moved++;
      console.log(
        `${JSON.stringify(String.fromCodePoint(cp)).padEnd(6)} heights <= ${String(tops[band]).padEnd(8)} advance ${now.toFixed(4)} -> ${best.advance.toFixed(4)}  ` +
          `${best.up} of ${group.length} labels rise, ${best.down} fall`,
      );
    }
    console.log(`step ${step}: ${moved} moves; strict F1 ${mean().toFixed(5)} (mean)`);
  }
  if (out) writeTable(out, fold, renderTable(tops, advances, labels.length));
}

function renderTable(tops: readonly number[], advances: readonly Record<number, number>[], labels: number): string {
  const band = (top: number, a: Record<number, number>): string => {
    const rows = tableRows(
      Object.entries(a)
        .sort((x, y) => Number(x[0]) - Number(y[0]))
        .map(([cp, v]) => [cp, String(v)]),
      10,
    );
    return `  {\n    maxHeight: ${top === Infinity ? 'Infinity' : top},\n    advances: {${rows.length ? `\n${rows.join('\n')}\n    ` : ''}},\n  },`;
  };
  return `// Generated by tools/font0-model/fit-runs.ts from the legacy renderer's reference PNGs (${labels} labels drawing font 0;
// the held-out tenth excluded). Do not edit by hand; rerun the tool with --write.

/** Per size band of font 0 (height in dots up to \`maxHeight\`): pen advances added to the model's, in units of the height. */
export interface Font0RunBand {
  maxHeight: number;
  advances: Readonly<Record<number, number>>;
}

export const font0RunAdvances: readonly Font0RunBand[] = [
${tops.map((t, i) => band(t, advances[i]!)).join('\n')}
];
`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
