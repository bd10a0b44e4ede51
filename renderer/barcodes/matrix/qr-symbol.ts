// QR Code symbol construction (ISO/IEC 18004): Reed-Solomon blocks, function patterns, data placement,
// the eight masks, and format/version information.

import type { ModuleGrid } from './grid.js';
import { DATA_CODEWORDS, type QrLevel } from './qr-segments.js';

/** Total codewords per version, and error correction blocks per version and level (Tables 1 and 9). */
const TOTAL_CODEWORDS = [
  26, 44, 70, 100, 134, 172, 196, 242, 292, 346, 404, 466, 532, 581, 655, 733, 815, 901, 991, 1085, 1156, 1258, 1364,
  1474, 1588, 1706, 1828, 1921, 2051, 2185, 2323, 2465, 2611, 2761, 2876, 3034, 3196, 3362, 3532, 3706,
];
const BLOCKS: Record<QrLevel, readonly number[]> = {
  L: [
    1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19,
    20, 21, 22, 24, 25,
  ],
  M: [
    1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33,
    35, 37, 38, 40, 43, 45, 47, 49,
  ],
  Q: [
    1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45,
    48, 51, 53, 56, 59, 62, 65, 68,
  ],
  H: [
    1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51,
    54, 57, 60, 63, 66, 70, 74, 77, 81,
  ],
};
const LEVEL_BITS: Record<QrLevel, number> = { L: 1, M: 0, Q: 3, H: 2 };

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
const mul = (a: number, b: number) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

function generator(n: number): number[] {
  let g = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array<number>(g.length + 1).fill(0);
    g.forEach((c, j) => {
      next[j] ^= c;
      next[j + 1] ^= mul(c, EXP[i]);
    });
    g = next;
  }
  return g;
}

function reedSolomon(data: readonly number[], n: number): number[] {
  const g = generator(n);
  const rem = new Array<number>(n).fill(0);
  for (const d of data) {
    const f = d ^ rem[0];
    rem.shift();
    rem.push(0);
    for (let j = 0; j < n; j++) rem[j] ^= mul(g[j + 1], f);
  }
  return rem;
}

/** Data and error correction codewords, split into blocks and interleaved. */
export function interleave(data: readonly number[], version: number, level: QrLevel): number[] {
  const blocks = BLOCKS[level][version - 1];
  const total = TOTAL_CODEWORDS[version - 1];
  const dataCount = DATA_CODEWORDS[level][version - 1];
  const ecPerBlock = (total - dataCount) / blocks;
  const short = Math.floor(dataCount / blocks);
  const longCount = dataCount % blocks;
  const dataBlocks: number[][] = [];
  for (let b = 0, at = 0; b < blocks; b++) {
    const len = short + (b >= blocks - longCount ? 1 : 0);
    dataBlocks.push(data.slice(at, at + len));
    at += len;
  }
  const ecBlocks = dataBlocks.map((d) => reedSolomon(d, ecPerBlock));
  const out: number[] = [];
  for (let i = 0; i <= short; i++) for (const d of dataBlocks) if (i < d.length) out.push(d[i]);
  for (let i = 0; i < ecPerBlock; i++) for (const e of ecBlocks) out.push(e[i]);
  return out;
}

function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const size = 17 + 4 * version;
  const count = Math.floor(version / 7) + 2;
  const step = version === 32 ? 26 : Math.ceil((size - 13) / (count - 1) / 2) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

/** BCH code of `value` (`bits` wide) with generator `poly` of degree `deg`. */
function bch(value: number, poly: number, deg: number): number {
  let v = value << deg;
  const top = (n: number) => 31 - Math.clz32(n);
  while (v && top(v) >= deg) v ^= poly << (top(v) - deg);
  return (value << deg) | v;
}

interface Frame {
  size: number;
  dark: Uint8Array;
  /** Function modules (not data). */
  fixed: Uint8Array;
}

/** The function patterns of each version, made once: finder and alignment patterns, timing, version information. */
const framesByVersion = new Map<number, Frame>();

function functionPatterns(version: number): Frame {
  let frame = framesByVersion.get(version);
  if (!frame) framesByVersion.set(version, (frame = makeFunctionPatterns(version)));
  return frame;
}

function makeFunctionPatterns(version: number): Frame {
  const size = 17 + 4 * version;
  const dark = new Uint8Array(size * size);
  const fixed = new Uint8Array(size * size);
  const set = (x: number, y: number, on: boolean) => {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    dark[y * size + x] = on ? 1 : 0;
    fixed[y * size + x] = 1;
  };
  for (const [fx, fy] of [
    [0, 0],
    [size - 7, 0],
    [0, size - 7],
  ]) {
    for (let dy = -1; dy <= 7; dy++) {
      for (let dx = -1; dx <= 7; dx++) {
        const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3));
        set(fx + dx, fy + dy, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < size - 8; i++) {
    set(i, 6, i % 2 === 0);
    set(6, i, i % 2 === 0);
  }
  const centres = alignmentCentres(version);
  for (const cy of centres) {
    for (const cx of centres) {
      if ((cx === 6 && cy === 6) || (cx === 6 && cy === size - 7) || (cx === size - 7 && cy === 6)) continue;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  // Format information areas (filled per mask) and the dark module.
  for (let i = 0; i < 9; i++) {
    fixed[8 * size + i] = 1;
    fixed[i * size + 8] = 1;
  }
  for (let i = 0; i < 8; i++) {
    fixed[8 * size + size - 1 - i] = 1;
    fixed[(size - 1 - i) * size + 8] = 1;
  }
  set(8, size - 8, true);
  if (version >= 7) {
    const info = bch(version, 0x1f25, 12);
    for (let k = 0; k < 18; k++) {
      const on = ((info >> k) & 1) === 1;
      const a = Math.floor(k / 3);
      const b = size - 11 + (k % 3);
      set(a, b, on);
      set(b, a, on);
    }
  }
  return { size, dark, fixed };
}

const MASKS: ReadonlyArray<(x: number, y: number) => boolean> = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** The symbol for the interleaved codewords with mask 0..7. */
export function qrSymbol(codewords: readonly number[], version: number, level: QrLevel, mask: number): ModuleGrid {
  const { size, dark, fixed } = functionPatterns(version);
  const bits = new Uint8Array(size * size);
  bits.set(dark);
  let bit = 0;
  const total = codewords.length * 8;
  for (let right = size - 1, up = true; right > 0; right -= 2, up = !up) {
    if (right === 6) right = 5;
    for (let i = 0; i < size; i++) {
      const y = up ? size - 1 - i : i;
      for (let k = 0; k < 2; k++) {
        const x = right - k;
        if (fixed[y * size + x]) continue;
        let on = bit < total ? (codewords[bit >> 3] >> (7 - (bit & 7))) & 1 : 0;
        bit++;
        if (MASKS[mask](x, y)) on ^= 1;
        bits[y * size + x] = on;
      }
    }
  }
  const format = bch((LEVEL_BITS[level] << 3) | mask, 0x537, 10) ^ 0x5412;
  const first: Array<[number, number]> = [
    [8, 0],
    [8, 1],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 7],
    [8, 8],
    [7, 8],
    [5, 8],
    [4, 8],
    [3, 8],
    [2, 8],
    [1, 8],
    [0, 8],
  ];
  for (let i = 0; i < 15; i++) {
    const on = (format >> i) & 1;
    const [x, y] = first[i];
    bits[y * size + x] = on;
    if (i < 8) bits[8 * size + size - 1 - i] = on;
    else bits[(size - 15 + i) * size + 8] = on;
  }
  return { width: size, height: size, bits };
}
