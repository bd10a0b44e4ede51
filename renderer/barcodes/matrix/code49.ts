// ^B4 Code 49: stacked rows 70 modules wide between one-module separator bars; row height is h x module width.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { drawTextLine, measureTextLine } from '../../text/text-line.js';
import { barcodeInk, fieldOrientation, placeSymbol } from '../common/frame.js';
import { byteString, drawGrid, encodeGrid, type ModuleGrid } from './grid.js';
import { tryEncode } from './field.js';

export interface StackedGrid {
  grid: ModuleGrid;
  /** Which grid rows are separator (or border) bars rather than data rows. */
  separator: boolean[];
}

/**
 * bwip-js lays Code 49 out with a 10-module quiet zone and blank rows below; keep the bars only: the
 * columns the data rows use, and the rows down to the bottom border.
 */
export function encodeCode49(text: string): StackedGrid {
  // The starting mode (^B4 m) is chosen by the encoder; bwip-js picks the one that fits the data.
  const g = encodeGrid('code49', text);
  let rows = g.height;
  while (rows > 0 && !g.bits.subarray((rows - 1) * g.width, rows * g.width).some((b) => b)) rows--;
  let left = g.width;
  let right = 0;
  for (let y = 1; y < rows; y += 2) {
    for (let x = 0; x < g.width; x++) {
      if (g.bits[y * g.width + x]) {
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
  }
  const width = right - left + 1;
  const bits = new Uint8Array(width * rows);
  for (let y = 0; y < rows; y++) bits.set(g.bits.subarray(y * g.width + left, y * g.width + left + width), y * width);
  return { grid: { width, height: rows, bits }, separator: Array.from({ length: rows }, (_, y) => y % 2 === 0) };
}

export function drawCode49(field: FieldOf<'B4'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation: orientationParam, rowHeight: h, line } = field.args;
  const text = byteString(field.data);
  if (!text) return;
  const s = tryEncode(env, field, '^B4', () => encodeCode49(text));
  if (!s) return;
  const mw = field.barcode.moduleWidth;
  const rowHeights = s.separator.map((sep) => (sep ? mw : (h ?? field.barcode.height) * mw));
  const orientation = fieldOrientation(field, orientationParam);
  const width = s.grid.width * mw;
  const height = rowHeights.reduce((a, b) => a + b, 0);
  const frame = placeSymbol(field, width, height, orientation);
  const mode = barcodeInk(field);
  drawGrid(canvas, frame, s.grid, mw, rowHeights, mode);
  if (line === 'A' || line === 'B') {
    // Interpretation line centred above or below the symbol, in the field's font (upright symbols only).
    const font = { ...field.font, orientation };
    const m = measureTextLine(text, font, env.objects);
    if (orientation === 'N') {
      const x = frame.x + Math.round((width - m.width) / 2);
      const y = line === 'A' ? frame.y - m.height : frame.y + height;
      drawTextLine(canvas, { text, font, x, y, origin: 'FO', mode, objects: env.objects });
    }
  }
}
