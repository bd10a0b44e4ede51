// ^BQ QR Code: error correction and input mode come from the ^FD prefix (`QA,data`, `HM,B0005bytes`).
// The symbol is built here rather than by bwip-js: the legacy renderer segments the data its own way (see
// qr-segments.ts) and bwip-js takes no raw QR input.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { cachedEncoding } from '../common/encoding-cache.js';
import { byteString, type ModuleGrid } from './grid.js';
import { planQr, qrDataCodewords, type QrLevel } from './qr-segments.js';
import { interleave, qrSymbol } from './qr-symbol.js';
import { drawGridField, report, tryEncode } from './field.js';

export type { QrLevel };

export interface QrData {
  level: QrLevel;
  text: string;
}

/** ^BQ magnification when omitted: 1 at 6 dpmm, 2 at 8, 3 at 12, 6 at 24 (ZPL II guide). */
export function defaultQrMagnification(dpmm: number): number {
  return ({ 6: 1, 8: 2, 12: 3, 24: 6 } as Record<number, number>)[dpmm] ?? Math.max(1, Math.round(dpmm / 4));
}

/** Magnifications above 10 are honoured up to the one at which the smallest symbol (21 modules) fills the label. */
function largestMagnification(env: DrawEnv): number {
  return Math.max(1, Math.floor(Math.max(env.widthDots, env.heightDots) / 21));
}

const LEVELS = 'LMQH';

/**
 * Splits ^FD data into error correction and payload as the legacy renderer reads it: the level letter,
 * the input mode letter and one separator (a digit in the mode position is not followed by a separator).
 * Manual mode data is one or more comma-separated segments, each a character-mode letter and its data
 * (bytes as `B` + 4-digit count). Pipes are removed except from counted bytes and unknown input modes.
 * An unknown level letter falls back to M; a structured-append header (`D` + 4 digits + 2 hex digits + comma)
 * is skipped.
 */
export function parseQrData(data: string): QrData {
  if (/^D\d{4}[0-9A-F]{2},/i.test(data)) data = data.slice(8);
  if (data.length < 2) return { level: 'M', text: data };
  const first = data[0].toUpperCase();
  const level = (LEVELS.includes(first) ? first : 'M') as QrLevel;
  const designator = data[1];
  const rest = /[0-9]/.test(designator) ? data.slice(2) : data.slice(3);
  const input = designator.toUpperCase();
  if (input === 'M') return { level, text: manualSegments(rest) };
  // In automatic mode the legacy renderer drops `|` (a field separator in carrier payloads).
  return { level, text: input === 'A' ? rest.replaceAll('|', '') : rest };
}

/** The data of manual-mode segments `N...`, `A...`, `K...`, `Bnnnn...`, separated by commas. */
function manualSegments(s: string): string {
  let text = '';
  while (s.length) {
    const mode = s[0].toUpperCase();
    if (mode === 'B') {
      const count = /^\d{4}/.exec(s.slice(1));
      // Binary data is taken as counted, pipes included; without a count the rest is bytes.
      if (!count) return text + s.slice(1);
      text += s.slice(5, 5 + Number(count[0]));
      s = s.slice(5 + Number(count[0]));
      if (!s.startsWith(',')) return text;
      s = s.slice(1);
      continue;
    }
    if (!'NAK'.includes(mode)) return text + s.replaceAll('|', '');
    const end = s.indexOf(',', 1);
    text += (end < 0 ? s.slice(1) : s.slice(1, end)).replaceAll('|', '');
    s = end < 0 ? '' : s.slice(end + 1);
  }
  return text;
}

/** N1 (runs of five or more) and N3 (finder-like 1:1:3:1:1 with four light modules on a side) for one line. */
function linePenalty(line: Uint8Array, n: number): number {
  let score = 0;
  let run = 1;
  for (let j = 1; j <= n; j++) {
    if (j < n && line[j + 4] === line[j + 3]) {
      run++;
      continue;
    }
    if (run >= 5) score += run - 2;
    run = 1;
  }
  // `line` holds the n modules at offset 4 with four light modules padded on each side.
  for (let j = 4; j + 7 <= n + 4; j++) {
    if (line[j] && !line[j + 1] && line[j + 2] && line[j + 3] && line[j + 4] && !line[j + 5] && line[j + 6]) {
      const before = !line[j - 1] && !line[j - 2] && !line[j - 3] && !line[j - 4];
      const after = !line[j + 7] && !line[j + 8] && !line[j + 9] && !line[j + 10];
      if (before || after) score += 40;
    }
  }
  return score;
}

/** ISO/IEC 18004 mask penalty of a finished symbol (N1..N4); the area outside the symbol counts as light. */
export function qrPenalty(g: ModuleGrid): number {
  const n = g.width;
  const b = g.bits;
  let score = 0;
  const line = new Uint8Array(n + 8);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) line[j + 4] = b[i * n + j];
    score += linePenalty(line, n);
    for (let j = 0; j < n; j++) line[j + 4] = b[j * n + i];
    score += linePenalty(line, n);
  }
  for (let y = 0; y + 1 < n; y++) {
    for (let x = 0; x + 1 < n; x++) {
      const c = b[y * n + x];
      if (c === b[y * n + x + 1] && c === b[(y + 1) * n + x] && c === b[(y + 1) * n + x + 1]) score += 3;
    }
  }
  // N4 balance: 10 points per whole 5% away from half dark
  let dark = 0;
  for (const v of b) dark += v;
  const total = n * n;
  return score + Math.floor((Math.abs(2 * dark - total) * 10) / total) * 10;
}

/**
 * The symbol as the legacy renderer builds it: its segmentation, version and raised level (qr-segments.ts),
 * then the mask of lowest penalty (lowest mask number on ties).
 */
export function encodeQr(q: QrData): ModuleGrid {
  return cachedEncoding(
    'qrcode',
    `${q.level}\u0000${q.text}`,
    () => buildQr(q),
    (g) => g.bits.length,
  );
}

function buildQr(q: QrData): ModuleGrid {
  const data = Uint8Array.from(q.text, (c) => c.charCodeAt(0) & 0xff);
  const plan = planQr(data, q.level);
  const codewords = interleave(qrDataCodewords(data, plan), plan.version, plan.level);
  let best: ModuleGrid | undefined;
  let bestScore = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const g = qrSymbol(codewords, plan.version, plan.level, mask);
    const s = qrPenalty(g);
    if (s < bestScore) {
      best = g;
      bestScore = s;
    }
  }
  return best!;
}

export function drawQr(field: FieldOf<'BQ'>, env: DrawEnv, canvas: Canvas): void {
  const { model, magnification: magParam } = field.args;
  const mag = Math.min(magParam ?? defaultQrMagnification(env.dpmm), largestMagnification(env));
  if (model === 1) report(env, field, '^BQ', 'QR Model 1 is drawn as Model 2', 2, '^BQ:1');
  const data = parseQrData(byteString(field.data));
  if (!data.text) {
    report(env, field, '^BQ', 'No QR Code data; field not printed');
    return;
  }
  const g = tryEncode(env, field, '^BQ', () => encodeQr(data));
  if (!g) return;
  // The legacy renderer drops ^FO symbols by the ^BY bar height, and lifts ^FT symbols above their baseline.
  const version = (g.width - 17) / 4;
  const offset = field.origin === 'FT' ? { y: g.height * mag - (8 * version + 16) * mag } : { y: field.barcode.height };
  return drawGridField(canvas, field, 'N', g, mag, mag, offset);
}
