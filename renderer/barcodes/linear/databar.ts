// ^BR GS1 DataBar. bwip-js encodes; the module is the command's magnification (not ^BY), and the
// height is the symbology's own (33 modules omnidirectional, 13 truncated, 10 limited, 34 expanded;
// stacked rows 5 + 7 and 33 + 33 with separator rows of `separatorHeight` modules). The height
// parameter only sizes the linear part of composites, whose 2D part we do not draw.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import type { Bar } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { bwipEncode } from './bwip.js';
import { gs1CheckDigit } from './code128-encode.js';
import { drawLinear } from './layout.js';

interface DataBarType {
  bcid: string;
  name: string;
  /** Height in modules of each distinct row bwip-js returns; 'sep' rows take the separator height. */
  rows: Array<number | 'sep'>;
  /** Data is a GTIN (13 digits + check) rather than a GS1 element string. */
  gtin: boolean;
}

const TYPES: Record<number, DataBarType> = {
  1: { bcid: 'databaromni', name: 'GS1 DataBar Omnidirectional', rows: [33], gtin: true },
  2: { bcid: 'databartruncated', name: 'GS1 DataBar Truncated', rows: [13], gtin: true },
  3: { bcid: 'databarstacked', name: 'GS1 DataBar Stacked', rows: [5, 'sep', 7], gtin: true },
  4: {
    bcid: 'databarstackedomni',
    name: 'GS1 DataBar Stacked Omnidirectional',
    rows: [33, 'sep', 'sep', 'sep', 33],
    gtin: true,
  },
  5: { bcid: 'databarlimited', name: 'GS1 DataBar Limited', rows: [10], gtin: true },
  6: { bcid: 'databarexpanded', name: 'GS1 DataBar Expanded', rows: [34], gtin: false },
};

/** Digits in a GS1 application identifier, from its first two digits. */
function aiLength(s: string): number {
  const two = s.slice(0, 2);
  if (/^(0\d|1\d|2[01]|30|37|9\d)$/.test(two)) return 2;
  if (/^(2[2-9]|4\d)$/.test(two)) return 3;
  return 4;
}

/** Fixed data lengths of common AIs; the others run to a `#` separator or the end. */
function aiDataLength(ai: string): number | undefined {
  const fixed: Record<string, number> = {
    '00': 18,
    '01': 14,
    '02': 14,
    '11': 6,
    '12': 6,
    '13': 6,
    '15': 6,
    '16': 6,
    '17': 6,
    '20': 2,
  };
  if (fixed[ai] !== undefined) return fixed[ai];
  if (/^3[1-6]\d\d$/.test(ai)) return 6;
  if (/^41\d$/.test(ai)) return 13;
  return undefined;
}

/** GS1 element string without parentheses (`0112345678901231...`) to bwip-js's `(01)...` form. */
export function bracketAis(data: string): string {
  if (data.startsWith('(')) return data;
  let out = '';
  let rest = data.replace(/ /g, '');
  while (rest.length) {
    const ai = rest.slice(0, aiLength(rest));
    rest = rest.slice(ai.length);
    const fixed = aiDataLength(ai);
    const end = fixed ?? (rest.includes('#') ? rest.indexOf('#') : rest.length);
    out += `(${ai})${rest.slice(0, end)}`;
    rest = rest.slice(fixed === undefined && rest[end] === '#' ? end + 1 : end);
  }
  return out;
}

export function drawDataBar(field: FieldOf<'BR'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation: o, type: typeP, magnification: magP, separatorHeight: sepP } = field.args;
  const type = TYPES[typeP];
  if (!type) {
    env.log?.add({
      byteIndex: field.at,
      byteSize: 0,
      command: '^BR',
      param: 2,
      message: 'GS1 DataBar composite types (7-12) are not supported; field not printed',
      feature: `^BR:${typeP}`,
    });
    return;
  }
  const raw = fieldText(field);
  let text: string;
  if (type.gtin) {
    const digits = raw
      .replace(/[^0-9]/g, '')
      .slice(0, 13)
      .padStart(13, '0');
    text = `(01)${digits}${gs1CheckDigit(digits)}`;
  } else text = bracketAis(raw.split('|')[0]);
  const out = bwipEncode(type.bcid, text);
  if ('error' in out) {
    reportUnencodable(env, field, '^BR', `Field data cannot be encoded by ${type.name}; ${out.error}`);
    return;
  }
  const first = out[0];
  const w = first.pixx ?? 0;
  const rows = first.sbs
    ? [runsToModules(first.sbs)]
    : type.rows.map((_, r) => (first.pixs ?? []).slice(r * w, (r + 1) * w));
  const m = magP ?? Math.max(1, Math.round(env.dpmm / 4));
  const sep = sepP;
  const bars: Bar[] = [];
  let v = 0;
  type.rows.forEach((rh, r) => {
    const h = (rh === 'sep' ? sep : rh) * m;
    const mods = rows[r] ?? [];
    for (let c = 0; c < mods.length; ) {
      if (!mods[c]) {
        c++;
        continue;
      }
      let e = c + 1;
      while (e < mods.length && mods[e]) e++;
      bars.push({ u: c * m, w: (e - c) * m, v, h });
      c = e;
    }
    v += h;
  });
  const width = Math.max(...rows.map((r) => r.length)) * m;
  return drawLinear(canvas, field, { width, height: v, bars, texts: [] }, fieldOrientation(field, o));
}

/** Bar/space widths (bar first) to one flag per module. */
function runsToModules(sbs: number[]): number[] {
  const out: number[] = [];
  sbs.forEach((w, k) => {
    for (let i = 0; i < w; i++) out.push(k % 2 === 0 ? 1 : 0);
  });
  return out;
}
