// A symbol as a grid of dark/light modules, encoded by bwip-js and drawn by us at whole dots.

import bwipjs from 'bwip-js';
import type { Canvas } from '../../display/canvas.js';
import type { InkMode } from '../../display/display-list.js';
import { cachedEncoding } from '../common/encoding-cache.js';
import { fillFrameRect, type SymbolFrame } from '../common/frame.js';
import { latin1 } from '../../zpl/params.js';

/** Row-major modules, 1 = dark. */
export interface ModuleGrid {
  width: number;
  height: number;
  bits: Uint8Array;
}

export function gridFromRows(rows: readonly (readonly number[])[]): ModuleGrid {
  const height = rows.length;
  const width = height ? rows[0].length : 0;
  const bits = new Uint8Array(width * height);
  rows.forEach((row, y) => {
    row.forEach((v, x) => {
      bits[y * width + x] = v ? 1 : 0;
    });
  });
  return { width, height, bits };
}

export function isDark(g: ModuleGrid, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < g.width && y < g.height && g.bits[y * g.width + x] === 1;
}

type BwipOptions = Record<string, string | number | boolean>;

/** The module matrix bwip-js computes for a symbology (throws when the data cannot be encoded); kept by content. */
export function encodeGrid(bcid: string, text: string, options: BwipOptions = {}): ModuleGrid {
  return cachedEncoding(
    bcid,
    `${JSON.stringify(options)}\u0000${text}`,
    () => bwipGrid(bcid, text, options),
    (g) => g.bits.length,
  );
}

function bwipGrid(bcid: string, text: string, options: BwipOptions): ModuleGrid {
  const out = bwipjs.raw({ bcid, text, ...options } as Parameters<typeof bwipjs.raw>[0]) as unknown as Array<{
    pixs?: number[];
    pixx?: number;
    pixy?: number;
  }>;
  const m = out[0];
  if (!m?.pixs || !m.pixx || !m.pixy) throw new Error(`${bcid}: no module matrix`);
  // A plain loop: Uint8Array.from with a map function goes through the iterator protocol, module by module.
  const bits = new Uint8Array(m.pixs.length);
  for (let i = 0; i < bits.length; i++) bits[i] = m.pixs[i] ? 1 : 0;
  return { width: m.pixx, height: m.pixy, bits };
}

/** Codewords as bwip-js `raw` input: `^NNN` each. */
export function rawCodewords(cws: readonly number[]): string {
  return cws.map((c) => '^' + String(c).padStart(3, '0')).join('');
}

/** Bytes as a string of char codes 0..255 (bwip-js encodes each char as one byte). */
export function byteString(bytes: Uint8Array | undefined): string {
  return bytes ? latin1(bytes) : '';
}

/**
 * Draws a grid into an upright frame: column x is `moduleWidth` dots wide, row y spans `rowHeights[y]`
 * dots (or `moduleHeight` for all rows). Dark runs along a row become one rectangle each.
 */
export function drawGrid(
  r: Canvas,
  frame: SymbolFrame,
  g: ModuleGrid,
  moduleWidth: number,
  moduleHeight: number | readonly number[],
  mode: InkMode,
  u0 = 0,
  v0 = 0,
): void {
  let v = v0;
  for (let y = 0; y < g.height; y++) {
    const h = typeof moduleHeight === 'number' ? moduleHeight : (moduleHeight[y] ?? 0);
    let x = 0;
    while (x < g.width) {
      if (!g.bits[y * g.width + x]) {
        x++;
        continue;
      }
      let e = x + 1;
      while (e < g.width && g.bits[y * g.width + e]) e++;
      fillFrameRect(r, frame, u0 + x * moduleWidth, v, (e - x) * moduleWidth, h, mode);
      x = e;
    }
    v += h;
  }
}
