// The fidelity ratchet: every corpus case is rendered and scored as `npm run fidelity` does, and every
// group's mean F1, strict F1 and count of pixel-identical labels, and every case's F1, must stay at or above
// corpus/fidelity-floors.json. A rendering change
// that costs fidelity fails here; one that gains it raises the floors in a commit of its own.

import { expect } from 'chai';
import { loadCorpus } from '../bench/corpus.js';
import { floorsBroken, readFloors, type FidelityFloors } from '../bench/fidelity-floors.js';
import { scoreCase, scoredCases, summarizeScores, type CaseScore, type GroupScore } from '../bench/fidelity-score.js';

describe('fidelity ratchet (corpus/fidelity-floors.json)', function () {
  // Rendering and decoding 524 labels: about 25 s of CPU; no wall-clock bound, so a busy machine only waits.
  this.timeout(0);
  let floors: FidelityFloors;
  let scores: CaseScore[];
  let groups: GroupScore[];

  before(async () => {
    floors = readFloors();
    const corpus = loadCorpus();
    scores = [];
    for (const c of scoredCases(corpus)) scores.push(await scoreCase(corpus, c));
    const summary = summarizeScores(scores);
    groups = [...summary.groups, summary.all];
  });

  it('has a floor for every scored case and every group', () => {
    expect(
      scores.filter((s) => floors.cases[s.id] === undefined).map((s) => s.id),
      'cases without a floor',
    ).to.deep.equal([]);
    expect(
      groups.filter((g) => floors.groups[g.group] === undefined).map((g) => g.group),
      'groups without a floor',
    ).to.deep.equal([]);
    expect(
      groups.filter((g) => floors.strict?.[g.group] === undefined).map((g) => g.group),
      'groups without a strict floor',
    ).to.deep.equal([]);
    expect(
      groups.filter((g) => floors.identical?.[g.group] === undefined).map((g) => g.group),
      'groups without an identical-count floor',
    ).to.deep.equal([]);
  });

  it('renders every case without failing and at the reference size', () => {
    expect(scores.filter((s) => s.note).map((s) => `${s.id}: ${s.note}`)).to.deep.equal([]);
  });

  it('keeps every group mean and every case at or above its floor', () => {
    expect(floorsBroken(floors, scores, groups)).to.deep.equal([]);
  });
});

describe('fidelity floors', () => {
  const score = (id: string, f1: number): CaseScore => ({
    id,
    group: 'text',
    f1,
    strictF1: f1,
    identical: f1 === 1,
    ms: 1,
  });
  const group = (name: string, meanF1: number, meanStrictF1 = meanF1, identical = 0): GroupScore => ({
    group: name,
    cases: 1,
    meanF1,
    minF1: meanF1,
    meanStrictF1,
    identical,
  });

  it('sets floors at the score minus the margin, rounded down, and never lowers one', async () => {
    const { raiseFloors } = await import('../bench/fidelity-floors.js');
    const first = raiseFloors(undefined, [score('a', 0.99555), score('b', 0.001)], [group('text', 0.9)]);
    expect(first.cases).to.deep.equal({ a: 0.9935, b: 0 });
    expect(first.groups).to.deep.equal({ text: 0.898 });
    const after = raiseFloors(first, [score('a', 0.5), score('b', 1)], [group('text', 0.95)]);
    expect(after.cases).to.deep.equal({ a: 0.9935, b: 0.998 });
    expect(after.groups).to.deep.equal({ text: 0.948 });
  });

  it("floors the strict F1 with the margin and the identical count at today's count, and never lowers either", async () => {
    const { raiseFloors } = await import('../bench/fidelity-floors.js');
    const first = raiseFloors(undefined, [], [group('text', 0.99, 0.95, 7)]);
    expect(first.strict).to.deep.equal({ text: 0.948 });
    expect(first.identical).to.deep.equal({ text: 7 });
    const after = raiseFloors(first, [], [group('text', 0.99, 0.9, 3)]);
    expect(after.strict).to.deep.equal({ text: 0.948 });
    expect(after.identical).to.deep.equal({ text: 7 });
    const higher = raiseFloors(after, [], [group('text', 0.99, 0.97, 9)]);
    expect(higher.strict).to.deep.equal({ text: 0.968 });
    expect(higher.identical).to.deep.equal({ text: 9 });
  });

  it('reports a group whose strict F1 or count of identical labels fell below its floor', () => {
    const floors: FidelityFloors = {
      about: '',
      margin: 0.002,
      groups: { text: 0.9 },
      strict: { text: 0.95 },
      identical: { text: 5, all: 5 },
      cases: {},
    };
    expect(floorsBroken(floors, [], [group('text', 0.9, 0.95, 5), group('all', 0.9, 0.95, 5)])).to.deep.equal([]);
    expect(floorsBroken(floors, [], [group('text', 0.9, 0.9499, 4)])).to.deep.equal([
      'group text strict F1: 0.9499 < floor 0.95',
      'group text identical labels: 4 < floor 5',
      'group all identical labels: not scored (floor 5)',
    ]);
  });

  it('reports a case or group below its floor, and a floored case that was not scored', () => {
    const floors: FidelityFloors = { about: '', margin: 0.002, groups: { text: 0.9 }, cases: { a: 0.99, gone: 0.5 } };
    expect(floorsBroken(floors, [score('a', 0.98999)], [group('text', 0.9)])).to.deep.equal([
      'a: 0.9900 < floor 0.99',
      'gone: not scored (floor 0.5)',
    ]);
    expect(floorsBroken(floors, [score('a', 0.99), score('gone', 0.5)], [group('text', 0.8999)])).to.deep.equal([
      'group text mean F1: 0.8999 < floor 0.9',
    ]);
  });
});
