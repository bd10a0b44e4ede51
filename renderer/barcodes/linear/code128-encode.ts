// Code 128 codewords the way ZPL ^BC builds them: mode N reads the `>` invocation codes (start and subset
// switches, FNC1..4, shift), mode A picks subsets automatically, modes U and D are the UCC/GS1-128 forms.

/** Bar/space widths in modules of codewords 0..106 (106 is the stop, seven elements). */
const PATTERNS = (
  '212222 222122 222221 121223 121322 131222 122213 122312 132212 221213 221312 231212 112232 122132 122231 113222 ' +
  '123122 123221 223211 221132 221231 213212 223112 312131 311222 321122 321221 312212 322112 322211 212123 212321 ' +
  '232121 111323 131123 131321 112313 132113 132311 211313 231113 231311 112133 112331 132131 113123 113321 133121 ' +
  '313121 211331 231131 213113 213311 213131 311123 311321 331121 312113 312311 332111 314111 221411 431111 111224 ' +
  '111422 121124 121421 141122 141221 112214 112412 122114 122411 142112 142211 241211 221114 413111 241112 134111 ' +
  '111242 121142 121241 114212 124112 124211 411212 421112 421211 212141 214121 412121 111143 111341 131141 114113 ' +
  '114311 411113 411311 113141 114131 311141 411131 211412 211214 211232 2331112'
).split(' ');

const CODE_C = 99,
  CODE_B = 100,
  CODE_A = 101,
  FNC1 = 102,
  FNC2 = 97,
  FNC3 = 96,
  SHIFT = 98;
const START = { A: 103, B: 104, C: 105 } as const;
type Subset = 'A' | 'B' | 'C';
/** Marks FNC1 inside data strings handed to the automatic encoder. */
const FNC1_CHAR = '\u00f1';

export type Code128Mode = 'N' | 'U' | 'A' | 'D';

export interface Code128Symbol {
  /** Start, data and shift/switch codewords; the check and stop are added by `code128Modules`. */
  codewords: number[];
  /** What the interpretation line shows. */
  text: string;
  /** Characters that could not be encoded and were left out. */
  skipped: number;
}

/** Run widths in modules (bar first) for codewords, with the mod-103 check and the stop appended. */
export function code128Modules(codewords: readonly number[]): number[] {
  let sum = codewords[0];
  for (let i = 1; i < codewords.length; i++) sum += codewords[i] * i;
  const all = [...codewords, sum % 103, 106];
  const out: number[] = [];
  for (const cw of all) for (const ch of PATTERNS[cw]) out.push(ch.charCodeAt(0) - 48);
  return out;
}

export function encodeCode128(data: string, mode: Code128Mode): Code128Symbol {
  switch (mode) {
    case 'A':
      return encodeAuto(data, data);
    case 'U':
      return encodeUcc(data);
    case 'D':
      return encodeGs1(data);
    default:
      return encodeInvocations(data);
  }
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Mode N: subset B unless the data starts with >9 (A), >: (B) or >; (C); `>x` codes do the rest. */
function encodeInvocations(data: string): Code128Symbol {
  let set: Subset = 'B';
  let i = 0;
  const starts: Record<string, Subset> = { '9': 'A', ':': 'B', ';': 'C' };
  if (data[0] === '>' && starts[data[1]]) {
    set = starts[data[1]];
    i = 2;
  }
  const cw: number[] = [START[set]];
  let text = '';
  let skipped = 0;
  let shifted = false;
  while (i < data.length) {
    const c = data[i];
    if (c === '>' && i + 1 < data.length) {
      const code = data[i + 1];
      i += 2;
      switch (code) {
        case '<':
          if (set !== 'C') {
            cw.push(62);
            text += '^';
          }
          break;
        case '0':
          if (set !== 'C') {
            cw.push(30);
            text += '>';
          }
          break;
        case '=':
          if (set !== 'C') {
            cw.push(94);
            text += '~';
          }
          break;
        case '1':
          if (set !== 'C') cw.push(95);
          break;
        case '2':
          if (set !== 'C') cw.push(FNC3);
          break;
        case '3':
          if (set !== 'C') cw.push(FNC2);
          break;
        case '4':
          if (set !== 'C') {
            cw.push(SHIFT);
            shifted = true;
          }
          break;
        case '5':
          if (set !== 'C') {
            cw.push(CODE_C);
            set = 'C';
          }
          break;
        case '6':
          cw.push(CODE_B);
          if (set !== 'B') set = 'B';
          break;
        case '7':
          cw.push(CODE_A);
          if (set !== 'A') set = 'A';
          break;
        case '8':
          cw.push(FNC1);
          break;
        default:
          break; // start codes past the start, unknown codes: nothing
      }
      continue;
    }
    const cur: Subset = shifted ? (set === 'A' ? 'B' : 'A') : set;
    shifted = false;
    if (cur === 'B') {
      const v = c.charCodeAt(0) - 32;
      if (v >= 0 && v < 96) {
        cw.push(v);
        text += c;
      } else skipped++;
      i++;
      continue;
    }
    // Subsets A and C take the data as digit pairs (ZPL II guide): a non-digit first character counts as 0,
    // a non-digit second character drops the pair.
    if (i + 1 >= data.length) {
      skipped++;
      i++;
      continue;
    }
    const d1 = data[i + 1];
    i += 2;
    if (!isDigit(d1)) {
      skipped += 2;
      continue;
    }
    const v = (isDigit(c) ? (c.charCodeAt(0) - 48) * 10 : 0) + d1.charCodeAt(0) - 48;
    if (cur === 'C') {
      cw.push(v);
      text += String(v).padStart(2, '0');
      continue;
    }
    if (v > 95) {
      skipped += 2;
      continue;
    }
    cw.push(v);
    if (v < 64) text += String.fromCharCode(v + 32);
  }
  return { codewords: cw, text, skipped };
}

/** Mode U: UCC case mode, 19 digits (zero-filled or cut) plus a mod-10 check, in subset C after FNC1. */
function encodeUcc(data: string): Code128Symbol {
  const digits = data.replace(/[^0-9]/g, '');
  const body = digits.slice(0, 19).padEnd(19, '0');
  const all = body + gs1CheckDigit(body);
  const cw = [START.C, FNC1];
  for (let i = 0; i < all.length; i += 2) cw.push(Number(all.slice(i, i + 2)));
  return { codewords: cw, text: all, skipped: data.length - digits.length };
}

/** Mode D: GS1-128; parentheses and spaces are for people only, `>8` separates fields, FNC1 leads. */
function encodeGs1(data: string): Code128Symbol {
  const shown = data.split('>8').join('');
  let content = data.replace(/[() ]/g, '').split('>8').join(FNC1_CHAR);
  if (!content.startsWith(FNC1_CHAR)) content = FNC1_CHAR + content;
  // An SSCC (AI 00) given without its check digit gets one, as the printer does.
  let text = shown;
  const sscc = /^\u00f100(\d{17})$/.exec(content);
  if (sscc) {
    const check = gs1CheckDigit(sscc[1]);
    content += check;
    text += check;
  }
  return encodeAuto(content, text);
}

/** GS1 mod-10 check digit (weights 3,1 from the right). */
export function gs1CheckDigit(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (digits.charCodeAt(i) - 48) * w;
  return String((10 - (sum % 10)) % 10);
}

/** How many digits follow position i, counting through FNC1 marks only between digit pairs. */
function digitRun(s: string, i: number): number {
  let n = 0;
  while (isDigit(s[i + n])) n++;
  return n;
}

/** Automatic subset choice (mode A, and the data part of GS1-128): C for runs of four or more digits. */
function encodeAuto(content: string, text: string): Code128Symbol {
  const cw: number[] = [];
  let set: Subset | undefined;
  let skipped = 0;
  const choose = (i: number): Subset => {
    const c = content[i];
    const run = digitRun(content, i);
    if (c === FNC1_CHAR) {
      if (set) return set;
      return digitRun(content, i + 1) >= 2 ? 'C' : 'B';
    }
    if (set === undefined) return run >= 2 ? 'C' : c.charCodeAt(0) < 32 ? 'A' : 'B';
    if (set === 'C') {
      if (run >= 2) return 'C';
      return c.charCodeAt(0) < 32 ? 'A' : 'B';
    }
    if (run >= 4 && run % 2 === 0) return 'C';
    const code = c.charCodeAt(0);
    if (code < 32) return 'A';
    if (set === 'A' && code < 96) return 'A';
    return 'B';
  };
  let i = 0;
  while (i < content.length) {
    const c = content[i];
    const code = c.charCodeAt(0);
    if (c !== FNC1_CHAR && code > 127) {
      skipped++;
      i++;
      continue;
    }
    const want = choose(i);
    if (want !== set) {
      cw.push(set === undefined ? START[want] : want === 'A' ? CODE_A : want === 'B' ? CODE_B : CODE_C);
      set = want;
    }
    if (c === FNC1_CHAR) {
      cw.push(FNC1);
      i++;
      continue;
    }
    if (set === 'C') {
      cw.push(Number(content.slice(i, i + 2)));
      i += 2;
      continue;
    }
    cw.push(set === 'A' ? (code < 32 ? code + 64 : code - 32) : code - 32);
    i++;
  }
  if (!cw.length) cw.push(START.B);
  return { codewords: cw, text, skipped };
}
