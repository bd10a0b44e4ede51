// How a command family declares its commands: parameter table plus what running it does.

import type { Token } from './lexer.js';
import type { ParamSpec, ParamValue } from './params.js';
import type { Interpreter } from '../interpreter.js';

export interface CommandDef {
  /** The parameter table (ranges and defaults); the linter reads it too. */
  params?: readonly ParamSpec[];
  /**
   * How the parameter bytes are read: `split` (default) at the delimiter; `font` for ^A (font letter then
   * orientation without a delimiter); `text` as one free-text value (^FD, ^FX...); `raw` not at all.
   */
  syntax?: 'split' | 'font' | 'text' | 'raw';
  /** Runs outside ^XA..^XZ too (downloads, host commands). Format commands outside a label are ignored. */
  anywhere?: boolean;
  /** Accepted but has no effect on the picture (printer settings). */
  noop?: boolean;
  run?(ip: Interpreter, args: ParamValue[], tok: Token): void;
}

/** Keyed by prefix and name: `^FO`, `~DG`. */
export type CommandTable = Record<string, CommandDef>;
