import { expect } from 'chai';
import { crossValidation, type FoldScore } from '../bench/cross-validation.js';
import { crossValidationMark, foldOf, heldOutFold, isHeldOut } from '../bench/holdout.js';

/** Case ids in each of the folds asked for, two a fold, found by the hash as the corpus's are. */
function idsIn(folds: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>(folds.map((k) => [k, []]));
  for (let i = 0; [...out.values()].some((ids) => ids.length < 2); i++) {
    const id = `case/${i}`;
    const ids = out.get(foldOf(id));
    if (ids && ids.length < 2) ids.push(id);
  }
  return out;
}

const score = (id: string, strictF1: number, identical = false): FoldScore => ({
  id,
  f1: strictF1 + 0.04,
  strictF1,
  identical,
});

describe('cross-validation (bench/cross-validation.ts, bench/holdout.ts)', () => {
  const ids = idsIn([0, 1, 2]);
  const all = [...ids.values()].flat();
  // Fold 0's run is the committed tables: every case at 0.95 (one identical); fold k's run scores its own cases.
  const runs = new Map<number, FoldScore[]>([
    [0, all.map((id, i) => score(id, 0.95, i === 2))],
    [1, all.map((id) => score(id, foldOf(id) === 1 ? 0.9 : 0.1))],
    [2, all.map((id) => score(id, foldOf(id) === 2 ? 0.93 : 0.1))],
  ]);

  it("reads each case unseen from its own fold's run and fitted from fold 0's", () => {
    const cv = crossValidation(runs);
    expect(cv.folds.map((l) => [l.fold, l.cases, l.strictFitted, l.strictUnseen])).to.deep.equal([
      [0, 2, 0.95, 0.95],
      [1, 2, 0.95, 0.9],
      [2, 2, 0.95, 0.93],
    ]);
    expect(cv.fitted.cases).to.equal(4);
    expect(cv.fitted.strictUnseen).to.be.closeTo(0.915, 1e-12);
    expect(cv.all.strictUnseen).to.be.closeTo((0.95 + 0.9 + 0.93) / 3, 1e-12);
    expect(cv.all.nearFitted).to.be.closeTo(0.99, 1e-12);
    // all[2] is fold 1's first case: identical under the committed tables, not under its own fold's.
    expect([cv.folds[1]!.identicalFitted, cv.folds[1]!.identicalUnseen]).to.deep.equal([1, 0]);
    expect(cv.all.identicalFitted).to.equal(1);
    expect(cv.all.sinceBaselineFitted).to.equal(null);
  });

  it('gives the change since a baseline, fitted and unseen', () => {
    const cv = crossValidation(
      runs,
      all.map((id) => score(id, 0.9)),
    );
    expect(cv.fitted.sinceBaselineFitted).to.be.closeTo(0.05, 1e-12);
    expect(cv.fitted.sinceBaselineUnseen).to.be.closeTo(0.015, 1e-12);
    expect(cv.folds[0]!.sinceBaselineUnseen).to.be.closeTo(0.05, 1e-12);
  });

  it('splits folds 1-9 by kind of case, as asked', () => {
    const first = new Set([...ids.values()].map((list) => list[0]!));
    const cv = crossValidation(runs, undefined, [
      { name: 'first', test: (id) => first.has(id) },
      { name: 'none', test: () => false },
    ]);
    expect(cv.kinds.map((k) => [k.kind, k.cases])).to.deep.equal([
      ['first', 2],
      ['none', 0],
    ]);
    expect(cv.kinds[0]!.strictUnseen).to.be.closeTo((0.9 + 0.93) / 2, 1e-12);
  });

  it('needs fold 0, and a score for every case of every fold run', () => {
    expect(() => crossValidation(new Map([[1, runs.get(1)!]]))).to.throw(/fold 0/);
    const unfitted = ids.get(1)![0]!;
    expect(() =>
      crossValidation(
        new Map([
          [0, runs.get(0)!.filter((s) => s.id !== unfitted)],
          [1, runs.get(1)!],
        ]),
      ),
    ).to.throw(/no score/);
  });

  it('splits the corpus into ten folds, fold 0 being the held-out tenth; tools take --fold 0-9', () => {
    const folds = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const id = `case/${i}`;
      folds.add(foldOf(id));
      expect(isHeldOut(id)).to.equal(foldOf(id) === 0);
    }
    expect([...folds].sort()).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(heldOutFold(['--write'])).to.equal(0);
    expect(heldOutFold(['--fold', '7', '--write'])).to.equal(7);
    expect(() => heldOutFold(['--fold', '10'])).to.throw(/0 to 9/);
    expect(() => heldOutFold(['--fold'])).to.throw(/0 to 9/);
    expect(crossValidationMark(0)).to.equal('');
    expect(crossValidationMark(3)).to.match(/fold 3 held out.*Never commit it/);
  });
});
