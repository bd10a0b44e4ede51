// Symbologies of narrow and wide elements (and Code 93) that bwip-js encodes and we draw at ^BY widths:
// ^B3 Code 39, ^BL LOGMARS, ^BA Code 93, ^B2 Interleaved 2 of 5, ^BI Industrial 2 of 5, ^BJ Standard 2 of 5,
// ^BK Codabar, ^B1 Code 11, ^BM MSI. Each entry says where its parameters are and how data becomes text.

import type { Field } from '../../model.js';
import type { DrawEnv, FieldRenderer, LabelElement } from '../../layout/drawer.js';
import type { ParamValue } from '../../zpl/params.js';
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
  /** Parameter positions: orientation, height, line, line above (-1: not a parameter). */
  at: { o: number; h: number; line: number; above: number };
  lineDefault: boolean;
  /** `ratio`: narrow/wide elements at ^BY ratio; `modules`: fixed module multiples (Code 93). */
  widths: 'ratio' | 'modules';
  prepare(data: string, p: ParamValue[]): Prepared | null;
}

const keep = (data: string, allowed: (c: string) => boolean) => {
  let out = '';
  for (const c of data) if (allowed(c)) out += c;
  return { out, skipped: data.length - out.length };
};
const digitsOnly = (data: string) => keep(data, (c) => c >= '0' && c <= '9');

const code39: TwoWidthSymbology = {
  command: '^B3', name: 'Code 39', bcid: 'code39', at: { o: 0, h: 2, line: 3, above: 4 }, lineDefault: true, widths: 'ratio',
  prepare(data, p) {
    const { out, skipped } = keep(data.toUpperCase(), (c) => CODE39_SET.includes(c) && c !== '*');
    if (!out) return null;
    const body = p[1] === 'Y' ? out + code39Check(out) : out;
    return { encode: body, text: `*${body}*`, skipped };
  },
};

const logmars: TwoWidthSymbology = {
  command: '^BL', name: 'LOGMARS', bcid: 'code39', at: { o: 0, h: 1, line: -1, above: 2 }, lineDefault: true, widths: 'ratio',
  prepare(data) {
    const { out, skipped } = keep(data.toUpperCase(), (c) => CODE39_SET.includes(c) && c !== '*');
    if (!out) return null;
    const body = out + code39Check(out);
    return { encode: body, text: body, skipped };
  },
};

const code93: TwoWidthSymbology = {
  command: '^BA', name: 'Code 93', bcid: 'code93', at: { o: 0, h: 1, line: 2, above: 3 }, lineDefault: true, widths: 'modules',
  prepare(data, p) {
    const { out, skipped } = keep(data, (c) => c.charCodeAt(0) < 128);
    if (!out) return null;
    // The two check characters are always encoded; the line shows them when asked (e = Y).
    return { encode: out, text: p[4] === 'Y' ? out + code93Checks(out) : out, options: { includecheck: true, ...(/^[0-9A-Z\-. $/+%]*$/.test(out) ? {} : { parse: false }) }, skipped };
  },
};

const interleaved2of5: TwoWidthSymbology = {
  command: '^B2', name: 'Interleaved 2 of 5', bcid: 'interleaved2of5', at: { o: 0, h: 1, line: 2, above: 3 }, lineDefault: true, widths: 'ratio',
  prepare(data, p) {
    const { out, skipped } = digitsOnly(data);
    if (!out) return null;
    let body = p[4] === 'Y' ? out + mod10Weighted31(out) : out;
    if (body.length % 2) body = '0' + body;
    return { encode: body, text: body, skipped };
  },
};

const industrial2of5: TwoWidthSymbology = {
  command: '^BI', name: 'Industrial 2 of 5', bcid: 'industrial2of5', at: { o: 0, h: 1, line: 2, above: 3 }, lineDefault: true, widths: 'ratio',
  prepare(data) {
    const { out, skipped } = digitsOnly(data);
    return out ? { encode: out, text: out, skipped } : null;
  },
};

const standard2of5: TwoWidthSymbology = {
  command: '^BJ', name: 'Standard 2 of 5', bcid: 'iata2of5', at: { o: 0, h: 1, line: 2, above: 3 }, lineDefault: true, widths: 'ratio',
  prepare(data) {
    const { out, skipped } = digitsOnly(data);
    return out ? { encode: out, text: out, skipped } : null;
  },
};

const codabar: TwoWidthSymbology = {
  command: '^BK', name: 'Codabar', bcid: 'rationalizedCodabar', at: { o: 0, h: 2, line: 3, above: 4 }, lineDefault: true, widths: 'ratio',
  prepare(data, p) {
    // The start and stop characters come from the command (k, l); letters A-D at the data's ends are dropped.
    const inner = data.toUpperCase().replace(/^[A-D]/, '').replace(/[A-D]$/, '');
    const { out, skipped } = keep(inner, (c) => '0123456789-$:/.+'.includes(c));
    const body = ((p[5] as string | undefined) ?? 'A') + out + ((p[6] as string | undefined) ?? 'A');
    return { encode: body, text: body, skipped };
  },
};

const code11: TwoWidthSymbology = {
  command: '^B1', name: 'Code 11', bcid: 'code11', at: { o: 0, h: 2, line: 3, above: 4 }, lineDefault: true, widths: 'ratio',
  prepare(data, p) {
    const { out, skipped } = keep(data, (c) => '0123456789-'.includes(c));
    if (!out) return null;
    const body = out + code11Checks(out, p[1] !== 'Y');
    return { encode: body, text: body, skipped };
  },
};

const msi: TwoWidthSymbology = {
  command: '^BM', name: 'MSI', bcid: 'msi', at: { o: 0, h: 2, line: 3, above: 4 }, lineDefault: true, widths: 'ratio',
  prepare(data, p) {
    const { out, skipped } = digitsOnly(data);
    if (!out) return null;
    let body = out;
    switch (p[1] ?? 'B') {
      case 'B': body += msiMod10(body); break;
      case 'C': body += msiMod10(body); body += msiMod10(body); break;
      case 'D': body += msiMod11(body); body += msiMod10(body); break;
      default: break;
    }
    return { encode: body, text: p[5] === 'Y' ? body : out, skipped };
  },
};

export const twoWidthSymbologies: readonly TwoWidthSymbology[] = [code39, logmars, code93, interleaved2of5, industrial2of5, standard2of5, codabar, code11, msi];

function drawerFor(s: TwoWidthSymbology): FieldRenderer {
  return (field: Field, env: DrawEnv): LabelElement[] => {
    const p = field.params;
    const prepared = s.prepare(fieldText(field), p);
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
    const height = barHeight(field, p[s.at.h]);
    const { bars, width } = barsFromRuns(runs, 0, height);
    const show = s.at.line < 0 ? s.lineDefault : flag(p[s.at.line], s.lineDefault);
    const texts = interpretationLine(prepared.text, { width, height }, moduleWidth, show, flag(p[s.at.above], false));
    return linearElement(field, { width, height, bars, texts }, fieldOrientation(field, p[s.at.o]));
  };
}

export const twoWidthRenderers: Record<string, FieldRenderer> = Object.fromEntries(
  twoWidthSymbologies.map((s) => [s.command.slice(1), drawerFor(s)]),
);
