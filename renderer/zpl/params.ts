// Parameter tables: every command declares each parameter's kind, range and default once, and
// both the interpreter (clamping, defaults) and the linter (warnings) read that one table.

import type { DiagnosticLog } from '../diagnostics.js';
import type { Token } from './lexer.js';

export type ParamKind = 'int' | 'float' | 'enum' | 'text' | 'bool';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  min?: number;
  max?: number;
  /** Allowed values for `enum` (compared upper-case). */
  values?: readonly string[];
  /** Value used when the parameter is absent or invalid; undefined lets the command decide (e.g. from ^CF, ^BY). */
  def?: number | string;
}

/** One comma-separated parameter as written, with its place in the document. */
export interface RawParam {
  text: string;
  /** Byte offset in the document of the value's first byte (or where it would be, when empty). */
  offset: number;
  /** Length in bytes. */
  size: number;
}

export type ParamValue = number | string | undefined;

/** Parameter values by the names the command's table gives them (a drawer reads `args.width`, not `params[0]`). */
export type NamedArgs = Readonly<Record<string, ParamValue>>;

export function namedArgs(specs: readonly ParamSpec[], values: readonly ParamValue[]): NamedArgs {
  const out: Record<string, ParamValue> = {};
  specs.forEach((s, i) => { if (i < values.length) out[s.name] = values[i]; });
  return out;
}

/** Splits a token's parameter bytes at the delimiter. `skip` leading bytes are left out (^A's font letter). */
export function splitParams(tok: Token, skip = 0, maxParts = Infinity): RawParam[] {
  const out: RawParam[] = [];
  const raw = tok.raw;
  let a = skip;
  for (let k = skip; k <= raw.length; k++) {
    if (k === raw.length || (raw[k] === tok.delimiter && out.length < maxParts - 1)) {
      out.push({
        text: latin1(raw, a, k),
        offset: a < raw.length ? tok.offsets[a] : tok.end,
        size: k - a,
      });
      a = k + 1;
    }
  }
  if (out.length === 1 && out[0].size === 0) return [];
  return out;
}

export function latin1(raw: Uint8Array, a = 0, b = raw.length): string {
  let s = '';
  for (let k = a; k < b; k++) s += String.fromCharCode(raw[k]);
  return s;
}


/**
 * Reads parameters by their specs: absent -> default, out of range -> clamped, invalid -> default,
 * each correction logged with the parameter's byte position.
 */
export function readParams(command: string, parts: RawParam[], specs: readonly ParamSpec[], log: DiagnosticLog | undefined,
  firstParamNumber = 1): ParamValue[] {
  const values: ParamValue[] = [];
  for (let k = 0; k < specs.length; k++) {
    const spec = specs[k];
    const part = parts[k];
    const text = part?.text.trim() ?? '';
    const where = (msg: string) => log?.add({
      byteIndex: part ? part.offset : 0, byteSize: part ? part.size : 0, command, param: k + firstParamNumber, message: msg,
    });
    if (text === '') { values.push(spec.def); continue; }
    values.push(readOne(spec, text, where));
  }
  if (parts.length > specs.length && log) {
    const extra = parts[specs.length];
    if (parts.slice(specs.length).some((p) => p.text.trim() !== '')) {
      log.add({ byteIndex: extra.offset, byteSize: parts[parts.length - 1].offset + parts[parts.length - 1].size - extra.offset,
        command, param: specs.length + firstParamNumber, message: 'Ignored extra parameters' });
    }
  }
  return values;
}

function readOne(spec: ParamSpec, text: string, warn: (m: string) => void): ParamValue {
  switch (spec.kind) {
    case 'int':
    case 'float': {
      let v = spec.kind === 'int' ? parseIntLoose(text) : parseFloatLoose(text);
      if (v === undefined) {
        // Printers skip leading junk before a number (`^FOB50,660` prints at x=50).
        const rest = text.replace(/^[^\d+\-.]+/, '');
        v = rest !== text ? (spec.kind === 'int' ? parseIntLoose(rest) : parseFloatLoose(rest)) : undefined;
        if (v === undefined) {
          warn(`Invalid value ${text}; used ${spec.def ?? 'default'} instead`);
          return spec.def;
        }
        warn(`Invalid value ${text}; used ${v} instead`);
      }
      if (spec.min !== undefined && v < spec.min) {
        warn(`Value ${text} is less than minimum value ${spec.min}; used ${spec.min} instead`);
        return spec.min;
      }
      if (spec.max !== undefined && v > spec.max) {
        warn(`Value ${text} is greater than maximum value ${spec.max}; used ${spec.max} instead`);
        return spec.max;
      }
      return v;
    }
    case 'enum': {
      const u = text.toUpperCase();
      if (spec.values && !spec.values.includes(u)) {
        warn(`Invalid value ${text}; used ${spec.def ?? 'default'} instead`);
        return spec.def;
      }
      return u;
    }
    case 'bool': {
      const u = text.toUpperCase();
      if (u !== 'Y' && u !== 'N') {
        warn(`Invalid value ${text}; used ${spec.def ?? 'default'} instead`);
        return spec.def;
      }
      return u;
    }
    default:
      return text;
  }
}

/** Integer as printers read it: leading digits count (`12abc` is 12), a fraction is truncated. */
export function parseIntLoose(text: string): number | undefined {
  const m = /^[+-]?\d+/.exec(text.trim());
  if (!m) {
    const f = /^[+-]?\d*\.\d+/.exec(text.trim());
    return f ? Math.trunc(Number(f[0])) : undefined;
  }
  return Number.parseInt(m[0], 10);
}

export function parseFloatLoose(text: string): number | undefined {
  const m = /^[+-]?(\d+\.?\d*|\.\d+)/.exec(text.trim());
  return m ? Number(m[0]) : undefined;
}
