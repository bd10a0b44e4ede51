// ^BZ POSTNET / PLANET / USPS Intelligent Mail and ^B5 PLANET: bwip-js gives each bar's height and
// offset; bars are one module wide with 1.5-module spaces (5 dots a bar at ^BY2 in the references).

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import type { Bar } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { bwipEncode } from './bwip.js';
import { barHeight, drawLinear, interpretationLine } from './layout.js';

const BZ_TYPES: Record<number, { bcid: string; name: string }> = {
  0: { bcid: 'postnet', name: 'POSTNET' },
  1: { bcid: 'planet', name: 'PLANET' },
  2: { bcid: 'postnet', name: 'POSTNET' },
  3: { bcid: 'onecode', name: 'USPS Intelligent Mail' },
};

/** POSTNET bars per digit, 1 = tall (USPS DMM 708.4): two tall bars of five in each digit. */
const POSTNET_DIGITS = ['11000', '00011', '00101', '00110', '01001', '01010', '01100', '10001', '10010', '10100'];

/**
 * POSTNET of any length, as the legacy service draws it (bwip-js takes only 5, 9 or 11 digits): a tall frame
 * bar, five bars per digit, the check digit that makes the sum a multiple of 10, a tall frame bar.
 */
export function postnetBars(digits: string): boolean[] {
  const sum = [...digits].reduce((s, d) => s + Number(d), 0);
  const check = (10 - (sum % 10)) % 10;
  const bars = [...(digits + String(check))].flatMap((d) => [...POSTNET_DIGITS[Number(d)]].map((b) => b === '1'));
  return [true, ...bars, true];
}

/** Bar heights from the top of the symbol: tall bars fill it, short ones are 2/5 of it (0.05 of 0.125 in). */
function postnetHeights(digits: string, height: number): Array<{ h: number; bottom: number }> {
  const short = Math.round((2 * height) / 5);
  return postnetBars(digits).map((tall) => ({ h: tall ? height : short, bottom: 0 }));
}

/** Bar heights and bottom offsets of a bwip-js four-state or two-state symbol, scaled to `height`. */
function bwipHeights(
  bcid: string,
  digits: string,
  height: number,
): Array<{ h: number; bottom: number }> | { error: string } {
  const rows = bwipEncode(bcid, digits);
  if ('error' in rows) return rows;
  const bhs = rows[0].bhs ?? [];
  const bbs = rows[0].bbs ?? bhs.map(() => 0);
  const top = Math.max(...bhs.map((bh, i) => bh + bbs[i]));
  return bhs.map((bh, i) => ({ h: Math.round((bh / top) * height), bottom: Math.round((bbs[i] / top) * height) }));
}

function drawPostal(
  field: FieldOf<'BZ' | 'B5'>,
  env: DrawEnv,
  canvas: Canvas,
  command: string,
  bcid: string,
  name: string,
): void {
  const { orientation: o, height: h, line: lineP, lineAbove: aboveP } = field.args;
  const raw = fieldText(field);
  const digits = raw.replace(/[^0-9]/g, '');
  if (digits.length !== raw.length) {
    reportUnencodable(
      env,
      field,
      command,
      `Field data cannot be encoded by ${name}; ${raw.length - digits.length} character(s) left out`,
    );
  }
  const height = barHeight(field, h);
  if (bcid === 'postnet' && !digits.length) return;
  const heights = bcid === 'postnet' ? postnetHeights(digits, height) : bwipHeights(bcid, digits, height);
  if ('error' in heights) {
    reportUnencodable(env, field, command, `Field data cannot be encoded by ${name}; ${heights.error}`);
    return;
  }
  if (!heights.length) return;
  const m = field.barcode.moduleWidth;
  const space = Math.round(1.5 * m);
  const bars: Bar[] = heights.map((b, i) => ({ u: i * (m + space), w: m, v: height - b.bottom - b.h, h: b.h }));
  const width = heights.length * (m + space) - space;
  const texts = interpretationLine(digits, { width, height }, m, lineP, aboveP);
  return drawLinear(canvas, field, { width, height, bars, texts }, fieldOrientation(field, o));
}

export function drawBZ(field: FieldOf<'BZ'>, env: DrawEnv, canvas: Canvas): void {
  const t = BZ_TYPES[field.args.type] ?? BZ_TYPES[0];
  drawPostal(field, env, canvas, '^BZ', t.bcid, t.name);
}

export function drawB5(field: FieldOf<'B5'>, env: DrawEnv, canvas: Canvas): void {
  drawPostal(field, env, canvas, '^B5', 'planet', 'PLANET');
}
