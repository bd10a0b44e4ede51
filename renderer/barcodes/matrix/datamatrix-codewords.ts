// Data Matrix ECC 200 data codewords as the legacy renderer's encoder produces them: ASCII by default, switching
// to C40 / Text / X12 / EDIFACT / Base 256 by the ISO/IEC 16022 Annex P look-ahead test (with its EDIFACT costs
// raised), and its own way of finishing a partly filled C40/Text/X12/EDIFACT group once the symbol size is known.
// bwip-js adds padding and error correction and lays the symbol out from these codewords (its `raw` input).

/** FNC1 in the input (the ZPL `~1` escape). */
export const FNC1 = -1;

type Mode = 'ascii' | 'c40' | 'text' | 'x12' | 'edifact' | 'b256';

const LATCH: Record<Exclude<Mode, 'ascii'>, number> = { c40: 230, text: 239, x12: 238, edifact: 240, b256: 231 };
const UNLATCH = 254;

/** Data capacities of ECC 200 symbols, rows x columns (squares, then the six rectangles). */
export const DM_SIZES: ReadonlyArray<{ rows: number; cols: number; bytes: number }> = [
  [10, 10, 3],
  [12, 12, 5],
  [14, 14, 8],
  [16, 16, 12],
  [18, 18, 18],
  [20, 20, 22],
  [22, 22, 30],
  [24, 24, 36],
  [26, 26, 44],
  [32, 32, 62],
  [36, 36, 86],
  [40, 40, 114],
  [44, 44, 144],
  [48, 48, 174],
  [52, 52, 204],
  [64, 64, 280],
  [72, 72, 368],
  [80, 80, 456],
  [88, 88, 576],
  [96, 96, 696],
  [104, 104, 816],
  [120, 120, 1050],
  [132, 132, 1304],
  [144, 144, 1558],
  [8, 18, 5],
  [8, 32, 10],
  [12, 26, 16],
  [12, 36, 22],
  [16, 36, 32],
  [16, 48, 49],
].map(([rows, cols, bytes]) => ({ rows, cols, bytes }));

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isX12 = (c: number) => c === 13 || c === 42 || c === 62 || c === 32 || isDigit(c) || isUpper(c);

/** C40 (or Text, with the cases swapped) set and value of a character 0..127: set 0 is the basic set. */
function c40Value(c: number, text: boolean): [set: number, value: number] {
  if (c === 32) return [0, 3];
  if (isDigit(c)) return [0, c - 44];
  if (isUpper(c)) return text ? [3, c - 64] : [0, c - 51];
  if (isLower(c)) return text ? [0, c - 83] : [3, c - 96];
  if (c < 32) return [1, c];
  if (c <= 47) return [2, c - 33];
  if (c <= 64) return [2, c - 43];
  if (c <= 95) return [2, c - 69];
  return [3, c - 96];
}

/**
 * Annex P look-ahead as the legacy encoder runs it: decides after the fourth character (and at the end of
 * the data) with ASCII, Base 256, EDIFACT, Text, X12, C40 tried in that order; EDIFACT costs 13/4 (17/4
 * above 127) for characters it cannot hold.
 */
function lookAhead(data: readonly number[], pos: number, current: Mode): Mode {
  const fromAscii = current === 'ascii';
  let ascii = fromAscii ? 0 : 1;
  let c40 = fromAscii ? 1 : 2;
  let text = c40;
  let x12 = c40;
  let edf = c40;
  let b256 = fromAscii ? 1.25 : 2.25;
  if (current === 'c40') c40 = 0;
  if (current === 'text') text = 0;
  if (current === 'x12') x12 = 0;
  if (current === 'edifact') edf = 0;
  if (current === 'b256') b256 = 0;
  // Thirds and quarters compared exactly: counts are kept in twelfths.
  const q = (v: number) => Math.round(v * 12);
  for (let sp = pos; sp < data.length; sp++) {
    const c = data[sp];
    const high = c > 127;
    ascii = isDigit(c) ? ascii + 0.5 : Math.ceil(ascii) + (high ? 2 : 1);
    c40 += c === 32 || isDigit(c) || isUpper(c) ? 2 / 3 : high ? 8 / 3 : 4 / 3;
    text += c === 32 || isDigit(c) || isLower(c) ? 2 / 3 : high ? 8 / 3 : 4 / 3;
    x12 += isX12(c) ? 2 / 3 : high ? 13 / 3 : 10 / 3;
    edf += c >= 32 && c <= 94 ? 3 / 4 : high ? 17 / 4 : 13 / 4;
    b256 += c === FNC1 ? 4 : 1;
    if (sp >= pos + 3) {
      const [A, C, T, X, E, B] = [ascii, c40, text, x12, edf, b256].map(q);
      const one = 12;
      if (A + one <= Math.min(B, E, T, X, C)) return 'ascii';
      if (B + one <= A || B + one < Math.min(E, T, X, C)) return 'b256';
      if (E + one < Math.min(A, B, T, X, C)) return 'edifact';
      if (T + one < Math.min(A, B, E, X, C)) return 'text';
      if (X + one < Math.min(A, B, E, T, C)) return 'x12';
      if (C + one < Math.min(A, B, E, T)) {
        if (C < X) return 'c40';
        if (C === X) return x12TerminatorFirst(data, sp) ? 'x12' : 'c40';
      }
    }
  }
  const [A, C, T, X, E, B] = [ascii, c40, text, x12, edf, b256].map((v) => Math.ceil(v) * 12);
  if (A <= Math.min(B, E, T, X, C)) return 'ascii';
  if (B < Math.min(A, E, T, X, C)) return 'b256';
  if (E < Math.min(A, B, T, X, C)) return 'edifact';
  if (T < Math.min(A, B, E, X, C)) return 'text';
  if (X < Math.min(A, B, E, T, C)) return 'x12';
  return 'c40';
}

/** Annex P (r)(6)(ii)(I): an X12 terminator/separator comes before the first non-X12 character. */
function x12TerminatorFirst(data: readonly number[], from: number): boolean {
  let nonX12 = 0;
  let special = 0;
  for (let i = from; i < data.length; i++) {
    if (!nonX12 && !isX12(data[i])) nonX12 = i;
    if (!special && (data[i] === 13 || data[i] === 42 || data[i] === 62)) special = i;
  }
  return nonX12 !== 0 && special !== 0 && special < nonX12;
}

export interface DmEncoding {
  /** Codewords with the last group still open. */
  codewords: number[];
  /** Values waiting in an unfinished C40/Text/X12 triple or EDIFACT quadruple. */
  pending: number[];
  last: Mode;
  /** The input as encoded (a Macro 05/06 trailer removed). */
  data: readonly number[];
}

/** Encodes the data up to (not including) the end-of-data handling, which depends on the symbol size. */
export function encodeDataMatrixData(input: readonly number[]): DmEncoding {
  let data = input;
  const cw: number[] = [];
  /** Positions of Base 256 data bytes in `cw` (they get a length field and are randomised). */
  const b256: boolean[] = [];
  const push = (v: number, isB256 = false) => {
    cw.push(v);
    b256.push(isB256);
  };
  let pos = 0;
  // [)>RS05GS ... RS EOT and [)>RS06GS ... RS EOT become one macro codeword.
  const n = data.length;
  if (
    n >= 9 &&
    data[0] === 0x5b &&
    data[1] === 0x29 &&
    data[2] === 0x3e &&
    data[3] === 0x1e &&
    data[4] === 0x30 &&
    (data[5] === 0x35 || data[5] === 0x36) &&
    data[6] === 0x1d &&
    data[n - 2] === 0x1e &&
    data[n - 1] === 0x04
  ) {
    push(data[5] === 0x35 ? 236 : 237);
    pos = 7;
    data = data.slice(0, n - 2);
  }
  let mode: Mode = 'ascii';
  let next: Mode = 'ascii';
  let buf: number[] = [];
  // X12 and EDIFACT cannot unlatch inside a triple/quadruple: only enter or stay in them when the characters
  // up to the next decision point all fit (the legacy encoder would write an unreadable value there).
  const isEdifact = (c: number) => c >= 32 && c <= 94;
  const fits = (test: (c: number) => boolean, from: number, count: number) =>
    data.slice(from, from + count).every(test);
  const safe = (m: Mode, from: number): Mode => {
    if (m === 'x12' && !fits(isX12, from, 3)) return 'ascii';
    if (m === 'edifact' && !fits(isEdifact, from, 4)) return 'ascii';
    return m;
  };
  const flushTriples = () => {
    while (buf.length >= 3) {
      const v = 1600 * buf[0] + 40 * buf[1] + buf[2] + 1;
      push(v >> 8);
      push(v & 0xff);
      buf = buf.slice(3);
    }
  };
  while (pos < data.length) {
    mode = next;
    const c = data[pos];
    if (mode === 'ascii') {
      next = 'ascii';
      buf = [];
      if (pos + 1 < data.length && isDigit(c) && isDigit(data[pos + 1])) {
        push(130 + (c - 48) * 10 + (data[pos + 1] - 48));
        pos += 2;
        continue;
      }
      next = lookAhead(data, pos, 'ascii');
      if (next === 'x12' || next === 'edifact') next = safe(next, pos);
      if (next !== 'ascii') {
        push(LATCH[next]);
        continue;
      }
      if (c > 127) {
        push(235);
        push(c - 127);
      } else push(c === FNC1 ? 232 : c + 1);
      pos++;
    } else if (mode === 'c40' || mode === 'text') {
      next = buf.length === 0 ? lookAhead(data, pos, mode) : mode;
      if (next !== mode) {
        push(UNLATCH);
        next = 'ascii';
        continue;
      }
      let set: number;
      let value: number;
      if (c === FNC1) [set, value] = [2, 27];
      else if (c > 127) {
        buf.push(1, 30);
        [set, value] = c40Value(c - 128, mode === 'text');
      } else [set, value] = c40Value(c, mode === 'text');
      if (set) buf.push(set - 1);
      buf.push(value);
      flushTriples();
      pos++;
    } else if (mode === 'x12') {
      next = buf.length === 0 ? safe(lookAhead(data, pos, mode), pos) : mode;
      if (next !== mode) {
        push(UNLATCH);
        next = 'ascii';
        continue;
      }
      buf.push(
        c === 13 ? 0 : c === 42 ? 1 : c === 62 ? 2 : c === 32 ? 3 : isDigit(c) ? c - 44 : isUpper(c) ? c - 51 : 0,
      );
      flushTriples();
      pos++;
    } else if (mode === 'edifact') {
      next = buf.length === 3 ? safe(lookAhead(data, pos, mode), pos) : mode;
      if (next !== mode) {
        buf.push(31);
        next = 'ascii';
      } else {
        buf.push(c >= 64 && c <= 94 ? c - 64 : c >= 32 && c <= 63 ? c : 0);
        pos++;
      }
      while (buf.length >= 4) {
        push((buf[0] << 2) | ((buf[1] & 0x30) >> 4));
        push(((buf[1] & 0x0f) << 4) | ((buf[2] & 0x3c) >> 2));
        push(((buf[2] & 0x03) << 6) | buf[3]);
        buf = buf.slice(4);
      }
    } else {
      next = lookAhead(data, pos, 'b256');
      if (next === 'b256') {
        push(c & 0xff, true);
        pos++;
      } else next = 'ascii';
    }
  }
  // Base 256 runs: a length field in front, then the 255-state randomising of field and data.
  const out: number[] = [];
  const isB: boolean[] = [];
  for (let i = 0; i < cw.length; i++) {
    if (b256[i] && (i === 0 || !b256[i - 1])) {
      let len = 0;
      while (i + len < cw.length && b256[i + len]) len++;
      if (len <= 249) {
        out.push(len);
        isB.push(true);
      } else {
        out.push(Math.floor(len / 250) + 249, len % 250);
        isB.push(true, true);
      }
    }
    out.push(cw[i]);
    isB.push(b256[i]);
  }
  for (let i = 0; i < out.length; i++) {
    if (!isB[i]) continue;
    const prn = ((149 * (i + 1)) % 255) + 1;
    out[i] = (out[i] + prn) & 0xff;
  }
  return { codewords: out, pending: buf, last: mode, data };
}

/**
 * Finishes an encoding for a symbol with `capacity` data codewords: an open C40/Text triple is completed or
 * unlatched, X12 and EDIFACT leftovers are written in ASCII (or closed with an EDIFACT unlatch).
 */
export function finishDataMatrix(e: DmEncoding, capacity: number): number[] {
  const input = e.data;
  const out = e.codewords.slice();
  const left = capacity - out.length;
  const p = e.pending.length;
  const last = input[input.length - 1];
  const lastTwo = [input[input.length - 2] + 1, last + 1];
  switch (e.last) {
    case 'c40':
    case 'text':
      if (p === 1) {
        if (left > 1) out.push(UNLATCH);
        out.push(last + 1);
      } else if (p === 2) {
        const v = 1600 * e.pending[0] + 40 * e.pending[1] + 1;
        out.push(v >> 8, v & 0xff);
        if (left > 2) out.push(UNLATCH);
      } else if (left > 0) out.push(UNLATCH);
      break;
    case 'x12':
      if (left === p && p === 1) out.push(last + 1);
      else {
        if (p > 0 || left > 0) out.push(UNLATCH);
        if (p === 1) out.push(last + 1);
        if (p === 2) out.push(...lastTwo);
      }
      break;
    case 'edifact':
      if (left <= 2) {
        if (p === 1) out.push(last + 1);
        if (p === 2) out.push(...lastTwo);
      } else {
        const b = [...e.pending, 31, 0, 0, 0];
        if (p === 0) out.push(31 << 2);
        if (p === 1) out.push((b[0] << 2) | ((b[1] & 0x30) >> 4), (b[1] & 0x0f) << 4);
        if (p >= 2)
          out.push(
            (b[0] << 2) | ((b[1] & 0x30) >> 4),
            ((b[1] & 0x0f) << 4) | ((b[2] & 0x3c) >> 2),
            ((b[2] & 0x03) << 6) | (p === 3 ? b[3] : 0),
          );
      }
      break;
    default:
      break;
  }
  return out;
}

/** The smallest size (index into DM_SIZES) holding `needed` codewords, squares or rectangles only. */
export function dataMatrixSize(needed: number, rectangular: boolean): number {
  let best = -1;
  DM_SIZES.forEach((s, i) => {
    if ((s.rows === s.cols) === rectangular || s.bytes < needed) return;
    if (best < 0 || s.bytes < DM_SIZES[best].bytes) best = i;
  });
  if (best < 0) throw new Error('Data too long for a Data Matrix symbol');
  return best;
}
