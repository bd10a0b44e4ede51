// The coordinate search both model fitters run: candidates scored by score.ts, summed over the cases of one glyph
// (or of a band), never lowering any case's 1-px F1 below the unadjusted glyph's.

import { better, scoreCandidate, type Candidate, type Fit } from './score.js';
import type { GlyphModel } from '../../renderer/fonts/font0-model.js';
import type { GlyphCase } from './cases.js';

export type Param = 'wx' | 'wy' | 'dx' | 'dy' | 'adv';
export const ALL_PARAMS: Param[] = ['wx', 'wy', 'dx', 'dy', 'adv'];

/** Search range and step of each parameter, in dots at the case's size: steps that move an edge 1/64 dot, the glyph rasterizer's grid. */
const RANGE: Record<Param, { min: number; max: number; step: number }> = {
  wx: { min: -1.5, max: 2.5, step: 1 / 32 },
  wy: { min: -1.5, max: 2.5, step: 1 / 32 },
  dx: { min: -1, max: 1, step: 1 / 64 },
  dy: { min: -1, max: 1, step: 1 / 64 },
  adv: { min: -2, max: 2, step: 1 / 8 },
};

/** A model entry in the model's units: weights, offset and the advance's change. */
export interface Units {
  wx: number;
  wy: number;
  dx: number;
  dy: number;
  adv: number;
}
export const ZERO: Units = { wx: 0, wy: 0, dx: 0, dy: 0, adv: 0 };

/** Four decimals: the tables' precision (0.005 dots at 50 dots of font 0). */
export const r4 = (n: number): number => Math.round(n * 1e4) / 1e4;

/** A font 0 table entry as units, and back (four decimals; the advance only where it changes the box's). */
export const modelUnits = (m: GlyphModel): Units => ({ wx: m[0], wy: m[1], dx: m[2], dy: m[3], adv: m[4] ?? 0 });
export const asModel = (u: Units): GlyphModel =>
  u.adv ? [r4(u.wx), r4(u.wy), r4(u.dx), r4(u.dy), r4(u.adv)] : [r4(u.wx), r4(u.wy), r4(u.dx), r4(u.dy)];

/** How a model turns its units into a candidate for one case. */
export type CandidateOf = (c: GlyphCase, u: Units) => Candidate;

/** The fits of several cases (one glyph at several sizes, or a whole band), summed; F1s averaged. */
interface Total extends Fit {
  /** Each case's 1-px F1, in the order of the cases. */
  nearF1s: number[];
}

export function total(cases: readonly GlyphCase[], u: Units, candidate: CandidateOf): Total {
  const sum: Total = { mismatched: 0, nearF1: 0, both: 0, greyError: 0, strictF1: 0, nearF1s: [] };
  for (const c of cases) {
    const f = scoreCandidate(c, candidate(c, u));
    sum.mismatched += f.mismatched;
    sum.both += f.both;
    sum.greyError += f.greyError;
    sum.strictF1 += f.strictF1 / cases.length;
    sum.nearF1 += f.nearF1 / cases.length;
    sum.nearF1s.push(f.nearF1);
  }
  return sum;
}

/** Whether no case's 1-px F1 is below the unadjusted glyph's. */
const keepsNearF1 = (t: Total, unadjusted: Total): boolean =>
  t.nearF1s.every((f, i) => f >= unadjusted.nearF1s[i]! - 1e-12);

/**
 * Coordinate search from `start`: each parameter in turn over its whole range (dots, divided by `unit`: the dots
 * one unit of the model is at these cases), until a round changes nothing; no candidate may lower any case's 1-px
 * F1 below the unadjusted glyph's. Under that rule no font 0 band has found a weight or offset for all its glyphs
 * (each one lowers some glyph's 1-px F1); with only the mean kept, the rule at 50 dots gained the fit set +0.0016
 * and the held-out tenth nothing, and broke a floor.
 */
export function search(
  cases: readonly GlyphCase[],
  params: readonly Param[],
  start: Units,
  candidate: CandidateOf,
  unit: number,
  rounds = 4,
): { units: Units; before: Fit; after: Fit } {
  const unadjusted = total(cases, ZERO, candidate);
  let best = { ...start };
  const before = total(cases, best, candidate);
  let bestFit = keepsNearF1(before, unadjusted) ? before : unadjusted;
  if (bestFit === unadjusted) best = { ...ZERO };
  for (let round = 0; round < rounds; round++) {
    let changed = false;
    for (const p of params) {
      if (p === 'adv' && cases.every((c) => c.copies < 2)) continue;
      const { min, max, step } = RANGE[p];
      for (let v = min; v <= max + 1e-9; v += step) {
        // Rounded as the table is written: what is fitted is what the renderer draws.
        const trial = { ...best, [p]: r4(v / unit) };
        if (trial[p] === best[p]) continue;
        const f = total(cases, trial, candidate);
        if (keepsNearF1(f, unadjusted) && better(f, bestFit)) {
          best = trial;
          bestFit = f;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { units: best, before, after: bestFit };
}
