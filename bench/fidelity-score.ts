// Fidelity of the renderer against the legacy service's PNGs: every case rendered in process and scored
// with the shadow comparison's ink F1 (compare/ink-f1.ts). Shared by `npm run fidelity` and the ratchet test.

import { cropTopLeft, inkDiffRgba, scoreInk, type InkScore } from '../compare/ink-f1.js';
import { decodeGreyPng, encodeRgbaPng } from '../compare/png.js';
import { renderPng } from '../renderer/render-png.js';
import { readCorpusFile, type Corpus, type CorpusCase } from './corpus.js';
import { isHeldOut } from './holdout.js';

export interface CaseScore extends InkScore {
  id: string;
  group: string;
  /** Render time, wall clock. */
  ms: number;
  /** Why the score is 0: the render failed, or the sizes differ. */
  note?: string;
}

export interface GroupScore {
  group: string;
  cases: number;
  meanF1: number;
  minF1: number;
  meanStrictF1: number;
  identical: number;
}

export interface CaseFilter {
  only?: string;
  group?: string;
}

/** The cases that have a reference PNG, narrowed by id substring and group. */
export function scoredCases(corpus: Corpus, filter: CaseFilter = {}): CorpusCase[] {
  return corpus.cases.filter(
    (c) => c.png && (!filter.only || c.id.includes(filter.only)) && (!filter.group || c.group === filter.group),
  );
}

/** Renders one case and scores it; `diff` receives the red/blue difference PNG when given. */
export async function scoreCase(corpus: Corpus, c: CorpusCase, diff?: (png: Buffer) => void): Promise<CaseScore> {
  const started = process.hrtime.bigint();
  let rendered: Uint8Array;
  try {
    rendered = await renderPng(readCorpusFile(corpus, c.zpl), {
      dpmm: c.dpmm,
      widthIn: c.widthIn,
      heightIn: c.heightIn,
      index: c.index ?? 0,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      id: c.id,
      group: c.group,
      ms: 0,
      f1: 0,
      strictF1: 0,
      identical: false,
      note: `render failed: ${message.slice(0, 120)}`,
    };
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const reference = cropTopLeft(await decodeGreyPng(readCorpusFile(corpus, c.png!)), c.referenceCrop);
  const ours = await decodeGreyPng(rendered);
  if (diff) diff(await encodeRgbaPng(inkDiffRgba(reference, ours)));
  const score = scoreInk(reference, ours);
  const sizeOff = reference.width !== ours.width || reference.height !== ours.height;
  return {
    id: c.id,
    group: c.group,
    ms,
    ...score,
    ...(sizeOff && { note: `size ${ours.width}x${ours.height}, reference ${reference.width}x${reference.height}` }),
  };
}

function summarize(group: string, scores: CaseScore[]): GroupScore {
  const n = scores.length;
  const sum = (pick: (s: CaseScore) => number): number => scores.reduce((total, s) => total + pick(s), 0);
  return {
    group,
    cases: n,
    meanF1: n ? sum((s) => s.f1) / n : 0,
    minF1: n ? Math.min(...scores.map((s) => s.f1)) : 0,
    meanStrictF1: n ? sum((s) => s.strictF1) / n : 0,
    identical: scores.filter((s) => s.identical).length,
  };
}

/** The strict line on the held-out tenth (bench/holdout.ts) and on the cases fitting tools may read. */
export function summarizeHoldout(scores: CaseScore[]): { heldOut: GroupScore; fitted: GroupScore } {
  return {
    heldOut: summarize(
      'held-out',
      scores.filter((s) => isHeldOut(s.id)),
    ),
    fitted: summarize(
      'fitted',
      scores.filter((s) => !isHeldOut(s.id)),
    ),
  };
}

/** One summary per group (sorted by name), and one over every case. */
export function summarizeScores(scores: CaseScore[]): { groups: GroupScore[]; all: GroupScore } {
  const names = [...new Set(scores.map((s) => s.group))].sort();
  return {
    groups: names.map((g) =>
      summarize(
        g,
        scores.filter((s) => s.group === g),
      ),
    ),
    all: summarize('all', scores),
  };
}
