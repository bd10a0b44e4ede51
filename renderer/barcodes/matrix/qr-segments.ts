// QR Code data segmentation, version and level choice as the legacy renderer's encoder makes them: characters
// are classed numeric / alphanumeric / byte, short runs are folded into a byte or alphanumeric neighbour by fixed
// length thresholds (not the shortest possible bit stream; see MERGE_BELOW), the smallest version that holds the result is used,
// and the error correction level is raised as far as that version allows. bwip-js optimises segments itself
// and takes no raw QR input, so the codewords are built here.

export type QrLevel = 'L' | 'M' | 'Q' | 'H';
export type QrMode = 'num' | 'alnum' | 'byte';

/** Data codewords per version (1..40) and level (ISO/IEC 18004 Table 7). */
export const DATA_CODEWORDS: Record<QrLevel, readonly number[]> = {
  L: [
    19, 34, 55, 80, 108, 136, 156, 194, 232, 274, 324, 370, 428, 461, 523, 589, 647, 721, 795, 861, 932, 1006, 1094,
    1174, 1276, 1370, 1468, 1531, 1631, 1735, 1843, 1955, 2071, 2191, 2306, 2434, 2566, 2702, 2812, 2956,
  ],
  M: [
    16, 28, 44, 64, 86, 108, 124, 154, 182, 216, 254, 290, 334, 365, 415, 453, 507, 563, 627, 669, 714, 782, 860, 914,
    1000, 1062, 1128, 1193, 1267, 1373, 1455, 1541, 1631, 1725, 1812, 1914, 1992, 2102, 2216, 2334,
  ],
  Q: [
    13, 22, 34, 48, 62, 76, 88, 110, 132, 154, 180, 206, 244, 261, 295, 325, 367, 397, 445, 485, 512, 568, 614, 664,
    718, 754, 808, 871, 911, 985, 1033, 1115, 1171, 1231, 1286, 1354, 1426, 1502, 1582, 1666,
  ],
  H: [
    9, 16, 26, 36, 46, 60, 66, 86, 100, 122, 140, 158, 180, 197, 223, 253, 283, 313, 341, 385, 406, 442, 464, 514, 538,
    596, 628, 661, 701, 745, 793, 845, 901, 961, 986, 1054, 1096, 1142, 1222, 1276,
  ],
};

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';
const MODE_BITS: Record<QrMode, number> = { num: 0b0001, alnum: 0b0010, byte: 0b0100 };

/** One of three values by version range 1-9, 10-26, 27-40 (count field sizes and run thresholds). */
function byRange(version: number, a: number, b: number, c: number): number {
  return version < 10 ? a : version < 27 ? b : c;
}

function charMode(c: number): QrMode {
  if (c >= 0x30 && c <= 0x39) return 'num';
  return ALNUM.includes(String.fromCharCode(c)) ? 'alnum' : 'byte';
}

interface Run {
  mode: QrMode;
  length: number;
}

function runsOf(modes: readonly QrMode[]): Run[] {
  const runs: Run[] = [];
  for (const m of modes) {
    const last = runs[runs.length - 1];
    if (last && last.mode === m) last.length++;
    else runs.push({ mode: m, length: 1 });
  }
  return runs;
}

/**
 * Lengths below which a run is not worth a mode switch, by version range 1-9, 10-26, 27-40, each as
 * [plain, return]: "return" when the run is followed by the mode that came before it, so two switches are saved.
 * (The legacy service's encoder, as OkapiBarcode's QR encoder has done since February 2024.)
 */
const MERGE_BELOW: Record<
  'alnumAfterByte' | 'numAfterByte' | 'numAfterAlnum',
  readonly [readonly number[], readonly number[]]
> = {
  alnumAfterByte: [
    [4, 5, 6],
    [7, 11, 12],
  ],
  numAfterByte: [
    [3, 3, 4],
    [4, 7, 7],
  ],
  numAfterAlnum: [
    [6, 9, 9],
    [9, 12, 15],
  ],
};

function mergeBelow(rule: keyof typeof MERGE_BELOW, version: number, returns: boolean): number {
  const [a, b, c] = MERGE_BELOW[rule][returns ? 1 : 0];
  return byRange(version, a, b, c);
}

/**
 * Folds short alphanumeric/numeric runs into a byte neighbour, and short numeric runs into an alphanumeric one:
 * first each run into the one before it (forward), then into the one after it (backward). `beyond` is the run
 * on the far side, which decides whether the short run is a "return".
 */
function optimise(version: number, modes: readonly QrMode[]): Run[] {
  const runs = runsOf(modes);
  const fold = (a: Run, b: Run, beyond: Run | undefined) => {
    const returns = beyond?.mode === a.mode;
    if (a.mode === 'byte' && b.mode === 'alnum' && b.length < mergeBelow('alnumAfterByte', version, returns))
      b.mode = 'byte';
    else if (a.mode === 'byte' && b.mode === 'num' && b.length < mergeBelow('numAfterByte', version, returns))
      b.mode = 'byte';
    else if (a.mode === 'alnum' && b.mode === 'num' && b.length < mergeBelow('numAfterAlnum', version, returns))
      b.mode = 'alnum';
  };
  for (let i = 0; i + 1 < runs.length; i++) fold(runs[i], runs[i + 1], runs[i + 2]);
  for (let i = runs.length - 1; i > 0; i--) fold(runs[i], runs[i - 1], runs[i - 2]);
  // Neighbouring runs that now share a mode are one segment.
  return runsOf(runs.flatMap((r) => Array<QrMode>(r.length).fill(r.mode)));
}

function countBits(mode: QrMode, version: number): number {
  if (mode === 'num') return byRange(version, 10, 12, 14);
  if (mode === 'alnum') return byRange(version, 9, 11, 13);
  return byRange(version, 8, 16, 16);
}

function payloadBits(mode: QrMode, n: number): number {
  if (mode === 'num') return Math.floor(n / 3) * 10 + [0, 4, 7][n % 3];
  if (mode === 'alnum') return Math.floor(n / 2) * 11 + (n % 2) * 6;
  return n * 8;
}

function streamLength(version: number, runs: readonly Run[]): number {
  return runs.reduce((s, r) => s + 4 + countBits(r.mode, version) + payloadBits(r.mode, r.length), 0);
}

export interface QrPlan {
  version: number;
  level: QrLevel;
  segments: Run[];
  bits: number;
}

/** Segments, smallest version for the requested level, then the highest level that version still holds. */
export function planQr(data: Uint8Array, requested: QrLevel): QrPlan {
  const modes = Array.from(data, charMode);
  let version = 0;
  for (let v = 40; v >= 1; v--) {
    if (8 * DATA_CODEWORDS[requested][v - 1] >= streamLength(v, optimise(v, modes))) version = v;
  }
  if (!version) throw new Error('Data too long for a QR Code at this error correction level');
  const segments = optimise(version, modes);
  const bits = streamLength(version, segments);
  let level = requested;
  for (const l of ['M', 'Q', 'H'] as const) if (bits <= 8 * DATA_CODEWORDS[l][version - 1]) level = l;
  return { version, level, segments, bits };
}

class BitWriter {
  readonly bits: number[] = [];
  put(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bits.push((value >> i) & 1);
  }
}

/** The data codewords: segments, terminator, byte padding and 0xEC/0x11 fill. */
export function qrDataCodewords(data: Uint8Array, plan: QrPlan): number[] {
  const w = new BitWriter();
  let at = 0;
  for (const s of plan.segments) {
    const part = data.subarray(at, at + s.length);
    at += s.length;
    w.put(MODE_BITS[s.mode], 4);
    w.put(s.length, countBits(s.mode, plan.version));
    if (s.mode === 'num') {
      for (let i = 0; i < part.length; i += 3) {
        const group = part.subarray(i, i + 3);
        w.put(Number(String.fromCharCode(...group)), [0, 4, 7, 10][group.length]);
      }
    } else if (s.mode === 'alnum') {
      const v = Array.from(part, (c) => ALNUM.indexOf(String.fromCharCode(c)));
      for (let i = 0; i < v.length; i += 2) {
        if (i + 1 < v.length) w.put(v[i] * 45 + v[i + 1], 11);
        else w.put(v[i], 6);
      }
    } else for (const b of part) w.put(b, 8);
  }
  const capacity = 8 * DATA_CODEWORDS[plan.level][plan.version - 1];
  w.put(0, Math.min(4, capacity - w.bits.length));
  while (w.bits.length % 8) w.bits.push(0);
  const out: number[] = [];
  for (let i = 0; i < w.bits.length; i += 8) out.push(w.bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; out.length < capacity / 8; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}
