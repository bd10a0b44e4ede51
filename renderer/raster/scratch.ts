// One reusable pixel buffer per thread. A fresh 1 MB buffer costs milliseconds of page faults; clearing one
// that is already mapped costs microseconds. A buffer is cleared every time it is lent, and it is lent to
// one raster at a time (while lent, a second borrower gets a fresh buffer), so no label's pixels reach another's.

/** A spare above this is reused only within one document (`trimInk` after it), so a huge label leaves no resident memory behind. */
export const MAX_KEPT_INK_BYTES = 16 * 1024 * 1024;

let spare: Uint8Array | undefined;

/** A zero-filled buffer of `size` bytes for one raster; give it back with `returnInk` when the label is encoded. */
export function borrowInk(size: number): Uint8Array {
  const reused = spare !== undefined && spare.length >= size;
  const buf = reused ? spare! : new Uint8Array(size);
  spare = undefined;
  const ink = buf.subarray(0, size);
  // A fresh buffer is zeros already, its pages not yet touched: filling it would fault in all of them (an 83 MB label: most of a second under load).
  if (reused) ink.fill(0);
  return ink;
}

/** Takes back a buffer from `borrowInk`; the caller must not touch it afterwards. */
export function returnInk(ink: Uint8Array): void {
  if (ink.byteOffset !== 0) return;
  const whole = new Uint8Array(ink.buffer, 0, ink.buffer.byteLength);
  if (!spare || spare.length < whole.length) spare = whole;
}

/** At the end of a document: lets go of a spare too large to keep between documents. */
export function trimInk(): void {
  if (spare && spare.length > MAX_KEPT_INK_BYTES) spare = undefined;
}
