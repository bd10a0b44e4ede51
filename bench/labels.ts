// The real labels the benchmarks render: the carrier group of the shared fixtures.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BenchLabel {
  id: string;
  zpl: Buffer;
  widthIn: number;
  heightIn: number;
}

interface ManifestEntry {
  id: string;
  zpl: string;
  group: string;
  widthIn: number;
  heightIn: number;
}

/** dist/bench -> the package root -> ../shared/fixtures (override with BENCH_FIXTURES). */
export function fixturesDir(): string {
  const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return process.env.BENCH_FIXTURES ?? join(packageRoot, '..', 'shared', 'fixtures');
}

export function loadLabels(group = 'carrier'): BenchLabel[] {
  const dir = fixturesDir();
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  return manifest
    .filter((e) => e.group === group)
    .map((e) => ({ id: e.id, zpl: readFileSync(join(dir, e.zpl)), widthIn: e.widthIn, heightIn: e.heightIn }));
}
