// Scores our PNG against the legacy one (ink F1, see compare/ink-f1.ts) in a worker thread, started on first use.
// Both headers are read first (every IHDR): a legacy image whose declared size is not ours scores 0 without
// being decoded, so a decompression bomb from upstream costs nothing. Each comparison has a time budget.

import { readImageHeader } from '../../renderer/decode/image-header.js';
import { createTaskWorker, TaskRefusedError } from '../workers/task-worker.js';

export interface CompareTask {
  reference: Uint8Array;
  rendered: Uint8Array;
}

export type ComparePngs = (reference: Uint8Array, rendered: Uint8Array) => Promise<number>;

const WORKER_URL = new URL('./compare-worker.js', import.meta.url);

/** Time one comparison may take in the worker (two decodes and a score of label-sized images). */
export const DEFAULT_COMPARE_TIMEOUT_MS = 30_000;

export interface PngComparer extends ComparePngs {
  /** Stops the worker (pending comparisons fail); the next comparison starts a new one. */
  close(): Promise<void>;
}

export function createPngComparer(options: { timeoutMs?: number } = {}): PngComparer {
  const worker = createTaskWorker<CompareTask, number>(WORKER_URL, {
    timeoutMs: options.timeoutMs ?? DEFAULT_COMPARE_TIMEOUT_MS,
    maxWaiting: Number.MAX_SAFE_INTEGER, // the shadow queue bounds what waits
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  const compare: ComparePngs = async (reference, rendered) => {
    const theirs = readImageHeader(reference);
    const ours = readImageHeader(rendered);
    if (theirs?.format !== 'png' || ours?.format !== 'png') throw new Error('PNG comparison failed: not a PNG image');
    // Sizes that differ score 0 (ink-f1.ts); every size field must be ours, whichever one a decoder believes.
    if (!theirs.sizes.every((size) => size.width === ours.width && size.height === ours.height)) return 0;
    try {
      return await worker.run({ reference, rendered });
    } catch (err) {
      throw new Error(`PNG comparison failed: ${err instanceof TaskRefusedError ? err.message : String(err)}`);
    }
  };
  return Object.assign(compare, { close: () => worker.close() });
}
