// What a decoder of bytes from outside may spend, passed in by its caller: memory claimed before it is allocated, and
// work charged inside its loops (once per row, chunk or glyph). Decoders see only this seam, so the request's budget
// (the request's WorkMeter, renderer/work-meter.ts: its bytes, its work and its deadline) plugs in without touching their insides.

export interface DecodeMeter {
  /** Claims `bytes` for `what` (e.g. `Image R:LOGO.PNG`) before they are allocated; throws a RenderError when spent. */
  claim(bytes: number, what: string): void;
  /** Charges `units` of work (about one per byte read or written) done since the last charge; throws to stop. */
  charge(units: number): void;
  /**
   * Set when the caller's event loop has waited long enough: a stage written as steps (renderer/steps.ts) yields at
   * its next resumable point. Never set on a render thread.
   */
  readonly sliceDue?: boolean;
  /** Gives back bytes claimed for something a stage has dropped (a decoder's inflated data once its pixels are out). */
  release?(bytes: number): void;
}

/**
 * `n` zeroed bytes for `what`, claimed on `meter` first: how a stage that holds only this seam gets a buffer whose
 * size comes from its input (WorkMeter.bytes is the same for a stage holding the whole meter).
 */
export function claimBytes(meter: DecodeMeter, n: number, what: string): Uint8Array<ArrayBuffer> {
  meter.claim(n, what);
  return new Uint8Array(n);
}

/** Work charged between two calls of the caller's checkpoint: a few hundred microseconds of decoding. */
export const CHECKPOINT_UNITS = 1 << 16;

/**
 * A meter over a claim callback and a checkpoint: the checkpoint (a clock read, a cancel flag) runs once every
 * CHECKPOINT_UNITS units charged, so decoders may charge per row however narrow the rows are.
 */
export function decodeMeter(claim?: (bytes: number, what: string) => void, checkpoint?: () => void): DecodeMeter {
  let due = CHECKPOINT_UNITS;
  return {
    claim: (bytes, what) => claim?.(bytes, what),
    charge(units) {
      due -= units;
      if (due > 0) return;
      due = CHECKPOINT_UNITS;
      checkpoint?.();
    },
  };
}

/** A meter that allows everything (trusted bytes: the package's own fonts; tests). */
export const UNMETERED: DecodeMeter = { claim() {}, charge() {} };
