// The fidelity ratchet: corpus/fidelity-floors.json holds a floor for every group's mean F1 and every case's
// F1, and for the strict line: every group's mean strict F1 and its count of pixel-identical labels; the test
// fails when a score falls below its floor. Floors only rise (`npm run fidelity -- --raise-floors`),
// and raising them is a commit of its own.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR } from './corpus.js';
import type { CaseScore, GroupScore } from './fidelity-score.js';

export const FLOORS_FILE = join(CORPUS_DIR, 'fidelity-floors.json');

/** How far below today's score a new floor is set: room for harmless drift, not for regressions. */
export const FLOOR_MARGIN = 0.002;

export interface FidelityFloors {
  about: string;
  margin: number;
  /** Mean F1 per group, and `all` over every case. */
  groups: Record<string, number>;
  /** Mean strict F1 (no tolerance) per group and `all`; floored with the same margin. */
  strict?: Record<string, number>;
  /** Pixel-identical labels per group and `all`: counts, so their floors are today's counts, with no margin. */
  identical?: Record<string, number>;
  cases: Record<string, number>;
}

const ABOUT =
  'Fidelity ratchet (test/fidelity-ratchet.test.ts): each score must stay at or above its floor. ' +
  'Floors are scores minus the margin, rounded down to 4 decimals, and only ever rise: after a fidelity gain run ' +
  '`npm run fidelity -- --raise-floors` and commit this file on its own.';

export function readFloors(file: string = FLOORS_FILE): FidelityFloors {
  return JSON.parse(readFileSync(file, 'utf8')) as FidelityFloors;
}

const floorOf = (score: number): number => Math.max(0, Math.floor((score - FLOOR_MARGIN) * 1e4) / 1e4);

/** Floors for these scores, never below the old ones. */
export function raiseFloors(
  old: FidelityFloors | undefined,
  scores: CaseScore[],
  groups: GroupScore[],
): FidelityFloors {
  const raise = (previous: number | undefined, score: number): number => Math.max(previous ?? 0, floorOf(score));
  return {
    about: ABOUT,
    margin: FLOOR_MARGIN,
    groups: Object.fromEntries(groups.map((g) => [g.group, raise(old?.groups[g.group], g.meanF1)])),
    strict: Object.fromEntries(groups.map((g) => [g.group, raise(old?.strict?.[g.group], g.meanStrictF1)])),
    identical: Object.fromEntries(groups.map((g) => [g.group, Math.max(old?.identical?.[g.group] ?? 0, g.identical)])),
    cases: Object.fromEntries(scores.map((s) => [s.id, raise(old?.cases[s.id], s.f1)])),
  };
}

export function writeFloors(floors: FidelityFloors, file: string = FLOORS_FILE): void {
  writeFileSync(file, JSON.stringify(floors, null, 1) + '\n');
}

/** Every score below its floor, as `what: score < floor`; a floored case or group that was not scored is one too. */
export function floorsBroken(floors: FidelityFloors, scores: CaseScore[], groups: GroupScore[]): string[] {
  const broken: string[] = [];
  const check = (what: string, score: number | undefined, floor: number): void => {
    if (score === undefined) broken.push(`${what}: not scored (floor ${floor})`);
    else if (!(score >= floor)) broken.push(`${what}: ${score.toFixed(4)} < floor ${floor}`);
  };
  const byGroup = new Map(groups.map((g) => [g.group, g]));
  const byCase = new Map(scores.map((s) => [s.id, s.f1]));
  for (const [group, floor] of Object.entries(floors.groups))
    check(`group ${group} mean F1`, byGroup.get(group)?.meanF1, floor);
  for (const [group, floor] of Object.entries(floors.strict ?? {}))
    check(`group ${group} strict F1`, byGroup.get(group)?.meanStrictF1, floor);
  for (const [group, floor] of Object.entries(floors.identical ?? {})) {
    const count = byGroup.get(group)?.identical;
    if (count === undefined) broken.push(`group ${group} identical labels: not scored (floor ${floor})`);
    else if (count < floor) broken.push(`group ${group} identical labels: ${count} < floor ${floor}`);
  }
  for (const [id, floor] of Object.entries(floors.cases)) check(id, byCase.get(id), floor);
  return broken;
}
