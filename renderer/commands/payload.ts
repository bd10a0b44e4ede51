// The data part of commands whose last parameter is a payload (^GF, ~DG, ~DY, ~DU): its bytes and
// document offsets, and a reporter that turns payload positions into diagnostics.

import type { CommandContext, CommandDef } from './context.js';
import type { Token } from '../zpl/lexer.js';
import { latin1, namedArgs, readParams, splitParams, type ParamSpec } from '../zpl/params.js';
import { checkObjectSize } from '../decode/grf.js';

export interface Payload {
  bytes: Uint8Array;
  offsets: Int32Array;
  /** Document offset just past the payload (for diagnostics about missing data). */
  end: number;
}

/** Everything after the `n`-th delimiter of the token (empty when there are fewer). */
export function payloadAfter(tok: Token, n: number): Payload {
  let k = 0;
  let seen = 0;
  while (k < tok.raw.length && seen < n) {
    if (tok.raw[k] === tok.delimiter) seen++;
    k++;
  }
  if (seen < n) k = tok.raw.length;
  return { bytes: tok.raw.subarray(k), offsets: tok.offsets.subarray(k), end: tok.end };
}

/** A decode reporter logging at the payload's document offsets. */
export function payloadReporter(ip: CommandContext, p: Payload, command: string, param: number) {
  return (at: number, size: number, message: string): void => {
    const start = at < p.offsets.length ? p.offsets[at] : p.end;
    const last = at + size - 1;
    const end = size > 0 && last < p.offsets.length ? p.offsets[last] + 1 : start;
    ip.warn(start, Math.max(0, end - start), command, param, message);
  };
}

/**
 * A command whose last parameter is a payload that may contain the delimiter (^GF data, ~DG hex with
 * `,` compression): the parameters are read from the table with the payload kept whole.
 */
export function payloadCommand<const P extends readonly ParamSpec[]>(
  def: Omit<CommandDef<P>, 'syntax' | 'params' | 'run'> & { params: P; run: NonNullable<CommandDef<P>['run']> },
): CommandDef {
  const specs = def.params;
  return {
    ...def,
    syntax: 'raw',
    run(ip, _args, tok) {
      const values = readParams(tok.prefix + tok.name, splitParams(tok, 0, specs.length), specs, ip.log, {
        unitScale: ip.printer.unitScale,
      });
      def.run(ip, namedArgs(specs, values), tok);
    },
  };
}

/**
 * Refuses a byte count over the object budget as it is written in parameter `index` (not as clamped to the
 * parameter's range): a graphic declaring 2 GB is refused naming 2 GB.
 */
export function checkDeclaredSize(tok: Token, index: number, what: string): void {
  const text = writtenParam(tok, index)?.trim();
  const declared = text ? Number(text) : NaN;
  if (Number.isFinite(declared)) checkObjectSize(declared, what);
}

/**
 * Parameter `index` as written (as `splitParams(tok)[index]` reads it), without turning the payload after it into
 * text: on every ^GF that copy cost a carrier label 1.2 %.
 */
function writtenParam(tok: Token, index: number): string | undefined {
  const raw = tok.raw;
  let a = 0;
  for (let n = 0; n < index; n++) {
    const d = raw.indexOf(tok.delimiter, a);
    if (d < 0) return undefined;
    a = d + 1;
  }
  const end = raw.indexOf(tok.delimiter, a);
  return latin1(raw, a, end < 0 ? raw.length : end);
}
