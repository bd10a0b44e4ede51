// The repository's reference corpus (corpus/manifest.json): what tests, benchmarks and the fidelity score
// read. Paths in a manifest are relative to its folder, so another corpus in the same format works too.

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dpmm } from '../renderer/api.js';
import type { ReferenceCrop } from '../compare/ink-f1.js';

/** dist/bench -> the package root -> corpus/. */
export const CORPUS_DIR = fileURLToPath(new URL('../../corpus/', import.meta.url));
export const CORPUS_MANIFEST = join(CORPUS_DIR, 'manifest.json');

export interface CorpusCase {
  id: string;
  group: string;
  /** ZPL file, relative to the manifest's folder. */
  zpl: string;
  /** The legacy service's PNG, relative to the manifest's folder; robustness cases have none. */
  png?: string;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index?: number;
  referenceCrop?: ReferenceCrop;
  source?: string;
  license?: string;
}

export interface Corpus {
  /** The folder the case paths are relative to. */
  dir: string;
  cases: CorpusCase[];
}

export function loadCorpus(manifestPath: string = CORPUS_MANIFEST): Corpus {
  const path = resolve(manifestPath);
  return { dir: dirname(path), cases: JSON.parse(readFileSync(path, 'utf8')) as CorpusCase[] };
}

/** A file of a case (its `zpl` or `png`), as bytes. */
export function readCorpusFile(corpus: Corpus, relativePath: string): Buffer {
  return readFileSync(join(corpus.dir, relativePath));
}
