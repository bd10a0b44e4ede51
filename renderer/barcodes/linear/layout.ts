// A laid-out linear symbol (bars and texts in its upright frame) and how it becomes a label element.

import type { FieldBase, Orientation } from '../../model.js';
import type { Canvas } from '../../display/canvas.js';
import { barcodeInk, placeSymbol, type SymbolFrame } from '../common/frame.js';
import { drawBars, type Bar } from '../common/bars.js';
import { centredLine, drawFrameText, interpretationFont, type FrameText } from '../common/interpretation.js';

export interface LinearLayout {
  /** Upright size of the bars (texts may stick out of it). */
  width: number;
  height: number;
  bars: Bar[];
  texts: FrameText[];
}

/** Places a layout for a field and draws it. */
export function drawLinear(canvas: Canvas, field: FieldBase, layout: LinearLayout, orientation: Orientation): void {
  const frame = placeSymbol(field, layout.width, layout.height, orientation);
  const mode = barcodeInk(field);
  drawBars(canvas, frame, layout.bars, mode);
  for (const t of layout.texts) drawFrameText(canvas, frame, t, mode);
}

/** Texts for the common case: one interpretation line centred below or above the bars. */
export function interpretationLine(
  text: string,
  size: { width: number; height: number },
  moduleWidth: number,
  show: boolean,
  above: boolean,
): FrameText[] {
  if (!show || !text) return [];
  const frame: SymbolFrame = { x: 0, y: 0, width: size.width, height: size.height, orientation: 'N' };
  return [centredLine(text, frame, interpretationFont(moduleWidth, 'N'), above)];
}

/** Height a barcode command gives: its own parameter, else the ^BY height. */
export function barHeight(field: Pick<FieldBase, 'barcode'>, param: number | undefined): number {
  return param !== undefined && param > 0 ? Math.max(1, Math.round(param)) : field.barcode.height;
}
