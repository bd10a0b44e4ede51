// One work meter per request: every stage whose work grows with its input claims the bytes it allocates before
// allocating them and charges the work it does inside its loops; the meter reads the request's deadline (and the
// caller's cancel check) every CHECKPOINT_UNITS units, so no input holds a thread or the memory past its budget,
// whether the render runs in the pool, in `zpl-render`, in the library's render() or on a RENDER_THREADS=0 server.

import { DEFAULT_RENDER_TIMEOUT_MS } from './api.js';
import { CHECKPOINT_UNITS, claimBytes, type DecodeMeter } from './decode/meter.js';
import { RenderError } from './errors.js';

/** Enough for the largest legal label (15x15 in at 24 dpmm: an 83 MB raster and its PNG rows) turned once. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

export interface WorkMeterOptions {
  /** Bytes the request may hold at once (default DEFAULT_MAX_DOCUMENT_BYTES). */
  maxBytes?: number | undefined;
  /** Milliseconds from now the work may take (default the render pool's 10 s; Infinity for none). */
  timeoutMs?: number | undefined;
  /** The caller's own check (a cancelled request), run at every checkpoint; throwing stops the work. */
  checkpoint?: (() => void) | undefined;
  /**
   * Milliseconds of work between yields to the event loop (a render on the server's own thread); default none: a render
   * thread runs to the end.
   */
  sliceMs?: number | undefined;
}

export class WorkMeter implements DecodeMeter {
  readonly limit: number;
  #used = 0;
  #due = CHECKPOINT_UNITS;
  #work = 0;
  readonly #started = performance.now();
  #timeoutMs: number;
  readonly #hook: (() => void) | undefined;
  readonly #sliceMs: number;
  #sliceStarted = this.#started;
  /** The slice is spent: a stage written as steps yields at its next resumable point (read in hot loops: a field). */
  sliceDue = false;

  constructor(options: WorkMeterOptions | number = {}) {
    const o = typeof options === 'number' ? { maxBytes: options } : options;
    this.limit = o.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    this.#timeoutMs = o.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
    this.#hook = o.checkpoint;
    this.#sliceMs = o.sliceMs ?? Number.POSITIVE_INFINITY;
  }

  /** Bytes claimed and not given back. */
  get used(): number {
    return this.#used;
  }

  /** Work units charged so far (about one per byte, pixel or entry a loop went through). */
  get work(): number {
    return this.#work + (CHECKPOINT_UNITS - this.#due);
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

  /** Charges `units` of work done (or about to be done: a loop's known size before the loop); checks every so often. */
  charge(units: number): void {
    this.#due -= units;
    if (this.#due > 0) return;
    this.#work += CHECKPOINT_UNITS - this.#due;
    this.#due = CHECKPOINT_UNITS;
    this.checkpoint();
  }

  /** Stops the work when the caller says so or the deadline has passed. */
  checkpoint(): void {
    this.#hook?.();
    const now = performance.now();
    if (now - this.#started > this.#timeoutMs)
      throw new RenderError('timeout', `Rendering took longer than ${this.#timeoutMs} ms and was stopped`);
    if (now - this.#sliceStarted >= this.#sliceMs) this.sliceDue = true;
  }

  /** Whether the work yields to the event loop now and then (a sliceMs was given). */
  get sliced(): boolean {
    return this.#sliceMs !== Number.POSITIVE_INFINITY;
  }

  /** A new slice begins: the work has just had the event loop back. */
  resumed(): void {
    this.sliceDue = false;
    this.#sliceStarted = performance.now();
  }

  /** A new deadline, from the start (a PDF of many pages gets more time once its page count is known). */
  setTimeout(timeoutMs: number): void {
    this.#timeoutMs = timeoutMs;
  }

  /** `n` zeroed bytes for `what`, claimed first: how a stage gets a buffer whose size comes from its input. */
  bytes(n: number, what: string): Uint8Array {
    return claimBytes(this, n, what);
  }

  /** A 1-bit raster of `width` x `height` (rows of whole bytes), claimed first. */
  bits(width: number, height: number, what: string): { data: Uint8Array; stride: number } {
    const stride = Math.ceil(width / 8);
    return { data: this.bytes(stride * height, what), stride };
  }
}
