// Splits ZPL bytes into commands, keeping byte offsets for diagnostics.
// Knows the few commands whose payload is not comma-separated text (field data, comments,
// binary downloads) and the prefix-changing commands, which affect tokenizing itself.

import type { DecodeMeter } from '../decode/meter.js';
import { finish, type Steps } from '../steps.js';

export interface Token {
  /** `^` or `~` (the canonical prefix, whatever character the document currently uses). */
  prefix: '^' | '~';
  /** Upper-case command name without prefix: `FO`, `A` (fonts: the font letter is param 1), `B3`, `DG`. */
  name: string;
  /** Byte offset of the prefix character. */
  start: number;
  /** Byte offset where the parameters begin. */
  paramStart: number;
  /** Byte offset just past the command. */
  end: number;
  /** Parameter bytes as written (CR and LF removed for text payloads; untouched for binary ones). */
  raw: Uint8Array;
  /** Byte offset in the document of each byte of `raw` (so diagnostics survive removed CR/LF). */
  offsets: Int32Array;
  /** Current parameter delimiter (^CD), normally `,`. */
  delimiter: number;
  /** Bytes outside any command (name is empty): the printer ignores them, the linter reports them in order. */
  stray?: boolean;
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * Commands whose data after `commas` delimiters may be binary, cut by the byte count in parameter
 * `countParam` (0-based) when `binary` says so from the parameters read so far.
 */
interface CountedPayload {
  commas: number;
  countParam: number;
  binary: (params: string[]) => boolean;
}

const COUNTED_PAYLOADS: Record<string, CountedPayload> = {
  '^GF': { commas: 4, countParam: 1, binary: (p) => p[0] === 'B' || p[0] === 'C' },
  '~DY': { commas: 5, countParam: 3, binary: (p) => p[1] === 'B' || p[1] === 'C' },
  '~DB': { commas: 8, countParam: 7, binary: () => true },
};

interface LexState {
  caret: number;
  tilde: number;
  delim: number;
  /** Where the last command name read ended (readName's second answer, kept here: no object a token). */
  nameEnd: number;
}

/** Tokenizes a whole document. Stray bytes outside commands become `stray` tokens, never errors. */
export function lex(bytes: Uint8Array, meter?: DecodeMeter): Token[] {
  return finish(lexSteps(bytes, meter));
}

/** lex() as steps: it may pause after any token when the meter's slice is spent. */
export function* lexSteps(bytes: Uint8Array, meter?: DecodeMeter): Steps<Token[]> {
  // One pass over the bytes, charged before it and per token. The payload slab (5 bytes an input byte) is bounded by
  // the upload limit; the tokens are claimed past the first UNCLAIMED_TOKENS (a carrier label has a few hundred).
  meter?.charge(bytes.length);
  const st: LexState = { caret: 0x5e, tilde: 0x7e, delim: 0x2c, nameEnd: 0 };
  const slab = new PayloadSlab(bytes.length);
  const tokens: Token[] = [];
  let i = 0;
  const n = bytes.length;
  let strayStart = -1;
  const flushStray = (at: number) => {
    if (strayStart >= 0) {
      let a = strayStart,
        b = at;
      while (a < b && isBlank(bytes[a])) a++;
      while (b > a && isBlank(bytes[b - 1])) b--;
      if (a < b) {
        const { raw, offsets } = slab.payload(bytes, a, b, false);
        tokens.push({
          prefix: '^',
          name: '',
          start: a,
          paramStart: a,
          end: b,
          raw,
          offsets,
          delimiter: st.delim,
          stray: true,
        });
      }
    }
    strayStart = -1;
  };
  while (i < n) {
    const b = bytes[i];
    if (b !== st.caret && b !== st.tilde) {
      if (strayStart < 0) strayStart = i;
      i++;
      continue;
    }
    flushStray(i);
    const prefix: '^' | '~' = b === st.caret ? '^' : '~';
    const start = i;
    i++;
    const name = readName(bytes, i, st);
    i = st.nameEnd;
    const paramStart = i;
    // Looked up only for the three names that have one, not with a key string made for every command.
    const counted = name === 'GF' || name === 'DY' || name === 'DB' ? COUNTED_PAYLOADS[prefix + name] : undefined;
    let end: number;
    if (name === 'CC' || name === 'CT' || name === 'CD') {
      // One character argument, applied immediately.
      end = Math.min(n, i + 1);
      if (i < n) {
        const c = bytes[i];
        if (name === 'CC') st.caret = c;
        else if (name === 'CT') st.tilde = c;
        else st.delim = c;
      }
    } else if (counted) end = countedPayloadEnd(bytes, i, st, counted);
    else end = nextPrefix(bytes, i, st);
    const { raw, offsets } = slab.payload(bytes, paramStart, end, !counted);
    meter?.charge(TOKEN_UNITS);
    tokens.push({ prefix, name, start, paramStart, end, raw, offsets, delimiter: st.delim });
    i = end;
    if (meter?.sliceDue) yield;
  }
  flushStray(n);
  if (tokens.length > UNCLAIMED_TOKENS)
    meter?.claim((tokens.length - UNCLAIMED_TOKENS) * TOKEN_BYTES, `${tokens.length} commands`);
  return tokens;
}

/** What making one token charges (its object and views): a checkpoint every 1024 tokens. */
const TOKEN_UNITS = 64;

/** Tokens any document may have without claiming them: budgets of ordinary documents stay as they were. */
const UNCLAIMED_TOKENS = 8192;

/** What one token object holds on the heap, about (its fields and two typed-array views). */
const TOKEN_BYTES = 160;

/** The first prefix character at or after `j` (or the end of input): where a text payload stops. */
function nextPrefix(bytes: Uint8Array, j: number, st: LexState): number {
  while (j < bytes.length && bytes[j] !== st.caret && bytes[j] !== st.tilde) j++;
  return j;
}

/** Whitespace, NUL and the UTF-8 byte-order mark are not content. */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === CR || c === LF || c === 0 || c === 0xef || c === 0xbb || c === 0xbf;
}

/** Command names: two characters, except `^A` (font letter follows) and lone letters before a prefix. */
function readName(bytes: Uint8Array, i: number, st: LexState): string {
  const n = bytes.length;
  let j = i;
  let count = 0,
    first = 0,
    second = 0;
  // Printers ignore line breaks inside a command name.
  while (j < n && count < 2) {
    const c = bytes[j];
    if (c === CR || c === LF) {
      j++;
      continue;
    }
    if (c === st.caret || c === st.tilde) break;
    // ASCII letters only: String#toUpperCase would turn a stray latin1 `ß` into `SS`, a different command.
    const upper = c >= 0x61 && c <= 0x7a ? c - 0x20 : c;
    if (count === 0) first = upper;
    else second = upper;
    count++;
    j++;
    // `^A` is always a font selection; the font name (`0`, `A`..`Z`, `@`) is its first parameter.
    if (count === 1 && (c === 0x41 || c === 0x61) && bytes[i - 1] === st.caret) {
      st.nameEnd = j;
      return 'A';
    }
  }
  st.nameEnd = j;
  return nameOf(count === 0 ? -1 : count === 1 ? first : 0x10000 | (first << 8) | second);
}

/** Each name once, by its character codes (a document of 300,000 commands made as many strings before). */
const NAMES = new Map<number, string>();

function nameOf(key: number): string {
  let name = NAMES.get(key);
  if (name === undefined) {
    name = key < 0 ? '' : key < 0x10000 ? String.fromCharCode(key) : String.fromCharCode((key >> 8) & 0xff, key & 0xff);
    NAMES.set(key, name);
  }
  return name;
}

/** End of a command with a counted payload (see COUNTED_PAYLOADS). */
function countedPayloadEnd(bytes: Uint8Array, i: number, st: LexState, spec: CountedPayload): number {
  const n = bytes.length;
  const params: string[] = [];
  let j = i;
  let cur = '';
  while (j < n && params.length < spec.commas) {
    const c = bytes[j];
    if (c === st.caret || c === st.tilde) return j;
    if (c === st.delim) {
      params.push(cur.trim().toUpperCase());
      cur = '';
    } else if (c !== CR && c !== LF) cur += String.fromCharCode(c);
    j++;
  }
  if (params.length < spec.commas || !spec.binary(params)) return nextPrefix(bytes, j, st);
  // A `:Z64:`/`:B64:` payload is text even in binary formats (binary data may start with any other `:`).
  if (isBase64Tag(bytes, j)) return nextPrefix(bytes, j, st);
  const count = Number.parseInt(params[spec.countParam] ?? '', 10);
  // A missing count, or one running past the end of the input, is not trusted: the data ends at the next command.
  if (!Number.isFinite(count) || count < 0 || j + count > n) return nextPrefix(bytes, j, st);
  return j + count;
}

/** `:Z64:` or `:B64:` (either letter case) at `j`. */
function isBase64Tag(bytes: Uint8Array, j: number): boolean {
  if (j + 5 > bytes.length) return false;
  const kind = bytes[j + 1] | 0x20; // lower-cases letters
  return (
    bytes[j] === 0x3a &&
    (kind === 0x7a || kind === 0x62) &&
    bytes[j + 2] === 0x36 &&
    bytes[j + 3] === 0x34 &&
    bytes[j + 4] === 0x3a
  );
}

/**
 * The document's payloads, each a view of two arrays made once per document (payloads never overlap, so they fit
 * in the document's length): hundreds of small typed arrays a label were most of the lexer's garbage.
 */
/** The payload of a command without parameters (never written to: a view of length 0). */
const NO_PAYLOAD = { raw: new Uint8Array(0), offsets: new Int32Array(0) };

class PayloadSlab {
  readonly #raw: Uint8Array;
  readonly #offsets: Int32Array;
  #used = 0;
  constructor(size: number) {
    this.#raw = new Uint8Array(size);
    this.#offsets = new Int32Array(size);
  }

  /** Bytes [a, b) of the document, line breaks left out when `stripLineBreaks`. */
  payload(bytes: Uint8Array, a: number, b: number, stripLineBreaks: boolean): { raw: Uint8Array; offsets: Int32Array } {
    // Commands without parameters share one empty payload: two typed-array views a token were most of lexing's time.
    if (a >= b) return NO_PAYLOAD;
    const raw = this.#raw,
      offsets = this.#offsets,
      start = this.#used;
    let k = start;
    for (let p = a; p < b; p++) {
      const c = bytes[p];
      if (stripLineBreaks && (c === CR || c === LF)) continue;
      raw[k] = c;
      offsets[k] = p;
      k++;
    }
    this.#used = k;
    return { raw: raw.subarray(start, k), offsets: offsets.subarray(start, k) };
  }
}
