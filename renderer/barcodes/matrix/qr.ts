// ^BQ QR Code: error correction and input mode come from the ^FD prefix (`QA,data`, `HM,B0005bytes`).
// The symbol is built here rather than by bwip-js: the legacy renderer segments the data its own way (see
// qr-segments.ts) and bwip-js takes no raw QR input.

import type { DrawEnv, Field, LabelElement } from '../../model.js';
import { byteString, type ModuleGrid } from './grid.js';
import { planQr, qrDataCodewords, type QrLevel } from './qr-segments.js';
import { interleave, qrSymbol } from './qr-symbol.js';
import { gridElement, num, report, tryEncode } from './field.js';

export type { QrLevel };

export interface QrData {
  level: QrLevel;
  text: string;
}

/** ^BQ magnification when omitted: 1 at 6 dpmm, 2 at 8, 3 at 12, 6 at 24 (ZPL II guide). */
export function defaultQrMagnification(dpmm: number): number {
  return ({ 6: 1, 8: 2, 12: 3, 24: 6 } as Record<number, number>)[dpmm] ?? Math.max(1, Math.round(dpmm / 4));
}

const LEVELS = 'LMQH';

/**
 * Splits ^FD data into error correction and payload as the legacy renderer reads it: the level letter,
 * the input mode letter and one separator (a digit in the mode position is not followed by a separator);
 * manual mode then drops its character-mode letter and, for bytes, the 4-digit count. Pipes are removed
 * except from counted bytes and unknown input modes. An unknown level letter falls back to M.
 */
export function parseQrData(data: string): QrData {
  if (data.length < 2) return { level: 'M', text: data };
  const first = data[0].toUpperCase();
  const level = (LEVELS.includes(first) ? first : 'M') as QrLevel;
  const designator = data[1];
  let rest = /[0-9]/.test(designator) ? data.slice(2) : data.slice(3);
  const input = designator.toUpperCase();
  if (input === 'M' && rest.length) {
    const mode = rest[0].toUpperCase();
    if (mode === 'B') {
      const count = /^\d{4}/.exec(rest.slice(1));
      // Binary data is taken as counted, pipes included.
      return { level, text: count ? rest.slice(5, 5 + Number(count[0])) : rest.slice(1) };
    }
    if ('NAK'.includes(mode)) rest = rest.slice(1);
  }
  // In automatic and character modes the legacy renderer drops `|` (a field separator in carrier payloads).
  if (input === 'A' || input === 'M') rest = rest.replaceAll('|', '');
  return { level, text: rest };
}

/** ISO/IEC 18004 mask penalty of a finished symbol (N1..N4); the area outside the symbol counts as light. */
export function qrPenalty(g: ModuleGrid): number {
  const n = g.width;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= n || y >= n ? 0 : g.bits[y * n + x]);
  let score = 0;
  // N1 runs and N3 finder-like patterns, along rows then columns
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < n; i++) {
      const cell = (j: number) => (pass === 0 ? at(j, i) : at(i, j));
      let run = 1;
      for (let j = 1; j <= n; j++) {
        if (j < n && cell(j) === cell(j - 1)) { run++; continue; }
        if (run >= 5) score += 3 + run - 5;
        run = 1;
      }
      for (let j = 0; j + 7 <= n; j++) {
        if (cell(j) && !cell(j + 1) && cell(j + 2) && cell(j + 3) && cell(j + 4) && !cell(j + 5) && cell(j + 6)) {
          const lightBefore = !cell(j - 1) && !cell(j - 2) && !cell(j - 3) && !cell(j - 4);
          const lightAfter = !cell(j + 7) && !cell(j + 8) && !cell(j + 9) && !cell(j + 10);
          if (lightBefore || lightAfter) score += 40;
        }
      }
    }
  }
  // N2 2x2 blocks
  for (let y = 0; y + 1 < n; y++) {
    for (let x = 0; x + 1 < n; x++) {
      const c = at(x, y);
      if (c === at(x + 1, y) && c === at(x, y + 1) && c === at(x + 1, y + 1)) score += 3;
    }
  }
  // N4 balance: 10 points per whole 5% away from half dark
  let dark = 0;
  for (const b of g.bits) dark += b;
  const total = n * n;
  score += Math.floor((Math.abs(2 * dark - total) * 10) / total) * 10;
  return score;
}

/**
 * The symbol as the legacy renderer builds it: its segmentation, version and raised level (qr-segments.ts),
 * then the mask of lowest penalty (lowest mask number on ties).
 */
export function encodeQr(q: QrData): ModuleGrid {
  const data = Uint8Array.from(q.text, (c) => c.charCodeAt(0) & 0xff);
  const plan = planQr(data, q.level);
  const codewords = interleave(qrDataCodewords(data, plan), plan.version, plan.level);
  let best: ModuleGrid | undefined;
  let bestScore = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const g = qrSymbol(codewords, plan.version, plan.level, mask);
    const s = qrPenalty(g);
    if (s < bestScore) { best = g; bestScore = s; }
  }
  return best!;
}

export function renderQr(field: Field, env: DrawEnv): LabelElement[] {
  const [, model, magParam] = field.params;
  const mag = num(magParam, defaultQrMagnification(env.dpmm));
  if (model === 1) report(env, field, '^BQ', 'QR Model 1 is drawn as Model 2', 2);
  const data = parseQrData(byteString(field.data));
  if (!data.text) {
    report(env, field, '^BQ', 'No QR Code data; field not printed');
    return [];
  }
  const g = tryEncode(env, field, '^BQ', () => encodeQr(data));
  if (!g) return [];
  // The legacy renderer drops ^FO symbols by the ^BY bar height, and lifts ^FT symbols above their baseline.
  const version = (g.width - 17) / 4;
  const offset = field.origin === 'FT' ? { y: g.height * mag - (8 * version + 16) * mag } : { y: field.barcode.height };
  return gridElement(field, 'N', g, mag, mag, offset);
}
