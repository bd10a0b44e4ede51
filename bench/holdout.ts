// The held-out tenth of the corpus: cases no fitting tool may read (tools/font0-model skips them), scored
// separately by `npm run fidelity`, so that a fitted rule shows whether it generalises beyond the labels it saw.
// The choice is fixed by a hash of the case id: stable as cases are added, and the same on every machine.

import { createHash } from 'node:crypto';

/** One case in HELD_OUT_MODULUS is held out. */
export const HELD_OUT_MODULUS = 10;

/** Whether the case with this id is kept out of every fit: the first 4 bytes of sha256(id), mod 10, are 0. */
export function isHeldOut(id: string): boolean {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % HELD_OUT_MODULUS === 0;
}
