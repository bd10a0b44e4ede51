// The real labels the benchmarks render: the carrier group of the repository's corpus.

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
