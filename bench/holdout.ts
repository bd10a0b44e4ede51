// The held-out tenth of the corpus: cases no fitting tool may read (tools/font0-model skips them), scored
// separately by `npm run fidelity`, so that a fitted rule shows whether it generalises beyond the labels it saw.
// The choice is fixed by a hash of the case id: stable as cases are added, and the same on every machine.
// The hash splits the corpus into ten folds; fold 0 is the held-out tenth. `npm run cross-validate` refits the
// tables with each other fold held out in its place (the fitting tools' `--fold k`).

import { createHash } from 'node:crypto';

/** One case in HELD_OUT_MODULUS is held out. */
export const HELD_OUT_MODULUS = 10;

/** The fold of the case with this id: the first 4 bytes of sha256(id), mod 10. */
export function foldOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % HELD_OUT_MODULUS;
}

/** Whether the case with this id is kept out of every fit: it is in fold 0. */
export function isHeldOut(id: string): boolean {
  return foldOf(id) === 0;
}

/** The fold a fitting tool holds out: `--fold k` (0-9) in its arguments, else 0. */
export function heldOutFold(argv: readonly string[]): number {
  const i = argv.indexOf('--fold');
  if (i < 0) return 0;
  const fold = Number(argv[i + 1]);
  if (!Number.isInteger(fold) || fold < 0 || fold >= HELD_OUT_MODULUS)
    throw new Error(`--fold needs a fold from 0 to ${HELD_OUT_MODULUS - 1}, not ${argv[i + 1]}`);
  return fold;
}

/** The first line of a table fitted with another fold held out (none for fold 0): such a table is never committed. */
export function crossValidationMark(fold: number): string {
  return fold
    ? `// Cross-validation: fitted with fold ${fold} held out in place of the held-out tenth (fold 0). Never commit it.\n`
    : '';
}
