// One refinement per glyph for every size at once: a glyph the fit set shows at two heights or more gets a stem
// weight and offset (units of the height) added to its entry in every band: its four ink edges moved, searched over
// all its cases together. A per-band offset is where one size's pixel grid fell; one that holds at 20, 30, 50 and
// 80 dots is where the legacy font's edges are (for - and = it made h30_minus, h80_minus, h30_eq and h50_eq
// pixel-identical; for . no move holds at every size).

import type { Font0Band, GlyphModel } from '../../renderer/fonts/font0-model.js';
import type { GlyphCase } from './cases.js';
import { better } from './score.js';
import { glyphModel } from '../../renderer/fonts/font0.js';
import { asModel, modelUnits, r4, total, type CandidateOf, type Units } from './search.js';

/**
 * Each ink edge moves on its own (left, right, top, bottom), in steps of two of the table's units (so the weight and
 * offset they make stay on the table's four decimals: 1/64 dot at 80 dots); a quarter dot at 80 dots either way.
 */
const STEP = 0.0002;
const REACH = 16;
type Edge = 'left' | 'right' | 'top' | 'bottom';
const EDGES: readonly Edge[] = ['left', 'right', 'top', 'bottom'];
type Edges = Record<Edge, number>;

/** Edge moves as the model's weight (the edges' spread) and offset (their middle). */
const asUnits = (e: Edges): Units => ({
  wx: r4(e.right - e.left),
  dx: r4((e.left + e.right) / 2),
  wy: r4(e.top - e.bottom),
  dy: r4((e.top + e.bottom) / 2),
  adv: 0,
});

export interface SharedFit {
  cp: number;
  heights: number[];
  delta: Units;
  before: ReturnType<typeof total>;
  after: ReturnType<typeof total>;
}

const plus = (a: Units, d: Units): Units => ({
  wx: r4(a.wx + d.wx),
  wy: r4(a.wy + d.wy),
  dx: r4(a.dx + d.dx),
  dy: r4(a.dy + d.dy),
  adv: a.adv,
});

/**
 * For each glyph with cases at two heights or more: a coordinate search of the shared delta, never lowering any
 * case's 1-px F1 below what the bands alone give it, kept where it fits the cases better (fewer mismatched ink
 * pixels, then a smaller grey error).
 */
export function fitAcrossSizes(
  bands: readonly Font0Band[],
  cases: readonly GlyphCase[],
  candidate: CandidateOf,
): SharedFit[] {
  const byCp = new Map<number, GlyphCase[]>();
  for (const c of cases) byCp.set(c.cp, [...(byCp.get(c.cp) ?? []), c]);
  const fits: SharedFit[] = [];
  for (const [cp, cs] of [...byCp].sort((a, b) => a[0] - b[0])) {
    const heights = [...new Set(cs.map((c) => c.h))].sort((a, b) => a - b);
    if (heights.length < 2) continue;
    // The glyph's entry at the case's size, as the renderer looks it up.
    const own = (c: GlyphCase): Units => modelUnits(glyphModel(cp, c.h, bands)!);
    const shared: CandidateOf = (c, d) => candidate(c, plus(own(c), d));
    const none: Edges = { left: 0, right: 0, top: 0, bottom: 0 };
    const before = total(cs, asUnits(none), shared);
    const keeps = (t: ReturnType<typeof total>) => t.nearF1s.every((f, i) => f >= before.nearF1s[i]! - 1e-12);
    let best = none,
      bestFit = before;
    for (let round = 0; round < 3; round++) {
      let changed = false;
      for (const e of EDGES) {
        for (let k = -REACH; k <= REACH; k++) {
          const trial = { ...best, [e]: r4(k * STEP) };
          if (trial[e] === best[e]) continue;
          const f = total(cs, asUnits(trial), shared);
          if (keeps(f) && better(f, bestFit)) {
            best = trial;
            bestFit = f;
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
    fits.push({ cp, heights, delta: asUnits(best), before, after: bestFit });
  }
  return fits;
}

/** The bands with each shared delta added to the glyph's entry (its own, or the band's fallback) in every band. */
export function withShared(bands: readonly Font0Band[], fits: readonly SharedFit[]): Font0Band[] {
  return bands.map((band) => {
    const glyphs: Record<number, GlyphModel> = { ...band.glyphs };
    for (const f of fits) {
      if (!f.delta.wx && !f.delta.wy && !f.delta.dx && !f.delta.dy) continue;
      glyphs[f.cp] = asModel(plus(modelUnits(band.glyphs[f.cp] ?? band.fallback), f.delta));
    }
    return { ...band, glyphs };
  });
}
