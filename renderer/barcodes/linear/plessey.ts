// ^BP Plessey: written out here because bwip-js lays it out in other element units than ZPL's narrow/wide.
// Start 1101, each hex digit as 4 bits LSB first, an 8-bit CRC, then the termination bar and reverse start.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { barsFromRuns } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { barHeight, drawLinear, interpretationLine } from './layout.js';

/** CRC generator x^8 + x^7 + x^6 + x^5 + x^3 + 1 (bits for x^8..x^0). */
const POLY = [1, 1, 1, 1, 0, 1, 0, 0, 1];

/** Data bits (LSB first per hex digit) followed by their 8 CRC bits. */
export function plesseyBits(hex: string): number[] {
  const bits: number[] = [];
  for (const c of hex) {
    const v = Number.parseInt(c, 16);
    for (let b = 0; b < 4; b++) bits.push((v >> b) & 1);
  }
  const work = [...bits, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < bits.length; i++) {
    if (work[i]) for (let j = 0; j < POLY.length; j++) work[i + j] ^= POLY[j];
  }
  return [...bits, ...work.slice(bits.length)];
}

/** CRC as two hex digits, as the interpretation line shows it. */
function crcHex(bits: readonly number[]): string {
  const crc = bits.slice(-8);
  let s = '';
  for (let k = 0; k < 8; k += 4)
    s += (crc[k] | (crc[k + 1] << 1) | (crc[k + 2] << 2) | (crc[k + 3] << 3)).toString(16).toUpperCase();
  return s;
}

export function drawPlessey(field: FieldOf<'BP'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation: o, lineCheckDigit: showCheck, height: h, line: lineP, lineAbove: aboveP } = field.args;
  const raw = fieldText(field).toUpperCase();
  const hex = raw.replace(/[^0-9A-F]/g, '');
  if (hex.length !== raw.length) {
    reportUnencodable(
      env,
      field,
      '^BP',
      `Field data cannot be encoded by Plessey; ${raw.length - hex.length} character(s) left out`,
    );
  }
  if (!hex) return;
  const { moduleWidth: n, ratio } = field.barcode;
  const w = Math.round(n * ratio);
  const bit = (b: number) => (b ? [w, n] : [n, w]);
  const bits = plesseyBits(hex);
  const runs = [...[1, 1, 0, 1].flatMap(bit), ...bits.flatMap(bit), n + w, w, n, w, n, n, w, n, w];
  const height = barHeight(field, h);
  const { bars, width } = barsFromRuns(runs, 0, height);
  const text = showCheck ? hex + crcHex(bits) : hex;
  const texts = interpretationLine(text, { width, height }, n, lineP, aboveP);
  return drawLinear(canvas, field, { width, height, bars, texts }, fieldOrientation(field, o));
}
