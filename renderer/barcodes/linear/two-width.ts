// Symbologies of narrow and wide elements (and Code 93) that bwip-js encodes and we draw at ^BY widths:
// ^B3 Code 39, ^BL LOGMARS, ^BA Code 93, ^B2 Interleaved 2 of 5, ^BI Industrial 2 of 5, ^BJ Standard 2 of 5,
// ^BK Codabar, ^B1 Code 11, ^BM MSI. Each entry says how data becomes text, reading its options by the names their
// parameter tables (renderer/commands/field-kinds.ts) give them.

import type { FieldArgs, FieldOf } from '../../model.js';
import type { DrawEnv, Drawer, DrawerTable } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { barsFromRuns, modulesToDots, narrowWideToDots } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { bwipElements, type BwipOptions } from './bwip.js';
import { CODE39_SET, code11Checks, code39Check, code93Checks, mod10Weighted31, msiMod10, msiMod11 } from './checks.js';
import { barHeight, drawLinear, interpretationLine } from './layout.js';

interface Prepared {
  /** Text handed to bwip-js. */
  encode: string;
  /** Interpretation line. */
  text: string;
  options?: BwipOptions;
  /** Characters left out because the symbology has no place for them. */
  skipped?: number;
}

type TwoWidthKind = 'B3' | 'BL' | 'BA' | 'B2' | 'BI' | 'BJ' | 'BK' | 'B1' | 'BM';

interface TwoWidthSymbology<K extends TwoWidthKind> {
  command: `^${K}`;
  name: string;
  bcid: string;
  /** `ratio`: narrow/wide elements at ^BY ratio; `modules`: fixed module multiples (Code 93). */
  widths: 'ratio' | 'modules';
  prepare(data: string, args: FieldArgs[K]): Prepared | null;
}

const keep = (data: string, allowed: (c: string) => boolean) => {
  let out = '';
  for (const c of data) if (allowed(c)) out += c;
  return { out, skipped: data.length - out.length };
};
const digitsOnly = (data: string) => keep(data, (c) => c >= '0' && c <= '9');

const code39: TwoWidthSymbology<'B3'> = {
  command: '^B3',
  name: 'Code 39',
  bcid: 'code39',
  widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = keep(data.toUpperCase(), (c) => CODE39_SET.includes(c) && c !== '*');
    if (!out) return null;
    const body = args.mod43 ? out + code39Check(out) : out;
    return { encode: body, text: `*${body}*`, skipped };
  },
};

const logmars: TwoWidthSymbology<'BL'> = {
  command: '^BL',
  name: 'LOGMARS',
  bcid: 'code39',
  widths: 'ratio',
  prepare(data) {
    const { out, skipped } = keep(data.toUpperCase(), (c) => CODE39_SET.includes(c) && c !== '*');
    if (!out) return null;
    const body = out + code39Check(out);
    return { encode: body, text: body, skipped };
  },
};

const code93: TwoWidthSymbology<'BA'> = {
  command: '^BA',
  name: 'Code 93',
  bcid: 'code93',
  widths: 'modules',
  prepare(data, args) {
    const { out, skipped } = keep(data, (c) => c.charCodeAt(0) < 128);
    if (!out) return null;
    // The two check characters are always encoded; the line shows them when asked (e = Y).
    return {
      encode: out,
      text: args.checkDigit ? out + code93Checks(out) : out,
      options: { includecheck: true, ...(/^[0-9A-Z\-. $/+%]*$/.test(out) ? {} : { parse: false }) },
      skipped,
    };
  },
};

const interleaved2of5: TwoWidthSymbology<'B2'> = {
  command: '^B2',
  name: 'Interleaved 2 of 5',
  bcid: 'interleaved2of5',
  widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = digitsOnly(data);
    if (!out) return null;
    let body = args.mod10 ? out + mod10Weighted31(out) : out;
    if (body.length % 2) body = '0' + body;
    return { encode: body, text: body, skipped };
  },
};

const industrial2of5: TwoWidthSymbology<'BI'> = {
  command: '^BI',
  name: 'Industrial 2 of 5',
  bcid: 'industrial2of5',
  widths: 'ratio',
  prepare(data) {
    const { out, skipped } = digitsOnly(data);
    return out ? { encode: out, text: out, skipped } : null;
  },
};

const standard2of5: TwoWidthSymbology<'BJ'> = {
  command: '^BJ',
  name: 'Standard 2 of 5',
  bcid: 'iata2of5',
  widths: 'ratio',
  prepare(data) {
    const { out, skipped } = digitsOnly(data);
    return out ? { encode: out, text: out, skipped } : null;
  },
};

const codabar: TwoWidthSymbology<'BK'> = {
  command: '^BK',
  name: 'Codabar',
  bcid: 'rationalizedCodabar',
  widths: 'ratio',
  prepare(data, args) {
    // The start and stop characters come from the command (k, l); letters A-D at the data's ends are dropped.
    const inner = data
      .toUpperCase()
      .replace(/^[A-D]/, '')
      .replace(/[A-D]$/, '');
    const { out, skipped } = keep(inner, (c) => '0123456789-$:/.+'.includes(c));
    const body = args.start + out + args.stop;
    return { encode: body, text: body, skipped };
  },
};

const code11: TwoWidthSymbology<'B1'> = {
  command: '^B1',
  name: 'Code 11',
  bcid: 'code11',
  widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = keep(data, (c) => '0123456789-'.includes(c));
    if (!out) return null;
    const body = out + code11Checks(out, !args.oneCheckDigit);
    return { encode: body, text: body, skipped };
  },
};

const msi: TwoWidthSymbology<'BM'> = {
  command: '^BM',
  name: 'MSI',
  bcid: 'msi',
  widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = digitsOnly(data);
    if (!out) return null;
    let body = out;
    switch (args.checkDigits) {
      case 'B':
        body += msiMod10(body);
        break;
      case 'C':
        body += msiMod10(body);
        body += msiMod10(body);
        break;
      case 'D':
        body += msiMod11(body);
        body += msiMod10(body);
        break;
      default:
        break;
    }
    return { encode: body, text: args.lineCheckDigit ? body : out, skipped };
  },
};

/**
 * Draws a two-width symbol: `prepared` is the field data as the symbology encodes it (null: nothing encodable).
 * ^BL has no line parameter: its line is always printed.
 */
function drawTwoWidth(
  s: Omit<TwoWidthSymbology<TwoWidthKind>, 'prepare'>,
  prepared: Prepared | null,
  field: FieldOf<TwoWidthKind>,
  env: DrawEnv,
  canvas: Canvas,
): void {
  const { orientation: o, height: h, lineAbove: above } = field.args;
  const line = 'line' in field.args ? field.args.line : true;
  if (!prepared) {
    reportUnencodable(env, field, s.command, `Field data cannot be encoded by ${s.name}; nothing printed`);
    return;
  }
  if (prepared.skipped) {
    reportUnencodable(
      env,
      field,
      s.command,
      `Field data cannot be encoded by ${s.name}; ${prepared.skipped} character(s) left out`,
    );
  }
  const elements = bwipElements(s.bcid, prepared.encode, prepared.options);
  if ('error' in elements) {
    reportUnencodable(env, field, s.command, `Field data cannot be encoded by ${s.name}; ${elements.error}`);
    return;
  }
  const { moduleWidth, ratio } = field.barcode;
  const runs =
    s.widths === 'modules'
      ? modulesToDots(elements, moduleWidth)
      : narrowWideToDots(elements, moduleWidth, ratio, (e) => e > 1);
  // A trailing space (inter-character gap after the last character) is not part of the symbol.
  if (runs.length % 2 === 0) runs.pop();
  const height = barHeight(field, h);
  const { bars, width } = barsFromRuns(runs, 0, height);
  const texts = interpretationLine(prepared.text, { width, height }, moduleWidth, line, above);
  drawLinear(canvas, field, { width, height, bars, texts }, fieldOrientation(field, o));
}

/** A drawer for symbology `s`: `args` hands its `prepare` the field's own arguments (typed at each concrete kind). */
const drawer =
  <K extends TwoWidthKind>(s: TwoWidthSymbology<K>, args: (field: FieldOf<K>) => FieldArgs[K]): Drawer<K> =>
  (field, env, canvas) =>
    drawTwoWidth(s, s.prepare(fieldText(field), args(field)), field, env, canvas);

export const twoWidthDrawers: DrawerTable<TwoWidthKind> = {
  B3: drawer(code39, (f) => f.args),
  BL: drawer(logmars, (f) => f.args),
  BA: drawer(code93, (f) => f.args),
  B2: drawer(interleaved2of5, (f) => f.args),
  BI: drawer(industrial2of5, (f) => f.args),
  BJ: drawer(standard2of5, (f) => f.args),
  BK: drawer(codabar, (f) => f.args),
  B1: drawer(code11, (f) => f.args),
  BM: drawer(msi, (f) => f.args),
};
