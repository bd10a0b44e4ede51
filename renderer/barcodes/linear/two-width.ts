// Symbologies of narrow and wide elements (and Code 93) that bwip-js encodes and we draw at ^BY widths:
// ^B3 Code 39, ^BL LOGMARS, ^BA Code 93, ^B2 Interleaved 2 of 5, ^BI Industrial 2 of 5, ^BJ Standard 2 of 5,
// ^BK Codabar, ^B1 Code 11, ^BM MSI. Each entry says how data becomes text, reading its options by the names
// the command table (renderer/commands/barcodes-linear.ts) gives them.

import type { Field } from '../../model.js';
import type { DrawEnv, FieldRenderer, LabelElement } from '../../display/drawer.js';
import type { NamedArgs } from '../../zpl/params.js';
import { barsFromRuns, modulesToDots, narrowWideToDots } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { bwipElements, type BwipOptions } from './bwip.js';
import { CODE39_SET, code11Checks, code39Check, code93Checks, mod10Weighted31, msiMod10, msiMod11 } from './checks.js';
import { barHeight, flag, interpretationLine, linearElement } from './layout.js';

interface Prepared {
  /** Text handed to bwip-js. */
  encode: string;
  /** Interpretation line. */
  text: string;
  options?: BwipOptions;
  /** Characters left out because the symbology has no place for them. */
  skipped?: number;
}

interface TwoWidthSymbology {
  command: string;
  name: string;
  bcid: string;
  /** `ratio`: narrow/wide elements at ^BY ratio; `modules`: fixed module multiples (Code 93). */
  widths: 'ratio' | 'modules';
  prepare(data: string, args: NamedArgs): Prepared | null;
}

const keep = (data: string, allowed: (c: string) => boolean) => {
  let out = '';
  for (const c of data) if (allowed(c)) out += c;
  return { out, skipped: data.length - out.length };
};
const digitsOnly = (data: string) => keep(data, (c) => c >= '0' && c <= '9');

const code39: TwoWidthSymbology = {
  command: '^B3', name: 'Code 39', bcid: 'code39', widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = keep(data.toUpperCase(), (c) => CODE39_SET.includes(c) && c !== '*');
    if (!out) return null;
    const body = args.mod43 === 'Y' ? out + code39Check(out) : out;
    return { encode: body, text: `*${body}*`, skipped };
  },
};

const logmars: TwoWidthSymbology = {
  command: '^BL', name: 'LOGMARS', bcid: 'code39', widths: 'ratio',
  prepare(data) {
    const { out, skipped } = keep(data.toUpperCase(), (c) => CODE39_SET.includes(c) && c !== '*');
    if (!out) return null;
    const body = out + code39Check(out);
    return { encode: body, text: body, skipped };
  },
};

const code93: TwoWidthSymbology = {
  command: '^BA', name: 'Code 93', bcid: 'code93', widths: 'modules',
  prepare(data, args) {
    const { out, skipped } = keep(data, (c) => c.charCodeAt(0) < 128);
    if (!out) return null;
    // The two check characters are always encoded; the line shows them when asked (e = Y).
    return { encode: out, text: args.checkDigit === 'Y' ? out + code93Checks(out) : out, options: { includecheck: true, ...(/^[0-9A-Z\-. $/+%]*$/.test(out) ? {} : { parse: false }) }, skipped };
  },
};

const interleaved2of5: TwoWidthSymbology = {
  command: '^B2', name: 'Interleaved 2 of 5', bcid: 'interleaved2of5', widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = digitsOnly(data);
    if (!out) return null;
    let body = args.mod10 === 'Y' ? out + mod10Weighted31(out) : out;
    if (body.length % 2) body = '0' + body;
    return { encode: body, text: body, skipped };
  },
};

const industrial2of5: TwoWidthSymbology = {
  command: '^BI', name: 'Industrial 2 of 5', bcid: 'industrial2of5', widths: 'ratio',
  prepare(data) {
    const { out, skipped } = digitsOnly(data);
    return out ? { encode: out, text: out, skipped } : null;
  },
};

const standard2of5: TwoWidthSymbology = {
  command: '^BJ', name: 'Standard 2 of 5', bcid: 'iata2of5', widths: 'ratio',
  prepare(data) {
    const { out, skipped } = digitsOnly(data);
    return out ? { encode: out, text: out, skipped } : null;
  },
};

const codabar: TwoWidthSymbology = {
  command: '^BK', name: 'Codabar', bcid: 'rationalizedCodabar', widths: 'ratio',
  prepare(data, args) {
    // The start and stop characters come from the command (k, l); letters A-D at the data's ends are dropped.
    const inner = data.toUpperCase().replace(/^[A-D]/, '').replace(/[A-D]$/, '');
    const { out, skipped } = keep(inner, (c) => '0123456789-$:/.+'.includes(c));
    const body = ((args.start as string | undefined) ?? 'A') + out + ((args.stop as string | undefined) ?? 'A');
    return { encode: body, text: body, skipped };
  },
};

const code11: TwoWidthSymbology = {
  command: '^B1', name: 'Code 11', bcid: 'code11', widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = keep(data, (c) => '0123456789-'.includes(c));
    if (!out) return null;
    const body = out + code11Checks(out, args.oneCheckDigit !== 'Y');
    return { encode: body, text: body, skipped };
  },
};

const msi: TwoWidthSymbology = {
  command: '^BM', name: 'MSI', bcid: 'msi', widths: 'ratio',
  prepare(data, args) {
    const { out, skipped } = digitsOnly(data);
    if (!out) return null;
    let body = out;
    switch (args.checkDigits ?? 'B') {
      case 'B': body += msiMod10(body); break;
      case 'C': body += msiMod10(body); body += msiMod10(body); break;
      case 'D': body += msiMod11(body); body += msiMod10(body); break;
      default: break;
    }
    return { encode: body, text: args.lineCheckDigit === 'Y' ? body : out, skipped };
  },
};

export const twoWidthSymbologies: readonly TwoWidthSymbology[] = [code39, logmars, code93, interleaved2of5, industrial2of5, standard2of5, codabar, code11, msi];

function drawerFor(s: TwoWidthSymbology): FieldRenderer {
  return (field: Field, env: DrawEnv): LabelElement[] => {
    const { orientation: o, height: h, line, lineAbove: above } = field.args;
    const prepared = s.prepare(fieldText(field), field.args);
    if (!prepared) {
      reportUnencodable(env, field, s.command, `Field data cannot be encoded by ${s.name}; nothing printed`);
      return [];
    }
    if (prepared.skipped) {
      reportUnencodable(env, field, s.command, `Field data cannot be encoded by ${s.name}; ${prepared.skipped} character(s) left out`);
    }
    const elements = bwipElements(s.bcid, prepared.encode, prepared.options);
    if ('error' in elements) {
      reportUnencodable(env, field, s.command, `Field data cannot be encoded by ${s.name}; ${elements.error}`);
      return [];
    }
    const { moduleWidth, ratio } = field.barcode;
    const runs = s.widths === 'modules' ? modulesToDots(elements, moduleWidth) : narrowWideToDots(elements, moduleWidth, ratio, (e) => e > 1);
    // A trailing space (inter-character gap after the last character) is not part of the symbol.
    if (runs.length % 2 === 0) runs.pop();
    const height = barHeight(field, h);
    const { bars, width } = barsFromRuns(runs, 0, height);
    // ^BL has no line parameter: its line is always printed.
    const texts = interpretationLine(prepared.text, { width, height }, moduleWidth, flag(line, true), flag(above, false));
    return linearElement(field, { width, height, bars, texts }, fieldOrientation(field, o));
  };
}

export const twoWidthRenderers: Record<string, FieldRenderer> = Object.fromEntries(
  twoWidthSymbologies.map((s) => [s.command.slice(1), drawerFor(s)]),
);
