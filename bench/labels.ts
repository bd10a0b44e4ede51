// The real labels the benchmarks render: the carrier group of the repository's corpus.

import type { RenderRequest } from '../renderer/api.js';
import { loadCorpus, readCorpusFile } from './corpus.js';

export interface BenchLabel {
  id: string;
  zpl: Buffer;
  widthIn: number;
  heightIn: number;
}

/** The labels of one corpus group (BENCH_MANIFEST names another corpus in the same format). */
export function loadLabels(group = 'carrier'): BenchLabel[] {
  const corpus = process.env.BENCH_MANIFEST ? loadCorpus(process.env.BENCH_MANIFEST) : loadCorpus();
  return corpus.cases
    .filter((e) => e.group === group)
    .map((e) => ({ id: e.id, zpl: readCorpusFile(corpus, e.zpl), widthIn: e.widthIn, heightIn: e.heightIn }));
}

/** 4x6 in, 8 dpmm, 8-bit PNG: the size and format every per-label CPU figure is for (and what the HTTP benchmark asks). */
export const COST_REQUEST: RenderRequest = { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 };
