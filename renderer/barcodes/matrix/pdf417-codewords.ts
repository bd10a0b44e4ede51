// PDF417 / MicroPDF417 data codewords chosen the way the legacy renderer's encoder chooses them: the input is cut
// into numeric (runs of digits, at most 44 to a block), text and byte blocks, short blocks are folded into their
// neighbours, and text uses a fixed sub-mode switching rule. bwip-js then adds padding, error correction and
// draws the rows from these codewords (its `raw` input, see rawCodewords in grid.ts).

type BlockMode = 'num' | 'text' | 'byte';

interface Block {
  mode: BlockMode;
  length: number;
}

const MAX_NUMERIC_BLOCK = 44;

// Text compaction sub-modes as bit flags; a character may live in several.
const ALPHA = 1;
const LOWER = 2;
const MIXED = 4;
const PUNCT = 8;

// Sub-mode membership and value of the printable characters 32..126 (ISO/IEC 15438 Table 5).
const TEXT_TABLES = [
  7,
  8,
  8,
  4,
  12,
  4,
  4,
  8,
  8,
  8,
  12,
  4,
  12,
  12,
  12,
  12,
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
  8,
  8,
  4,
  8,
  8,
  8,
  ...Array<number>(26).fill(ALPHA),
  8,
  8,
  8,
  4,
  8,
  8,
  ...Array<number>(26).fill(LOWER),
  8,
  8,
  8,
  8,
];
const TEXT_VALUES = [
  26,
  10,
  20,
  15,
  18,
  21,
  10,
  28,
  23,
  24,
  22,
  20,
  13,
  16,
  17,
  19,
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  14,
  0,
  1,
  23,
  2,
  25,
  3,
  ...Array.from({ length: 26 }, (_, i) => i),
  4,
  5,
  6,
  24,
  7,
  8,
  ...Array.from({ length: 26 }, (_, i) => i),
  26,
  21,
  27,
  9,
];

function textClass(c: number): [tables: number, value: number] {
  if (c === 9) return [MIXED | PUNCT, 12];
  if (c === 10) return [PUNCT, 15];
  if (c === 13) return [MIXED | PUNCT, 11];
  return [TEXT_TABLES[c - 32], TEXT_VALUES[c - 32]];
}

function modeOf(c: number): BlockMode {
  if (c >= 0x30 && c <= 0x39) return 'num';
  if (c === 9 || c === 10 || c === 13 || (c >= 32 && c <= 126)) return 'text';
  return 'byte';
}

function mergeBlocks(blocks: Block[]): void {
  for (let i = 1; i < blocks.length; i++) {
    const a = blocks[i - 1];
    const b = blocks[i];
    if (a.mode === b.mode && (a.mode !== 'num' || a.length + b.length <= MAX_NUMERIC_BLOCK)) {
      a.length += b.length;
      blocks.splice(i--, 1);
    }
  }
}

/** Blocks of one compaction mode each, with short digit and text runs folded into their neighbours. */
export function compactionBlocks(data: Uint8Array): Block[] {
  const blocks: Block[] = [];
  let cur: Block | undefined;
  for (const c of data) {
    const mode = modeOf(c);
    if (cur && cur.mode === mode && (mode !== 'num' || cur.length < MAX_NUMERIC_BLOCK)) cur.length++;
    else blocks.push((cur = { mode, length: 1 }));
  }
  const around = (i: number): [BlockMode | undefined, BlockMode | undefined] => [
    blocks[i - 1]?.mode,
    blocks[i + 1]?.mode,
  ];
  // Digits: a short run between text/byte blocks is cheaper in its neighbour's mode.
  blocks.forEach((b, i) => {
    if (b.mode !== 'num') return;
    const [last, next] = around(i);
    if (i === 0) {
      if (next === 'text' && b.length < 8) b.mode = 'text';
      else if (next === 'byte' && b.length === 1) b.mode = 'byte';
    } else if (i === blocks.length - 1) {
      if (last === 'text' && b.length < 7) b.mode = 'text';
      else if (last === 'byte' && b.length === 1) b.mode = 'byte';
    } else if (last === 'byte' && next === 'byte' && b.length < 4) b.mode = 'byte';
    else if (last === 'byte' && next === 'text' && b.length < 4) b.mode = 'text';
    else if (last === 'text' && next === 'byte' && b.length < 5) b.mode = 'text';
    else if (last === 'text' && next === 'text' && b.length < 8) b.mode = 'text';
    else if (last === 'num' && next === 'text' && b.length < 8) b.mode = 'text';
  });
  mergeBlocks(blocks);
  // Text: a short run next to bytes goes into the byte block.
  blocks.forEach((b, i) => {
    if (b.mode !== 'text' || i === 0) return;
    const [last, next] = around(i);
    if (i === blocks.length - 1) {
      if (last === 'byte' && b.length === 1) b.mode = 'byte';
      return;
    }
    if (last === 'byte' && next === 'byte' && b.length < 5) b.mode = 'byte';
    if ((last === 'byte') !== (next === 'byte') && b.length < 3) b.mode = 'byte';
  });
  mergeBlocks(blocks);
  return blocks;
}

/** Latch/shift values from one text sub-mode to another. */
const LATCH: Record<number, Record<number, number[]>> = {
  [ALPHA]: { [LOWER]: [27], [MIXED]: [28], [PUNCT]: [28, 25] },
  [LOWER]: { [ALPHA]: [28, 28], [MIXED]: [28], [PUNCT]: [28, 25] },
  [MIXED]: { [ALPHA]: [28], [LOWER]: [27], [PUNCT]: [25] },
  [PUNCT]: { [ALPHA]: [29], [LOWER]: [29, 27], [MIXED]: [29, 28] },
};

/** When several sub-modes hold the next characters: alpha first, then lower, then mixed. */
function preferredTable(t: number): number {
  if (t & ALPHA) return ALPHA;
  if (t & LOWER) return LOWER;
  if (t & MIXED) return MIXED;
  return PUNCT;
}

function textCodewords(chars: Uint8Array, latch: boolean): number[] {
  const cls = Array.from(chars, textClass);
  const values: number[] = [];
  let table = ALPHA;
  for (let j = 0; j < cls.length; j++) {
    const [t, v] = cls[j];
    if (t & table) {
      values.push(v);
      continue;
    }
    const alone = j === cls.length - 1 || (t & cls[j + 1][0]) === 0;
    if (alone && t & ALPHA && table === LOWER) {
      values.push(27, v);
      continue;
    }
    if (alone && t & PUNCT) {
      values.push(29, v);
      continue;
    }
    const next = alone ? t : t & cls[j + 1][0];
    const target = preferredTable(next);
    values.push(...(LATCH[table][target] ?? []), v);
    table = target;
  }
  if (values.length % 2) values.push(29);
  const out = latch ? [900] : [];
  for (let j = 0; j < values.length; j += 2) out.push(30 * values[j] + values[j + 1]);
  return out;
}

function byteCodewords(bytes: Uint8Array, afterText: boolean): number[] {
  if (bytes.length === 1 && afterText) return [913, bytes[0]];
  const out = [bytes.length % 6 === 0 ? 924 : 901];
  let i = 0;
  for (; i + 6 <= bytes.length; i += 6) {
    let v = 0n;
    for (let k = 0; k < 6; k++) v = (v << 8n) | BigInt(bytes[i + k]);
    const group: number[] = [];
    for (let k = 0; k < 5; k++) {
      group.unshift(Number(v % 900n));
      v /= 900n;
    }
    out.push(...group);
  }
  for (; i < bytes.length; i++) out.push(bytes[i]);
  return out;
}

function numericCodewords(digits: Uint8Array): number[] {
  let v = BigInt('1' + String.fromCharCode(...digits));
  const group: number[] = [];
  do {
    group.unshift(Number(v % 900n));
    v /= 900n;
  } while (v > 0n);
  return [902, ...group];
}

/**
 * Data codewords (without length descriptor, padding or error correction). `micro` symbols latch to text
 * even in the first block; PDF417 starts in text compaction.
 */
export function pdf417DataCodewords(data: Uint8Array, micro = false): number[] {
  const out: number[] = [];
  let at = 0;
  compactionBlocks(data).forEach((b, i, blocks) => {
    const part = data.subarray(at, at + b.length);
    if (b.mode === 'text') out.push(...textCodewords(part, micro || i > 0));
    else if (b.mode === 'byte') out.push(...byteCodewords(part, i === 0 || blocks[i - 1].mode === 'text'));
    else out.push(...numericCodewords(part));
    at += b.length;
  });
  return out;
}
