// ^BC Code 128 (and GS1-128 in modes U and D).

import type { Field } from '../../model.js';
import type { DrawEnv, LabelElement } from '../../display/drawer.js';
import { barsFromRuns, modulesToDots } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { code128Modules, encodeCode128, type Code128Mode } from './code128-encode.js';
import { barHeight, flag, interpretationLine, linearElement } from './layout.js';

export function drawCode128(field: Field, env: DrawEnv): LabelElement[] {
  const { orientation: o, height: h, line, lineAbove: above, mode: m } = field.args;
  const data = fieldText(field);
  const mode = (typeof m === 'string' ? m : 'N') as Code128Mode;
  const sym = encodeCode128(data, mode);
  if (sym.skipped) {
    reportUnencodable(env, field, '^BC', `Field data cannot be encoded by Code 128; ${sym.skipped} character(s) left out`);
  }
  const module = field.barcode.moduleWidth;
  const height = barHeight(field, h);
  const { bars, width } = barsFromRuns(modulesToDots(code128Modules(sym.codewords), module), 0, height);
  const texts = interpretationLine(sym.text, { width, height }, module, flag(line, true), flag(above, false));
  return linearElement(field, { width, height, bars, texts }, fieldOrientation(field, o));
}
