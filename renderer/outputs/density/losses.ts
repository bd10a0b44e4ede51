// What a conversion could not do faithfully: the warnings at their place in the source (the linter's format), and
// the offsets of what was rounded for a field, which make that field lossy (X-Lossy-Fields draws those as bitmaps).

import type { Diagnostic } from '../../diagnostics.js';

export class LossReport {
  readonly warnings: Diagnostic[] = [];
  /** Byte offsets of what was rounded for a field (a module width, a font's cells): the fields holding them are lossy. */
  readonly lossyAt: number[] = [];
  /** Why the ^BY module width in force is not whole at the target, when it is not. */
  moduleLoss: string | undefined;

  warn(byteIndex: number, byteSize: number, command: string, param: number, message: string): void {
    this.warnings.push({ byteIndex, byteSize, command, param, message });
  }

  /** Something at `byteIndex` was rounded: the field around it is lossy. */
  lossy(byteIndex: number): void {
    this.lossyAt.push(byteIndex);
  }

  /** Something in the field spanning [start, end) was rounded. */
  isLossy(start: number, end: number): boolean {
    return this.lossyAt.some((p) => start <= p && p < end);
  }

  /** Removes and returns the warnings about what lies in [start, end). */
  takeWithin(start: number, end: number): Diagnostic[] {
    const taken = this.warnings.filter((w) => start <= w.byteIndex && w.byteIndex < end);
    for (const w of taken) this.warnings.splice(this.warnings.indexOf(w), 1);
    return taken;
  }

  /** The warnings in document order. */
  sorted(): Diagnostic[] {
    return this.warnings.sort((x, y) => x.byteIndex - y.byteIndex);
  }
}
