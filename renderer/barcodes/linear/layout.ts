// A laid-out linear symbol (bars and texts in its upright frame) and how it becomes a label element.

import type { Field, Orientation } from '../../model.js';
import type { LabelElement } from '../../display/drawer.js';
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

/** Places a layout for a field and returns the element that draws it. */
export function linearElement(field: Field, layout: LinearLayout, orientation: Orientation): LabelElement[] {
  const frame = placeSymbol(field, layout.width, layout.height, orientation);
  const mode = barcodeInk(field);
  return [{
    draw(r) {
      drawBars(r, frame, layout.bars, mode);
      for (const t of layout.texts) drawFrameText(r, frame, t, mode);
    },
  }];
}

/** Texts for the common case: one interpretation line centred below or above the bars. */
export function interpretationLine(text: string, size: { width: number; height: number }, moduleWidth: number,
  show: boolean, above: boolean): FrameText[] {
  if (!show || !text) return [];
  const frame: SymbolFrame = { x: 0, y: 0, width: size.width, height: size.height, orientation: 'N' };
  return [centredLine(text, frame, interpretationFont(moduleWidth, 'N'), above)];
}

/** Height a barcode command gives: its own parameter, else the ^BY height. */
export function barHeight(field: Field, param: unknown): number {
  return typeof param === 'number' && param > 0 ? Math.max(1, Math.round(param)) : field.barcode.height;
}

export const flag = (v: unknown, def: boolean): boolean => (v === 'Y' ? true : v === 'N' ? false : def);
