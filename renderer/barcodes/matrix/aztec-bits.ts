// Aztec data bits as the legacy renderer's encoder writes them: every character gets the tables (upper, lower,
// mixed, punctuation, digit, byte) that hold it, runs of characters are merged into blocks that share a
// table, blocks shorter than three characters are shifted rather than latched, and table changes take
// fixed routes. bwip-js adds bit stuffing, padding and error correction from these bits (its `raw` input).

const UPPER = 1;
const LOWER = 2;
const MIXED = 4;
const PUNCT = 8;
const DIGIT = 16;
const BINARY = 32;
/** Typemap values above SHIFT are one-character shifts into (value - SHIFT). */
const SHIFT = 64;

// Tables holding each ASCII character (ISO/IEC 24778 Table 2): bit flags as above.
const CODE_SET = [
  32,
  4,
  4,
  4,
  4,
  4,
  4,
  4,
  4,
  4,
  4,
  4,
  4,
  12,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  32,
  4,
  4,
  4,
  4,
  4,
  23,
  8,
  8,
  8,
  8,
  8,
  8,
  8,
  8,
  8,
  8,
  8,
  24,
  8,
  24,
  8,
  16,
  16,
  16,
  16,
  16,
  16,
  16,
  16,
  16,
  16,
  8,
  8,
  8,
  8,
  8,
  8,
  4,
  ...Array<number>(26).fill(1),
  8,
  4,
  8,
  4,
  4,
  4,
  ...Array<number>(26).fill(2),
  8,
  4,
  8,
  4,
  4,
];
// Value of each ASCII character in its table(s); CR, comma and full stop differ by table (resolved later).
const CR = 300;
const COMMA = 301;
const STOP = 302;
const SYMBOL_VALUE = [
  0,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  CR,
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  23,
  24,
  25,
  26,
  15,
  16,
  17,
  18,
  19,
  1,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  COMMA,
  18,
  STOP,
  20,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  21,
  22,
  23,
  24,
  25,
  26,
  20,
  ...Array.from({ length: 26 }, (_, i) => i + 2),
  27,
  21,
  28,
  22,
  23,
  24,
  ...Array.from({ length: 26 }, (_, i) => i + 2),
  29,
  25,
  30,
  26,
  27,
];

/** First table of a set, in the order given. */
function pick(t: number, order: readonly number[]): number {
  for (const o of order) if (t & o) return o;
  return t;
}

const bits = (v: number, n: number) => v.toString(2).padStart(n, '0');

const P = (v: number) => bits(v, 5);
const Q = (v: number) => bits(v, 4);
// Codes: US/LL 28, ML/UL(mixed) 29, DL/PL 30, BS/UL(punct) 31, PS 0; in the digit table UL 14, US 15, PS 0.
const [US, LL, ML, DL, BS, PS] = [P(28), P(28), P(29), P(30), P(31), P(0)];
const UL_FROM: Record<number, string> = { [MIXED]: P(29), [PUNCT]: P(31), [DIGIT]: Q(14) };

/**
 * Fixed routes into table `to` from table `from`: the codes and the table in force afterwards. Shifts into
 * upper or punctuation from lower/digit stay in the old table; the other "shifts" really latch.
 */
const SHIFTS: Record<number, Record<number, [string, number]>> = {
  [UPPER]: {
    [LOWER]: [US, LOWER],
    [MIXED]: [UL_FROM[MIXED], UPPER],
    [PUNCT]: [UL_FROM[PUNCT], UPPER],
    [DIGIT]: [Q(15), DIGIT],
  },
  [LOWER]: {
    [UPPER]: [LL, LOWER],
    [MIXED]: [LL, LOWER],
    [PUNCT]: [UL_FROM[PUNCT] + LL, LOWER],
    [DIGIT]: [UL_FROM[DIGIT] + LL, LOWER],
  },
  [MIXED]: {
    [UPPER]: [ML, MIXED],
    [LOWER]: [ML, MIXED],
    [PUNCT]: [UL_FROM[PUNCT] + ML, MIXED],
    [DIGIT]: [UL_FROM[DIGIT] + ML, MIXED],
  },
  [PUNCT]: { [UPPER]: [PS, UPPER], [LOWER]: [PS, LOWER], [MIXED]: [PS, MIXED], [DIGIT]: [Q(0), DIGIT] },
  [DIGIT]: {
    [UPPER]: [DL, DIGIT],
    [LOWER]: [DL, DIGIT],
    [MIXED]: [UL_FROM[MIXED] + DL, DIGIT],
    [PUNCT]: [UL_FROM[PUNCT] + DL, DIGIT],
  },
};
const LATCHES: Record<number, Record<number, [string, number]>> = {
  [UPPER]: {
    [LOWER]: [ML + UL_FROM[MIXED], UPPER],
    [MIXED]: [UL_FROM[MIXED], UPPER],
    [PUNCT]: [UL_FROM[PUNCT], UPPER],
    [DIGIT]: [UL_FROM[DIGIT], UPPER],
  },
  [LOWER]: {
    [UPPER]: [LL, LOWER],
    [MIXED]: [LL, LOWER],
    [PUNCT]: [UL_FROM[PUNCT] + LL, LOWER],
    [DIGIT]: [UL_FROM[DIGIT] + LL, LOWER],
  },
  [MIXED]: {
    [UPPER]: [ML, MIXED],
    [LOWER]: [ML, MIXED],
    [PUNCT]: [UL_FROM[PUNCT] + ML, MIXED],
    [DIGIT]: [UL_FROM[DIGIT] + ML, MIXED],
  },
  [PUNCT]: {
    [UPPER]: [ML + P(30), PUNCT],
    [LOWER]: [ML + P(30), PUNCT],
    [MIXED]: [P(30), PUNCT],
    [DIGIT]: [UL_FROM[DIGIT] + ML + P(30), PUNCT],
  },
  [DIGIT]: {
    [UPPER]: [DL, DIGIT],
    [LOWER]: [DL, DIGIT],
    [MIXED]: [UL_FROM[MIXED] + DL, DIGIT],
    [PUNCT]: [UL_FROM[PUNCT] + DL, DIGIT],
  },
  [BINARY]: {
    [UPPER]: [BS, BINARY],
    [LOWER]: [BS, BINARY],
    [MIXED]: [BS, BINARY],
    [PUNCT]: [UL_FROM[PUNCT] + BS, BINARY],
    [DIGIT]: [UL_FROM[DIGIT] + BS, BINARY],
  },
};

function route(from: number, type: number): { code: string; to: number } {
  const r = (type > SHIFT ? SHIFTS[type - SHIFT] : LATCHES[type])?.[from];
  return r ? { code: r[0], to: r[1] } : { code: '', to: from };
}

/** The bit string for `data` (bytes). */
export function aztecBits(data: Uint8Array): string {
  const charmap: number[] = [];
  const typemap: number[] = [];
  for (const c of data) {
    if (c > 0x7f || c === 0) {
      charmap.push(c);
      typemap.push(BINARY);
    } else {
      charmap.push(SYMBOL_VALUE[c]);
      typemap.push(CODE_SET[c]);
    }
  }
  // Two-character punctuation codes: ". ", ", ", ": ".
  for (let i = 0; i < charmap.length - 1; i++) {
    const pair = (a: number, ta: number, code: number) => {
      if (charmap[i] === a && charmap[i + 1] === 1 && typemap[i] === ta && typemap[i + 1] === 23) {
        charmap.splice(i, 2, code);
        typemap.splice(i, 2, PUNCT);
      }
    };
    pair(STOP, 24, 3);
    pair(COMMA, 24, 4);
    pair(21, 8, 5);
  }
  // Runs of characters with the same tables, then narrowed so neighbours share a table where they can.
  const blocks: Array<{ type: number; length: number }> = [];
  for (const t of typemap) {
    const last = blocks[blocks.length - 1];
    if (last && last.type === t) last.length++;
    else blocks.push({ type: t, length: 1 });
  }
  const first = [UPPER, LOWER, MIXED, PUNCT];
  if (blocks.length) blocks[0].type = pick(blocks[0].type, first);
  if (blocks.length > 1) {
    for (let i = 1; i < blocks.length; i++)
      if (blocks[i].type & blocks[i - 1].type) blocks[i].type &= blocks[i - 1].type;
    const last = blocks[blocks.length - 1];
    last.type = pick(last.type, first);
    for (let i = blocks.length - 2; i > 0; i--)
      if (blocks[i].type & blocks[i + 1].type) blocks[i].type &= blocks[i + 1].type;
    for (let i = 1; i < blocks.length; i++) blocks[i].type = pick(blocks[i].type, [PUNCT, MIXED, LOWER, UPPER]);
    for (let i = 0; i < blocks.length - 1; ) {
      if (blocks[i].type === blocks[i + 1].type) {
        blocks[i].length += blocks[i + 1].length;
        blocks.splice(i + 1, 1);
      } else i++;
    }
  }
  let at = 0;
  for (const b of blocks) {
    for (let k = 0; k < b.length; k++) typemap[at + k] = b.length < 3 && b.type !== BINARY ? b.type + SHIFT : b.type;
    at += b.length;
  }
  if (typemap[0] === UPPER + SHIFT) typemap[0] = UPPER;
  // CR, comma and full stop take the value of the table they ended up in.
  for (let i = 0; i < charmap.length; i++) {
    const t = typemap[i] > SHIFT ? typemap[i] - SHIFT : typemap[i];
    if (charmap[i] === CR) charmap[i] = t === PUNCT ? 1 : 14;
    else if (charmap[i] === COMMA) charmap[i] = t === PUNCT ? 17 : 12;
    else if (charmap[i] === STOP) charmap[i] = t === PUNCT ? 19 : 13;
  }
  let out = '';
  let cur = UPPER;
  let beforeBinary = UPPER;
  for (let i = 0; i < charmap.length; i++) {
    let next = cur;
    if (typemap[i] !== cur) {
      // Leaving byte mode the encoder carries on as if in the table it entered byte mode from.
      if (cur === BINARY) {
        cur = beforeBinary;
        next = beforeBinary;
      }
      if (typemap[i] === BINARY) {
        beforeBinary = cur;
        const r = route(cur, BINARY);
        out += r.code;
        next = BINARY;
        let n = 0;
        while (i + n < typemap.length && typemap[i + n] === BINARY) n++;
        out += n > 31 ? '00000' + bits(n - 31, 11) : bits(n, 5);
      } else if (typemap[i] !== cur) {
        const r = route(cur, typemap[i]);
        out += r.code;
        next = r.to;
      }
    }
    cur = next;
    const type = typemap[i] > SHIFT ? typemap[i] - SHIFT : typemap[i];
    out += type === DIGIT ? bits(charmap[i], 4) : type === BINARY ? bits(charmap[i], 8) : bits(charmap[i], 5);
  }
  return out;
}

/** Codeword size in bits for a layer count (Table 3). */
export function aztecWordSize(layers: number): number {
  return layers <= 2 ? 6 : layers <= 8 ? 8 : layers <= 22 ? 10 : 12;
}

/** Codewords in a symbol. */
export function aztecCapacity(compact: boolean, layers: number): number {
  return Math.floor((((compact ? 88 : 112) + 16 * layers) * layers) / aztecWordSize(layers));
}

/** Data codewords after bit stuffing (a word may not be all ones or all zeros) and padding. */
export function aztecDataWords(data: string, size: number): number {
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < data.length) {
    if ((j + 1) % size === 0) {
      const word = data.slice(i - (size - 1), i);
      const ones = [...word].filter((b) => b === '1').length;
      if (ones === size - 1 || ones === 0) {
        j++;
        n++;
        continue;
      }
    }
    i++;
    j++;
    n++;
  }
  return Math.ceil(n / size);
}

export interface AztecSize {
  compact: boolean;
  layers: number;
}

/** Symbols in order of side length, compact first where both have the same side. */
const SIZES: AztecSize[] = [
  ...[1, 2, 3, 4].map((layers) => ({ compact: true, layers })),
  ...Array.from({ length: 32 }, (_, i) => ({ compact: false, layers: i + 1 })),
].sort((a, b) => side(a) - side(b) || Number(b.compact) - Number(a.compact));

/** Side in modules; full-range symbols add a reference grid line pair every 16 modules. */
function side(s: AztecSize): number {
  if (s.compact) return 11 + 4 * s.layers;
  const base = 14 + 4 * s.layers;
  return base + 1 + 2 * Math.floor((base / 2 - 1) / 15);
}

/**
 * The smallest symbol whose error correction words reach `percent` of its codewords, less three words (how
 * the legacy renderer sizes ^BO symbols for an error control percentage).
 */
export function aztecSize(data: string, percent: number): AztecSize {
  for (const s of SIZES) {
    const total = aztecCapacity(s.compact, s.layers);
    const words = aztecDataWords(data, aztecWordSize(s.layers));
    if (words <= total && total - words >= (percent / 100) * total - 3) return s;
  }
  throw new Error('Data too long for an Aztec symbol');
}
