// Human-readable interpretation lines under (or over) a symbol, drawn through the shared text-line API.

import type { FontSelection, Orientation } from '../../model.js';
import type { Canvas } from '../../display/canvas.js';
import type { InkMode } from '../../display/display-list.js';
import { drawTextLine, measureTextLine } from '../../text/text-line.js';
import { toLabelRect, type SymbolFrame } from './frame.js';

/** Dots between the bottom of the bars and the top of a line printed below them (legacy renderer). */
export const GAP_BELOW = 6;
/** Dots between the bottom of a line printed above the bars and their top. */
export const GAP_ABOVE = 8;

/** The legacy interpretation font: bitmap font A magnified by the module width (9x5 dots per module). */
export function interpretationFont(moduleWidth: number, orientation: Orientation): FontSelection {
  const m = Math.max(1, moduleWidth);
  return { name: 'A', orientation, height: 9 * m, width: 5 * m };
}

/** One run of text in a symbol's upright frame: cell top-left at (u, v). */
export interface FrameText {
  text: string;
  u: number;
  v: number;
  font: FontSelection;
}

/** Width and cell height of a text in a font. */
export function measure(text: string, font: FontSelection): { width: number; height: number; baseline: number } {
  return measureTextLine(text, font);
}

/**
 * The usual interpretation line: centred on the symbol's width, below the bars (cell top `GAP_BELOW`
 * under them) or above them (cell bottom `GAP_ABOVE` over them).
 */
export function centredLine(text: string, frame: SymbolFrame, font: FontSelection, above: boolean): FrameText {
  const m = measure(text, font);
  const u = Math.floor((frame.width - m.width) / 2);
  const v = above ? -GAP_ABOVE - m.height : frame.height + GAP_BELOW;
  return { text, u, v, font };
}

/** Draws a text placed in a frame, turned with the frame. */
export function drawFrameText(r: Canvas, frame: SymbolFrame, t: FrameText, mode: InkMode): void {
  if (!t.text) return;
  const m = measure(t.text, t.font);
  const rect = toLabelRect(frame, t.u, t.v, m.width, m.height);
  drawTextLine(r, {
    text: t.text,
    font: { ...t.font, orientation: frame.orientation },
    x: rect.x,
    y: rect.y,
    origin: 'FO',
    mode,
  });
}
