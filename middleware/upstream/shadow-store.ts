// What shadow mode keeps in its `storeDir`: both PNGs and a JSON record of each divergent case, and a running
// summary of every comparison. Plain files, so the report can be served by any process that sees the folder.

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DivergenceEvent, ShadowOutcome } from './options.js';

/** One divergent case as stored beside its two images. */
export interface StoredShadowCase extends DivergenceEvent {
  /** File stem shared by `<stem>.json`, `<stem>.local.png` and `<stem>.upstream.png`. */
  id: string;
  /** ISO time the comparison finished. */
  time: string;
  /** Method and path below the mount point (no query: it may hold a key). */
  endpoint: string;
}

/** Score buckets of the distribution, highest first; a score falls in the first whose floor it reaches. */
export const SCORE_BUCKETS: readonly { label: string; floor: number }[] = [
  { label: '1', floor: 1 },
  { label: '0.99-1', floor: 0.99 },
  { label: '0.95-0.99', floor: 0.95 },
  { label: '0.90-0.95', floor: 0.9 },
  { label: '0.50-0.90', floor: 0.5 },
  { label: '0-0.50', floor: 0 },
];

export interface ShadowSummary {
  /** Labels compared (matched + diverged). */
  compared: number;
  matched: number;
  diverged: number;
  /** The legacy service was down, slow, limiting or refusing us: nothing was compared. */
  upstreamErrors: number;
  /** Compared labels per score bucket (labels of SCORE_BUCKETS). */
  scores: Record<string, number>;
  updatedAt: string | null;
}

export const SUMMARY_FILE = 'summary.json';
const ENDPOINT_CHARS = 200;

export function emptySummary(): ShadowSummary {
  return {
    compared: 0,
    matched: 0,
    diverged: 0,
    upstreamErrors: 0,
    scores: Object.fromEntries(SCORE_BUCKETS.map((b) => [b.label, 0])),
    updatedAt: null,
  };
}

/** The summary kept in `dir`; an empty one when there is none yet (or it cannot be read). */
export function readSummary(dir: string): Promise<ShadowSummary> {
  return readFile(join(dir, SUMMARY_FILE), 'utf8')
    .then((text) => ({ ...emptySummary(), ...(JSON.parse(text) as Partial<ShadowSummary>) }))
    .catch(() => emptySummary());
}

export function scoreBucket(score: number): string {
  return (SCORE_BUCKETS.find((b) => score >= b.floor) ?? SCORE_BUCKETS[SCORE_BUCKETS.length - 1]!).label;
}

export function caseEndpoint(method: string, url: string): string {
  return `${method} ${url.split('?')[0]!.slice(0, ENDPOINT_CHARS)}`;
}

/** Writes cases and keeps the summary file current; one summary write at a time, the latest counts win. */
export class ShadowStore {
  readonly #dir: string;
  #summary: Promise<ShadowSummary>;
  #writing: Promise<void> = Promise.resolve();

  constructor(dir: string) {
    this.#dir = dir;
    // Counting goes on across restarts: start from the summary already in the folder.
    this.#summary = readSummary(dir);
  }

  /** Both images and the case record; resolves to the image paths. */
  async saveCase(record: StoredShadowCase, local: Uint8Array, upstream: Uint8Array): Promise<{ local: string; upstream: string }> {
    const files = { local: join(this.#dir, `${record.id}.local.png`), upstream: join(this.#dir, `${record.id}.upstream.png`) };
    await mkdir(this.#dir, { recursive: true });
    await Promise.all([writeFile(files.local, local), writeFile(files.upstream, upstream)]);
    // The record last: a listed case always has its images.
    await writeFile(join(this.#dir, `${record.id}.json`), JSON.stringify({ ...record, files }));
    return files;
  }

  /** Counts one settled comparison into the summary file. */
  tally(outcome: ShadowOutcome): Promise<void> {
    this.#summary = this.#summary.then((summary) => {
      if (outcome.outcome === 'failed') summary.upstreamErrors++;
      else {
        summary.compared++;
        const score = outcome.outcome === 'same' ? outcome.score : outcome.event.score;
        summary.scores[scoreBucket(score)] = (summary.scores[scoreBucket(score)] ?? 0) + 1;
        if (outcome.outcome === 'same') summary.matched++;
        else summary.diverged++;
      }
      summary.updatedAt = new Date().toISOString();
      return summary;
    });
    this.#writing = this.#writing.catch(() => undefined).then(async () => {
      const summary = await this.#summary;
      const file = join(this.#dir, SUMMARY_FILE);
      await mkdir(this.#dir, { recursive: true });
      await writeFile(`${file}.tmp`, JSON.stringify(summary));
      await rename(`${file}.tmp`, file);
    });
    return this.#writing;
  }
}
