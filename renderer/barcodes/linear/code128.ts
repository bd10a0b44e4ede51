// ^BC Code 128 (and GS1-128 in modes U and D).

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { barsFromRuns, modulesToDots } from '../common/bars.js';
import { fieldOrientation } from '../common/frame.js';
import { fieldText, reportUnencodable } from '../common/field-data.js';
import { code128Modules, encodeCode128 } from './code128-encode.js';
import { barHeight, drawLinear, interpretationLine } from './layout.js';

export function drawCode128(field: FieldOf<'BC'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation: o, height: h, line, lineAbove: above, mode: m } = field.args;
  const data = fieldText(field);
  const sym = encodeCode128(data, m);
  if (sym.skipped) {
    reportUnencodable(
      env,
      field,
      '^BC',
      `Field data cannot be encoded by Code 128; ${sym.skipped} character(s) left out`,
    );
  }
  const module = field.barcode.moduleWidth;
  const height = barHeight(field, h);
  const { bars, width } = barsFromRuns(modulesToDots(code128Modules(sym.codewords), module), 0, height);
  const texts = interpretationLine(sym.text, { width, height }, module, line, above);
  return drawLinear(canvas, field, { width, height, bars, texts }, fieldOrientation(field, o));
}
