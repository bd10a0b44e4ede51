// Text drawing for other families (barcode interpretation lines): one line of text in a given font.
// Placeholder until the fonts work lands: measures with a fixed advance and draws nothing.

import type { FontSelection } from '../model.js';
import type { InkMode, Raster } from '../raster/raster.js';

export interface TextLine {
  text: string;
  font: FontSelection;
  /** Top-left corner (`FO`) or baseline start (`FT`), in dots, for orientation N; rotated per font.orientation. */
  x: number;
  y: number;
  origin: 'FO' | 'FT';
  mode: InkMode;
}

export interface TextMetrics {
  /** Advance width of the whole line in dots. */
  width: number;
  /** Cell height in dots. */
  height: number;
  /** Distance from the top of the cell to the baseline. */
  baseline: number;
}

export function measureTextLine(text: string, font: FontSelection): TextMetrics {
  const h = font.height || 9;
  return { width: Math.round(text.length * (font.width || h * 0.6)), height: h, baseline: Math.round(h * 0.8) };
}

export function drawTextLine(_r: Raster, _line: TextLine): void {
  // Filled in by the fonts work.
}
