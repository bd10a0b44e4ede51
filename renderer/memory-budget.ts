// One memory budget per document: decoded graphics (replays by ^XF included) and raster bytes are claimed
// before they are allocated, so a small document cannot make a worker allocate gigabytes.

import { RenderError } from './errors.js';

/** Enough for the largest legal label (15x15 in at 24 dpmm: an 83 MB raster and its PNG rows) turned once. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

export class MemoryBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit = DEFAULT_MAX_DOCUMENT_BYTES) {
    this.limit = limit;
  }

  get used(): number {
    return this.#used;
  }

  /** Claims `bytes` for `what` (e.g. `Graphic`), or fails with RenderError('memory') naming the sizes. */
  claim(bytes: number, what: string): void {
    if (this.#used + bytes > this.limit) {
      throw new RenderError(
        'memory',
        `${what} needs ${bytes} bytes; with the ${this.#used} bytes this document already uses, ` +
          `that exceeds its memory budget of ${this.limit} bytes`,
      );
    }
    this.#used += bytes;
  }

  /** Gives back bytes claimed for something that is gone (a label's display list once the next is laid out). */
  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }
}
