// Parameter tables: every command declares each parameter's kind, range and default once, and
// both the interpreter (clamping, defaults) and the linter (warnings) read that one table.

import type { DiagnosticLog } from '../diagnostics.js';
import type { Token } from './lexer.js';

export type ParamKind = 'int' | 'float' | 'enum' | 'text' | 'bool';

/**
 * What a number measures. `dots` scale with the print density; `module` too, but stay whole and at least 1 (barcode
 * module widths and magnifications: a symbol drawn with fractional modules does not decode); `ratio` and `count`
 * (wide-to-narrow ratios, quantities, code choices, byte counts) are the same at every density.
 */
export type Measure = 'dots' | 'module' | 'ratio' | 'count';

/**
 * One parameter: `N` its name, `V` what it reads as (`int` -> number, `oneOf('NRIB')` -> 'N' | 'R' | 'I' | 'B',
 * `yesNo` -> boolean; with `| undefined` when it has no default), so a table yields its commands' argument type.
 */
export interface ParamSpec<N extends string = string, V = unknown> {
  name: N;
  kind: ParamKind;
  min?: number;
  max?: number;
  /** Allowed values for `enum` (compared upper-case). */
  values?: readonly string[];
  /** Value used when the parameter is absent or invalid (`Y`/`N` for `bool`); undefined lets the command decide (e.g. from ^CF, ^BY). */
  def?: number | string;
  /**
   * Another parameter of the same command whose value is this one's minimum, and its value when absent
   * (^GB: width and height are at least the thickness). That parameter is read, and warned about, first.
   */
  atLeast?: string;
  /** A length in ^MU units whose range is given in dots: it is checked after conversion (^MUM, ^MUI). */
  length?: boolean;
  /** What a number measures: how it changes when a format is converted to another print density (outputs/density/). */
  measure?: Measure;
  /** Words a number may be instead (^FM's `e` for "exclude"), compared upper-case and read as written upper-case. */
  words?: readonly string[];
  /** Type only, never set: the value the parameter reads as. */
  readonly value?: V;
}

/** The characters of a string literal as a union (`'NRIB'` -> 'N' | 'R' | 'I' | 'B'). */
export type CharsOf<S extends string> = S extends `${infer C}${infer Rest}` ? C | CharsOf<Rest> : never;

type ValueOf<S> = S extends ParamSpec<string, infer V> ? V : never;

/** A table's values by parameter name, typed by the table (a drawer reads `args.width`, not `params[0]`). */
export type ArgsOf<P extends readonly ParamSpec[]> = { readonly [S in P[number] as S['name']]: ValueOf<S> };

/**
 * The spec with every property present, in one order: specs made here share one hidden class, so the reader's loads
 * stay monomorphic (with `measured`'s spread copies and optional fields they were megamorphic and missed V8's cache).
 */
function spec<N extends string, V>(s: ParamSpec<N, V>): ParamSpec<N, V> {
  return {
    name: s.name,
    kind: s.kind,
    min: s.min,
    max: s.max,
    values: s.values,
    def: s.def,
    atLeast: s.atLeast,
    length: s.length,
    measure: s.measure,
    words: s.words,
  };
}

/** Numbers, defaulted or not. */
export function int<N extends string>(name: N, min: number, max: number): ParamSpec<N, number | undefined>;
export function int<N extends string>(name: N, min: number, max: number, def: number): ParamSpec<N, number>;
export function int<N extends string>(
  name: N,
  min: number,
  max: number,
  def?: number,
): ParamSpec<N, number | undefined> {
  return spec({ name, kind: 'int', min, max, def });
}
export function float<N extends string>(name: N, min: number, max: number): ParamSpec<N, number | undefined>;
export function float<N extends string>(name: N, min: number, max: number, def: number): ParamSpec<N, number>;
export function float<N extends string>(
  name: N,
  min: number,
  max: number,
  def?: number,
): ParamSpec<N, number | undefined> {
  return spec({ name, kind: 'float', min, max, def });
}
/** A length in ^MU units (fractions allowed for inches and millimetres) whose range is given in dots. */
export function length<N extends string>(name: N, min: number, max: number): ParamSpec<N, number | undefined>;
export function length<N extends string>(name: N, min: number, max: number, def: number): ParamSpec<N, number>;
export function length<N extends string>(
  name: N,
  min: number,
  max: number,
  def?: number,
): ParamSpec<N, number | undefined> {
  return spec({ name, kind: 'float', min, max, def, length: true, measure: 'dots' });
}
/** The same spec, saying what its number measures (see Measure). */
export function measured<S extends ParamSpec>(measure: Measure, s: S): S {
  return spec({ ...s, measure }) as S;
}
export const inDots = <S extends ParamSpec>(spec: S): S => measured('dots', spec);
export const inModules = <S extends ParamSpec>(spec: S): S => measured('module', spec);
export const asRatio = <S extends ParamSpec>(spec: S): S => measured('ratio', spec);
export const asCount = <S extends ParamSpec>(spec: S): S => measured('count', spec);
/** One letter of `values` (upper-case). */
export function oneOf<N extends string, S extends string>(name: N, values: S): ParamSpec<N, CharsOf<S> | undefined>;
export function oneOf<N extends string, S extends string>(
  name: N,
  values: S,
  def: CharsOf<S>,
): ParamSpec<N, CharsOf<S>>;
export function oneOf<N extends string, S extends string>(
  name: N,
  values: S,
  def?: string,
): ParamSpec<N, CharsOf<S> | undefined> {
  return spec({ name, kind: 'enum', values: values.split(''), def });
}
/** `Y` or `N`, read as true or false. */
export function yesNo<N extends string>(name: N): ParamSpec<N, boolean | undefined>;
export function yesNo<N extends string>(name: N, def: 'Y' | 'N'): ParamSpec<N, boolean>;
export function yesNo<N extends string>(name: N, def?: 'Y' | 'N'): ParamSpec<N, boolean | undefined> {
  return spec({ name, kind: 'bool', def });
}
export function text<N extends string>(name: N): ParamSpec<N, string | undefined>;
export function text<N extends string>(name: N, def: string): ParamSpec<N, string>;
export function text<N extends string>(name: N, def?: string): ParamSpec<N, string | undefined> {
  return spec({ name, kind: 'text', def });
}
/** An integer, or one of `words` (upper-case) instead: ^FM's `x1` may be `e`. */
export function intOr<N extends string, W extends string>(
  name: N,
  min: number,
  max: number,
  words: readonly W[],
): ParamSpec<N, number | W | undefined> {
  return spec({ name, kind: 'int', min, max, words });
}
/**
 * `count` numbered pairs (`x1,y1,x2,y2...`, ^FM origins and ^CI remapping pairs): `make(n)` gives the n-th pair's
 * two specs, n from 1. Their values are read by name, e.g. args.x1.
 */
export function numberedPairs<V>(
  count: number,
  make: (n: number) => readonly [ParamSpec<string, V>, ParamSpec<string, V>],
): ParamSpec<string, V>[] {
  const specs = Array.from({ length: count }, (_, k) => make(k + 1)).flat();
  for (const spec of specs) PAIRED.add(spec);
  return specs;
}
/** Specs made by `numberedPairs`: a table's trailing pairs are read only as far as they are written. */
const PAIRED = new WeakSet<ParamSpec>();
export function orientation(): ParamSpec<'orientation', CharsOf<'NRIB'> | undefined>;
export function orientation<N extends string>(name: N): ParamSpec<N, CharsOf<'NRIB'> | undefined>;
export function orientation(name = 'orientation'): ParamSpec<string, CharsOf<'NRIB'> | undefined> {
  return oneOf(name, 'NRIB');
}

/** What reading parameters needs from the printer besides the table. */
export interface ReadContext {
  /** Number of the first spec in diagnostics (default 1). */
  firstParamNumber?: number;
  /** Dots per ^MU unit, for `length` parameters (default 1). */
  unitScale?: number;
}

/** One comma-separated parameter as written, with its place in the document. */
export interface RawParam {
  text: string;
  /** Byte offset in the document of the value's first byte (or where it would be, when empty). */
  offset: number;
  /** Length in bytes. */
  size: number;
}

export type ParamValue = number | string | boolean | undefined;

/** Values read by `readParams`, by the names `specs` gives them. */
export function namedArgs<P extends readonly ParamSpec[]>(specs: P, values: readonly ParamValue[]): ArgsOf<P> {
  const out: Record<string, ParamValue> = {};
  const n = Math.min(specs.length, values.length);
  for (let i = 0; i < n; i++) out[specs[i].name] = values[i];
  return out as ArgsOf<P>;
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

/** Each byte as a one-character string, made once (one-letter parameters are common). */
const ONE_CHAR = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));

/** Bytes [a, b) as text, one character per byte (ISO-8859-1). */
export function latin1(raw: Uint8Array, a = 0, b = raw.length): string {
  // Long runs (^GF and ~DG payloads) in one native call; a parameter of a few bytes is cheaper as a loop.
  if (b - a > 32) return Buffer.from(raw.buffer, raw.byteOffset + a, b - a).toString('latin1');
  if (b - a === 1) return ONE_CHAR[raw[a]];
  let s = '';
  for (let k = a; k < b; k++) s += String.fromCharCode(raw[k]);
  return s;
}

/**
 * Reads parameters by their specs: absent -> default, out of range -> clamped, invalid -> default,
 * each correction logged with the parameter's byte position. Parameters are read in evaluation order:
 * in table order, except that a parameter another one depends on (`atLeast`) is read before it.
 */
export function readParams(
  command: string,
  parts: RawParam[],
  specs: readonly ParamSpec[],
  log: DiagnosticLog | undefined,
  context: ReadContext = {},
): ParamValue[] {
  const firstParamNumber = context.firstParamNumber ?? 1;
  const unitScale = context.unitScale ?? 1;
  const { order, pairsFrom } = tableShape(specs);
  // Pairs past the last parameter written are left out (their names read undefined, as their values would be):
  // ^CI's 256 pairs cost a render 16 % when each was read, defaulted and named on every ^CI28.
  const count = Math.max(pairsFrom, Math.min(parts.length, specs.length));
  const values: ParamValue[] = new Array(count).fill(undefined);
  // One reporter for all the parameters (a closure a parameter was the reader's main garbage).
  const where = (k: number, msg: string) =>
    log?.add({
      byteIndex: parts[k] ? parts[k].offset : 0,
      byteSize: parts[k] ? parts[k].size : 0,
      command,
      param: k + firstParamNumber,
      message: msg,
    });
  for (const k of count === specs.length ? order : order.slice(0, count)) {
    const spec = specs[k];
    const part = parts[k];
    const text = part?.text.trim() ?? '';
    const floor = spec.atLeast === undefined ? undefined : values[specs.findIndex((s) => s.name === spec.atLeast)];
    let value: ParamValue;
    if (text === '') value = typeof floor === 'number' ? floor : spec.def;
    else
      value = readOne(
        spec,
        NUMERIC[spec.kind] ? rangeOf(spec, typeof floor === 'number' ? floor : undefined, unitScale) : NO_RANGE,
        text,
        k,
        where,
      );
    values[k] = spec.kind === 'bool' && value !== undefined ? value === 'Y' : value;
  }
  if (parts.length > specs.length && log) {
    const extra = parts[specs.length];
    if (parts.slice(specs.length).some((p) => p.text.trim() !== '')) {
      log.add({
        byteIndex: extra.offset,
        byteSize: parts[parts.length - 1].offset + parts[parts.length - 1].size - extra.offset,
        command,
        param: specs.length + firstParamNumber,
        message: 'Ignored extra parameters',
      });
    }
  }
  return values;
}

/** 0..n-1, by n: the evaluation order of every table without dependencies (most), made once. */
const TABLE_ORDER: number[][] = [];

/** What reading a table needs besides its specs, worked out once per table. */
interface TableShape {
  order: readonly number[];
  /** Where the trailing numbered pairs with no default begin (the table's length when it has none). */
  pairsFrom: number;
}
const TABLE_SHAPES = new WeakMap<readonly ParamSpec[], TableShape>();

function tableShape(specs: readonly ParamSpec[]): TableShape {
  let shape = TABLE_SHAPES.get(specs);
  if (shape) return shape;
  const order = evaluationOrder(specs);
  let pairsFrom = specs.length;
  // Only in table order (a pair never bounds another parameter), and only pairs whose absent value is undefined.
  if (order === TABLE_ORDER[specs.length])
    while (pairsFrom > 0 && PAIRED.has(specs[pairsFrom - 1]) && specs[pairsFrom - 1].def === undefined) pairsFrom--;
  shape = { order, pairsFrom };
  TABLE_SHAPES.set(specs, shape);
  return shape;
}

/** Table order, each parameter preceded by the one its range depends on. */
function evaluationOrder(specs: readonly ParamSpec[]): readonly number[] {
  if (!specs.some((s) => s.atLeast !== undefined))
    return (TABLE_ORDER[specs.length] ??= Array.from(specs, (_, k) => k));
  const order: number[] = [];
  const visit = (k: number, depth: number): void => {
    if (order.includes(k) || depth > specs.length) return;
    const dependsOn = specs[k].atLeast;
    if (dependsOn !== undefined) {
      const d = specs.findIndex((s) => s.name === dependsOn);
      if (d >= 0) visit(d, depth + 1);
    }
    order.push(k);
  };
  for (let k = 0; k < specs.length; k++) visit(k, 0);
  return order;
}

/** A numeric parameter's bounds in the units it is written in. */
interface Range {
  min?: number;
  max?: number;
}

/** Only numbers have a range (the others skip building one). */
const NUMERIC: Record<ParamKind, boolean> = { int: true, float: true, enum: false, text: false, bool: false };
const NO_RANGE: Range = {};

/** The declared range, raised to the value of the parameter it depends on; `length` bounds are dots, turned into ^MU units. */
function rangeOf(spec: ParamSpec, floor: number | undefined, unitScale: number): Range {
  const scale = spec.length ? unitScale : 1;
  const min = spec.min === undefined ? undefined : toUnits(spec.min, scale);
  return {
    min: floor === undefined ? min : Math.max(min ?? floor, floor),
    max: spec.max === undefined ? undefined : toUnits(spec.max, scale),
  };
}

function toUnits(dots: number, scale: number): number {
  return scale === 1 ? dots : Number((dots / scale).toPrecision(6));
}

/** Parameter `k`'s value from its text; corrections go to `where`. */
function readOne(
  spec: ParamSpec,
  range: Range,
  text: string,
  k: number,
  where: (k: number, m: string) => void,
): ParamValue {
  switch (spec.kind) {
    case 'int':
    case 'float': {
      if (spec.words?.includes(text.toUpperCase())) return text.toUpperCase();
      let v = spec.kind === 'int' ? parseIntLoose(text) : parseFloatLoose(text);
      if (v === undefined) {
        // Printers skip leading junk before a number (`^FOB50,660` prints at x=50).
        const rest = text.replace(/^[^\d+\-.]+/, '');
        v = rest !== text ? (spec.kind === 'int' ? parseIntLoose(rest) : parseFloatLoose(rest)) : undefined;
        if (v === undefined) {
          where(k, `Invalid value ${text}; used ${spec.def ?? 'default'} instead`);
          return spec.def;
        }
        where(k, `Invalid value ${text}; used ${v} instead`);
      }
      if (range.min !== undefined && v < range.min) {
        where(k, `Value ${text} is less than minimum value ${range.min}; used ${range.min} instead`);
        return range.min;
      }
      if (range.max !== undefined && v > range.max) {
        where(k, `Value ${text} is greater than maximum value ${range.max}; used ${range.max} instead`);
        return range.max;
      }
      return v;
    }
    case 'enum': {
      const u = text.toUpperCase();
      if (spec.values && !spec.values.includes(u)) {
        where(k, `Invalid value ${text}; used ${spec.def ?? 'default'} instead`);
        return spec.def;
      }
      return u;
    }
    case 'bool': {
      const u = text.toUpperCase();
      if (u !== 'Y' && u !== 'N') {
        where(k, `Invalid value ${text}; used ${spec.def ?? 'default'} instead`);
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
  const digits = plainDigits(text);
  if (digits !== undefined) return digits;
  const m = /^[+-]?\d+/.exec(text.trim());
  if (!m) {
    const f = /^[+-]?\d*\.\d+/.exec(text.trim());
    return f ? Math.trunc(Number(f[0])) : undefined;
  }
  return Number.parseInt(m[0], 10);
}

export function parseFloatLoose(text: string): number | undefined {
  const digits = plainDigits(text);
  if (digits !== undefined) return digits;
  const m = /^[+-]?(\d+\.?\d*|\.\d+)/.exec(text.trim());
  return m ? Number(m[0]) : undefined;
}

/**
 * The value of 1 to 15 decimal digits and nothing else (most parameters), read without a regular expression; other
 * text is undefined. 15 digits stay exact in a double, as parseInt and Number read them.
 */
function plainDigits(text: string): number | undefined {
  const n = text.length;
  if (n === 0 || n > 15) return undefined;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    v = v * 10 + d;
  }
  return v;
}
