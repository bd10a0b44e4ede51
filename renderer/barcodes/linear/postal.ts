// ^BZ POSTNET / PLANET / USPS Intelligent Mail and ^B5 PLANET: bwip-js gives each bar's height and
// offset; bars are one module wide with 1.5-module spaces (5 dots a bar at ^BY2 in the references).

import type { Field } from '../../model.js';
import type { DrawEnv, LabelElement } from '../../layout/drawer.js';
import type { Bar } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { bwipEncode } from './bwip.js';
import { barHeight, flag, interpretationLine, linearElement } from './layout.js';

const BZ_TYPES: Record<number, { bcid: string; name: string }> = {
  0: { bcid: 'postnet', name: 'POSTNET' },
  1: { bcid: 'planet', name: 'PLANET' },
  2: { bcid: 'postnet', name: 'POSTNET' },
  3: { bcid: 'onecode', name: 'USPS Intelligent Mail' },
};

function drawPostal(field: Field, env: DrawEnv, command: string, bcid: string, name: string): LabelElement[] {
  const { orientation: o, height: h, line: lineP, lineAbove: aboveP } = field.args;
  const raw = fieldText(field);
  const digits = raw.replace(/[^0-9]/g, '');
  if (digits.length !== raw.length) {
    reportUnencodable(env, field, command, `Field data cannot be encoded by ${name}; ${raw.length - digits.length} character(s) left out`);
  }
  const rows = bwipEncode(bcid, digits);
  if ('error' in rows) {
    reportUnencodable(env, field, command, `Field data cannot be encoded by ${name}; ${rows.error}`);
    return [];
  }
  const bhs = rows[0].bhs ?? [];
  const bbs = rows[0].bbs ?? bhs.map(() => 0);
  if (!bhs.length) return [];
  const m = field.barcode.moduleWidth;
  const space = Math.round(1.5 * m);
  const height = barHeight(field, h);
  const top = Math.max(...bhs.map((bh, i) => bh + bbs[i]));
  const bars: Bar[] = bhs.map((bh, i) => {
    const barH = Math.round((bh / top) * height);
    const bottom = Math.round((bbs[i] / top) * height);
    return { u: i * (m + space), w: m, v: height - bottom - barH, h: barH };
  });
  const width = bhs.length * (m + space) - space;
  const texts = interpretationLine(digits, { width, height }, m, flag(lineP, false), flag(aboveP, false));
  return linearElement(field, { width, height, bars, texts }, fieldOrientation(field, o));
}

export function drawBZ(field: Field, env: DrawEnv): LabelElement[] {
  const t = BZ_TYPES[(field.args.type as number | undefined) ?? 0] ?? BZ_TYPES[0];
  return drawPostal(field, env, '^BZ', t.bcid, t.name);
}

export function drawB5(field: Field, env: DrawEnv): LabelElement[] {
  return drawPostal(field, env, '^B5', 'planet', 'PLANET');
}
