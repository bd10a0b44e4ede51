// ^BE EAN-13, ^B8 EAN-8, ^BU UPC-A, ^B9 UPC-E and ^BS UPC/EAN add-ons. bwip-js encodes (and marks the
// guard bars); we draw at the ^BY module width with the legacy renderer's guard and digit layout.

import type { FieldOf } from '../../model.js';
import type { DrawEnv, Drawer, DrawerTable } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import type { Bar } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { interpretationFont, measure, type FrameText } from '../common/interpretation.js';
import { gs1CheckDigit } from './code128-encode.js';
import { barHeight, drawLinear, interpretationLine } from './layout.js';
import { bwipEncode } from './bwip.js';

/** Guard bars reach this many modules below the others (13 dots at ^BY2 in the references). */
const GUARD_EXTENSION_MODULES = 6.5;

interface UpcEanSpec {
  command: string;
  name: string;
  bcid: string;
  /** Digits the symbol holds without its check digit. */
  digits: number;
  /** Digits printed left of the start guard and right of the end guard. */
  outside: { left: number; right: number };
  /** Digit groups between the guards, as [first digit index, count, first module, modules wide]. */
  groups: Array<[number, number, number, number]>;
}

type UpcEanKind = 'BE' | 'B8' | 'BU' | 'B9';

const SPECS: Record<UpcEanKind, UpcEanSpec> = {
  BE: {
    command: '^BE',
    name: 'EAN-13',
    bcid: 'ean13',
    digits: 12,
    outside: { left: 1, right: 0 },
    groups: [
      [1, 6, 3, 42],
      [7, 6, 50, 42],
    ],
  },
  B8: {
    command: '^B8',
    name: 'EAN-8',
    bcid: 'ean8',
    digits: 7,
    outside: { left: 0, right: 0 },
    groups: [
      [0, 4, 3, 28],
      [4, 4, 36, 28],
    ],
  },
  BU: {
    command: '^BU',
    name: 'UPC-A',
    bcid: 'upca',
    digits: 11,
    outside: { left: 1, right: 1 },
    groups: [
      [1, 5, 10, 35],
      [6, 5, 50, 35],
    ],
  },
  B9: {
    command: '^B9',
    name: 'UPC-E',
    bcid: 'upce',
    digits: 7,
    outside: { left: 1, right: 1 },
    groups: [[1, 6, 3, 42]],
  },
};

/** Full digit string with its check digit, from field data (cut or zero-filled on the left to length). */
function withCheck(spec: UpcEanSpec, digits: string): string {
  let body = digits.slice(0, spec.digits);
  body = body.padStart(spec.digits, '0');
  if (spec.bcid === 'upce') {
    if (body[0] !== '0' && body[0] !== '1') body = '0' + body.slice(1);
    return body + gs1CheckDigit(expandUpcE(body));
  }
  return body + gs1CheckDigit(body);
}

/** UPC-E (number system + 6 digits) written out as the UPC-A number it stands for, for the check digit. */
function expandUpcE(e: string): string {
  const ns = e[0];
  const [d1, d2, d3, d4, d5, d6] = e.slice(1);
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return ns + d1 + d2 + d6 + '0000' + d3 + d4 + d5;
    case '3':
      return ns + d1 + d2 + d3 + '00000' + d4 + d5;
    case '4':
      return ns + d1 + d2 + d3 + d4 + '00000' + d5;
    default:
      return ns + d1 + d2 + d3 + d4 + d5 + '0000' + d6;
  }
}

interface Encoded {
  sbs: number[];
  guards: Set<number>;
}

/** Bars and which of them are guards (bwip-js draws guards taller when it lays out the digits). */
function encode(bcid: string, text: string): Encoded | { error: string } {
  const rows = bwipEncode(bcid, text, { includetext: true });
  if ('error' in rows) return rows;
  const guards = new Set<number>();
  (rows[0].bhs ?? []).forEach((h, i) => {
    if (h > 1) guards.add(i);
  });
  return { sbs: rows[0].sbs ?? [], guards };
}

function drawerFor(spec: UpcEanSpec): Drawer<UpcEanKind> {
  return (field, env, canvas) => {
    const { orientation: o, height: h, line: lineP, lineAbove: aboveP } = field.args;
    const checkP = 'lineCheckDigit' in field.args ? field.args.lineCheckDigit : undefined;
    const raw = fieldText(field);
    const digits = raw.replace(/[^0-9]/g, '');
    if (!digits) {
      reportUnencodable(env, field, spec.command, `Field data cannot be encoded by ${spec.name}; nothing printed`);
      return;
    }
    if (digits.length !== raw.length) {
      reportUnencodable(
        env,
        field,
        spec.command,
        `Field data cannot be encoded by ${spec.name}; ${raw.length - digits.length} character(s) left out`,
      );
    }
    const full = withCheck(spec, digits);
    const enc = encode(spec.bcid, full);
    if ('error' in enc) {
      reportUnencodable(env, field, spec.command, `Field data cannot be encoded by ${spec.name}; ${enc.error}`);
      return;
    }
    const m = field.barcode.moduleWidth;
    const height = barHeight(field, h);
    const line = lineP;
    const above = aboveP;
    const ext = Math.round(GUARD_EXTENSION_MODULES * m);
    const bars: Bar[] = [];
    let u = 0;
    for (let k = 0; k < enc.sbs.length; k++) {
      const w = enc.sbs[k] * m;
      if (k % 2 === 0) bars.push({ u, w, v: 0, h: enc.guards.has(k / 2) ? height + ext : height });
      u += w;
    }
    const width = u;
    const shown = spec.bcid === 'upca' || spec.bcid === 'upce' ? (checkP === false ? full.slice(0, -1) : full) : full;
    let texts: FrameText[] = [];
    if (line && above) texts = interpretationLine(shown, { width, height }, m, true, true);
    else if (line) texts = guardLayout(spec, shown, full, m, height);
    return drawLinear(canvas, field, { width, height, bars, texts }, fieldOrientation(field, o));
  };
}

/** Digit pitch under EAN/UPC symbols, in modules (13.2 dots at ^BY2 in the references). */
const DIGIT_PITCH_MODULES = 6.6;

/**
 * Digits under an EAN/UPC symbol: each group spread at the legacy pitch and kept 3 to 3.5 modules clear of
 * the centre guard's middle (measured), the outside digits 11 modules beyond the outer guards.
 */
function guardLayout(spec: UpcEanSpec, shown: string, full: string, m: number, height: number): FrameText[] {
  const font = interpretationFont(m, 'N');
  const v = height + 2 * m;
  const cell = measure('0', font).width;
  const pitch = DIGIT_PITCH_MODULES * m;
  const out: FrameText[] = [];
  const total = spec.bcid === 'upce' ? 51 : spec.bcid === 'ean8' ? 67 : 95;
  const centre = spec.groups.length === 2 ? spec.groups[1][2] - 3 : total / 2;
  spec.groups.forEach(([first, count, module, modules], gi) => {
    const span = (count - 1) * pitch + cell;
    let start: number;
    if (spec.groups.length === 1) start = module * m + (modules * m - span) / 2;
    else start = gi === 0 ? (centre - 3) * m - span : (centre + 3.5) * m;
    for (let i = 0; i < count; i++) out.push({ text: full[first + i], u: Math.round(start + i * pitch), v, font });
  });
  if (spec.outside.left) out.push({ text: full[0], u: -11 * m, v, font });
  if (spec.outside.right && shown.length === full.length)
    out.push({ text: full[full.length - 1], u: (total + 11) * m - cell, v, font });
  return out;
}

/** ^BS: the 2- or 5-digit add-on, its digits above it by default. */
function drawAddOn(field: FieldOf<'BS'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation: o, height: h, line: lineP, lineAbove: aboveP } = field.args;
  const raw = fieldText(field);
  let digits = raw.replace(/[^0-9]/g, '');
  if (!digits) {
    reportUnencodable(env, field, '^BS', 'Field data cannot be encoded by UPC/EAN extension; nothing printed');
    return;
  }
  digits = digits.length <= 2 ? digits.padStart(2, '0') : digits.slice(0, 5).padStart(5, '0');
  const enc = encode(digits.length === 2 ? 'ean2' : 'ean5', digits);
  if ('error' in enc) {
    reportUnencodable(env, field, '^BS', `Field data cannot be encoded by UPC/EAN extension; ${enc.error}`);
    return;
  }
  const m = field.barcode.moduleWidth;
  const height = barHeight(field, h);
  const bars: Bar[] = [];
  let u = 0;
  for (let k = 0; k < enc.sbs.length; k++) {
    const w = enc.sbs[k] * m;
    if (k % 2 === 0) bars.push({ u, w, v: 0, h: height });
    u += w;
  }
  const texts = interpretationLine(digits, { width: u, height }, m, lineP, aboveP);
  return drawLinear(canvas, field, { width: u, height, bars, texts }, fieldOrientation(field, o));
}

export const upcEanDrawers: DrawerTable<UpcEanKind | 'BS'> = {
  BE: drawerFor(SPECS.BE),
  B8: drawerFor(SPECS.B8),
  BU: drawerFor(SPECS.BU),
  B9: drawerFor(SPECS.B9),
  BS: drawAddOn,
};
