// ^BD MaxiCode: 33 rows of 30 hexagons around a bullseye, drawn at the legacy renderer's fixed size.
// Modes 2 and 3 carry a structured carrier message: class of service, country and postal code lead ^FD.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import bwipjs from 'bwip-js';
import { cachedEncoding } from '../common/encoding-cache.js';
import { barcodeInk, fillFrameRect, placeSymbol } from '../common/frame.js';
import { byteString } from './grid.js';
import { tryEncode } from './field.js';

const GS = '\x1d';
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ISO 15434 header is made of RS and GS
const HEADER = /^\[\)>\x1e01\x1d\d\d/;

/** Geometry in symbol units (ISO/IEC 16023 drawing): hexagon pitch, bullseye centre and ring radii (outer, inner pairs). */
const PITCH_X = 2.46;
const PITCH_Y = 2.135;
const CENTRE = [35.76, 35.6] as const;
const RINGS: ReadonlyArray<readonly [number, number]> = [
  [10.85, 8.97],
  [7.1, 5.22],
  [3.31, 1.43],
];
/** Dots per symbol unit at 8 dpmm, and hexagon circumradius in dots, as measured on the legacy renderer. */
const DOTS_PER_UNIT_8 = 2.72;
const HEX_RADIUS_8 = 3.4;

/**
 * The bwip-js message for ZPL ^BD data. Modes 2 and 3 start with <class 3><country 3><postal 9 or 6>, followed
 * by the low priority message (usually `[)>RS01GSyy...`); bwip-js wants postal GS country GS class in the message.
 */
export function maxiCodeMessage(mode: number, data: string): string {
  if (mode !== 2 && mode !== 3) return data;
  const postalLength = mode === 2 ? 9 : 6;
  const cls = data.slice(0, 3);
  const country = data.slice(3, 6);
  const postal = data.slice(6, 6 + postalLength);
  const lpm = data.slice(6 + postalLength);
  const primary = `${mode === 2 ? postal.replace(/\D/g, '') : postal}${GS}${country}${GS}${cls}${GS}`;
  const header = HEADER.exec(lpm);
  return header ? `${header[0]}${primary}${lpm.slice(header[0].length)}` : `${primary}${lpm}`;
}

/** Dark module indices (row * 30 + column) of the symbol; `append` is symbol n of t for structured append. Kept by content. */
export function encodeMaxiCode(mode: number, data: string, append?: { n: number; t: number }): Set<number> {
  return cachedEncoding(
    'maxicode',
    maxiCodeKey(mode, data, append),
    () => bwipMaxiCode(mode, data, append),
    (dark) => dark.size * 16 + 64,
  );
}

/** What makes a symbol: mode, structured append and data. */
function maxiCodeKey(mode: number, data: string, append?: { n: number; t: number }): string {
  return `${mode} ${append && append.t > 1 ? append.n * 10 + append.t : 0}\u0000${data}`;
}

/** A symbol drawn at one density: its size in dots and its dark dots as runs, row by row (row, first dot, length). */
export interface MaxiCodeDots {
  width: number;
  height: number;
  runs: Int32Array;
}

/** The symbol's dots at `dpmm`, kept by content and density: a reprinted symbol is drawn from its runs alone. */
export function maxiCodeDots(
  mode: number,
  data: string,
  append: { n: number; t: number } | undefined,
  dpmm: number,
): MaxiCodeDots {
  return cachedEncoding(
    'maxicode-dots',
    `${dpmm} ${maxiCodeKey(mode, data, append)}`,
    () => dotsOf(maxiCodeBitmap(encodeMaxiCode(mode, data, append), dpmm)),
    (dots) => dots.runs.byteLength + 64,
  );
}

function dotsOf(bmp: { width: number; height: number; bits: Uint8Array }): MaxiCodeDots {
  const runs: number[] = [];
  for (let y = 0; y < bmp.height; y++) {
    let x = 0;
    while (x < bmp.width) {
      if (!bmp.bits[y * bmp.width + x]) {
        x++;
        continue;
      }
      let e = x + 1;
      while (e < bmp.width && bmp.bits[y * bmp.width + e]) e++;
      runs.push(y, x, e - x);
      x = e;
    }
  }
  return { width: bmp.width, height: bmp.height, runs: Int32Array.from(runs) };
}

function bwipMaxiCode(mode: number, data: string, append?: { n: number; t: number }): Set<number> {
  const opts: Record<string, string | number> = { bcid: 'maxicode', text: maxiCodeMessage(mode, data), mode };
  if (append && append.t > 1) opts.sam = append.n * 10 + append.t;
  const out = bwipjs.raw(opts as unknown as Parameters<typeof bwipjs.raw>[0]) as unknown as Array<{ pixs?: number[] }>;
  if (!out[0]?.pixs) throw new Error('maxicode: no modules');
  return new Set(out[0].pixs);
}

/**
 * A density's drawing of the symbol, made once: the bitmap size, the bullseye's bits, and for each of the 990
 * hexagons the runs of dots it covers (`runs[starts[i]..starts[i + 1])`, pairs of first dot and length).
 */
interface MaxiCodeStamps {
  width: number;
  height: number;
  bullseye: Uint8Array;
  starts: Int32Array;
  runs: Int32Array;
}

const stampsByDensity = new Map<number, MaxiCodeStamps>();

function maxiCodeStamps(dpmm: number): MaxiCodeStamps {
  let stamps = stampsByDensity.get(dpmm);
  if (!stamps) stampsByDensity.set(dpmm, (stamps = makeStamps(dpmm)));
  return stamps;
}

/** Pixel centres tested against each hexagon and the rings, as measured on the legacy renderer. */
function makeStamps(dpmm: number): MaxiCodeStamps {
  const s = (DOTS_PER_UNIT_8 * dpmm) / 8;
  const rad = (HEX_RADIUS_8 * dpmm) / 8;
  const hw = (rad * Math.sqrt(3)) / 2;
  const o = -0.5;
  const width = Math.ceil(o + s * (PITCH_X * 29 + PITCH_X) + hw);
  const height = Math.ceil(o + s * (PITCH_Y * 32 + 1.43) + rad);
  const starts = new Int32Array(33 * 30 + 1);
  const runs: number[] = [];
  for (let row = 0; row < 33; row++) {
    for (let col = 0; col < 30; col++) {
      starts[row * 30 + col] = runs.length;
      const cx = o + s * (PITCH_X * col + PITCH_X / 2 + (row & 1) * (PITCH_X / 2));
      const cy = o + s * (PITCH_Y * row + 1.43);
      for (let y = Math.max(0, Math.floor(cy - rad)); y <= Math.min(height - 1, cy + rad); y++) {
        let first = -1;
        const x1 = Math.min(width - 1, cx + hw);
        for (let x = Math.max(0, Math.floor(cx - hw)); x <= x1 + 1; x++) {
          const dx = Math.abs(x + 0.5 - cx);
          const dy = Math.abs(y + 0.5 - cy);
          const inside = x <= x1 && dx <= hw && dy + dx / Math.sqrt(3) <= rad;
          if (inside && first < 0) first = x;
          if (!inside && first >= 0) {
            runs.push(y * width + first, x - first);
            first = -1;
          }
        }
      }
    }
  }
  starts[33 * 30] = runs.length;
  const bullseye = new Uint8Array(width * height);
  const [ux, uy] = [o + s * CENTRE[0], o + s * CENTRE[1]];
  const outer = RINGS[0][0] * s;
  for (let y = Math.max(0, Math.floor(uy - outer)); y <= Math.min(height - 1, uy + outer); y++) {
    for (let x = Math.max(0, Math.floor(ux - outer)); x <= Math.min(width - 1, ux + outer); x++) {
      const d = Math.hypot(x + 0.5 - ux, y + 0.5 - uy) / s;
      if (RINGS.some(([a, b]) => d <= a && d > b)) bullseye[y * width + x] = 1;
    }
  }
  return { width, height, bullseye, starts, runs: Int32Array.from(runs) };
}

/** Ink of the symbol as a bitmap (1 = dark) of `width` x `height` dots: the bullseye, then each dark hexagon's runs. */
export function maxiCodeBitmap(dark: Set<number>, dpmm: number): { width: number; height: number; bits: Uint8Array } {
  const { width, height, bullseye, starts, runs } = maxiCodeStamps(dpmm);
  const bits = bullseye.slice();
  for (const cell of dark) {
    if (cell < 0 || cell >= 33 * 30) continue;
    for (let i = starts[cell]; i < starts[cell + 1]; i += 2) bits.fill(1, runs[i], runs[i] + runs[i + 1]);
  }
  return { width, height, bits };
}

export function drawMaxiCode(field: FieldOf<'BD'>, env: DrawEnv, canvas: Canvas): void {
  const { mode, symbolNumber, symbolCount } = field.args;
  const data = byteString(field.data);
  if (!data) return;
  const append = { n: Math.min(symbolNumber, symbolCount), t: symbolCount };
  const dots = tryEncode(env, field, '^BD', () => maxiCodeDots(mode, data, append, env.dpmm));
  if (!dots) return;
  const frame = placeSymbol(field, dots.width, dots.height, 'N');
  const ink = barcodeInk(field);
  const runs = dots.runs;
  for (let i = 0; i < runs.length; i += 3) fillFrameRect(canvas, frame, runs[i + 1], runs[i], runs[i + 2], 1, ink);
}
