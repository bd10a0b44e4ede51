// The cross-validation's arithmetic (bench/cross-validate.ts runs the folds): each case scored twice, by the tables
// fitted with its fold held out (unseen) and by the committed tables (fold 0 held out; fitted, for every other
// fold), and the means per fold. Plain data in and out, so that it is tested without refitting anything.

import { foldOf, HELD_OUT_MODULUS } from './holdout.js';

/** What the cross-validation reads of a fidelity score (`npm run fidelity -- --json`'s cases). */
export interface FoldScore {
  id: string;
  f1: number;
  strictF1: number;
  identical: boolean;
}

export interface FoldLine {
  /** A fold, or null for a line over several. */
  fold: number | null;
  cases: number;
  /** Mean strict F1 under the committed tables, and under tables fitted without these cases. */
  strictFitted: number;
  strictUnseen: number;
  /** The same for the 1-px F1. */
  nearFitted: number;
  nearUnseen: number;
  identicalFitted: number;
  identicalUnseen: number;
  /** Mean strict F1 change from the baseline (an earlier build's scores), fitted and unseen; null without one. */
  sinceBaselineFitted: number | null;
  sinceBaselineUnseen: number | null;
}

/** A named part of the corpus, by case id (the glyph fixtures, say). */
export interface CaseKind {
  name: string;
  test(id: string): boolean;
}

export interface CrossValidation {
  folds: FoldLine[];
  /** Folds 1-9: what the committed tables fitted, unseen and fitted. */
  fitted: FoldLine;
  /** Folds 1-9 again, one line for each kind of case asked for. */
  kinds: (FoldLine & { kind: string })[];
  /** Every case, each scored by the tables that did not see it: the corpus as new labels would score. */
  all: FoldLine;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

function line(
  fold: number | null,
  ids: readonly string[],
  committed: ReadonlyMap<string, FoldScore>,
  unseen: ReadonlyMap<string, FoldScore>,
  baseline: ReadonlyMap<string, FoldScore> | null,
): FoldLine {
  const of = (m: ReadonlyMap<string, FoldScore>, id: string): FoldScore => {
    const s = m.get(id);
    if (!s) throw new Error(`${id}: no score`);
    return s;
  };
  const since = (m: ReadonlyMap<string, FoldScore>): number | null =>
    baseline && mean(ids.map((id) => of(m, id).strictF1 - of(baseline, id).strictF1));
  return {
    fold,
    cases: ids.length,
    strictFitted: mean(ids.map((id) => of(committed, id).strictF1)),
    strictUnseen: mean(ids.map((id) => of(unseen, id).strictF1)),
    nearFitted: mean(ids.map((id) => of(committed, id).f1)),
    nearUnseen: mean(ids.map((id) => of(unseen, id).f1)),
    identicalFitted: ids.filter((id) => of(committed, id).identical).length,
    identicalUnseen: ids.filter((id) => of(unseen, id).identical).length,
    sinceBaselineFitted: since(committed),
    sinceBaselineUnseen: since(unseen),
  };
}

/**
 * `runs` holds the scores of every case under the tables fitted with fold k held out, for each fold k run; fold 0's
 * are the committed tables'. Cases of folds not run are left out of every line.
 */
export function crossValidation(
  runs: ReadonlyMap<number, readonly FoldScore[]>,
  baseline?: readonly FoldScore[],
  kinds: readonly CaseKind[] = [],
): CrossValidation {
  const committedRun = runs.get(0);
  if (!committedRun) throw new Error('fold 0 (the committed tables) must be run: it scores every other fold as fitted');
  const committed = new Map(committedRun.map((s) => [s.id, s]));
  const base = baseline ? new Map(baseline.map((s) => [s.id, s])) : null;
  const unseen = new Map<string, FoldScore>();
  const byFold = new Map<number, string[]>();
  for (const [fold, scores] of runs) {
    for (const s of scores) {
      if (foldOf(s.id) !== fold) continue;
      unseen.set(s.id, s);
      byFold.set(fold, [...(byFold.get(fold) ?? []), s.id]);
    }
  }
  const folds = [...Array(HELD_OUT_MODULUS).keys()]
    .filter((k) => byFold.has(k))
    .map((k) => line(k, byFold.get(k)!, committed, unseen, base));
  const ids = (ks: readonly number[]): string[] => ks.flatMap((k) => byFold.get(k) ?? []);
  const others = [...byFold.keys()].filter((k) => k !== 0);
  const kindLines = kinds.map((k) => ({
    kind: k.name,
    ...line(
      null,
      ids(others).filter((id) => k.test(id)),
      committed,
      unseen,
      base,
    ),
  }));
  return {
    folds,
    fitted: line(null, ids(others), committed, unseen, base),
    kinds: kindLines,
    all: line(null, ids([...byFold.keys()]), committed, unseen, base),
  };
}
