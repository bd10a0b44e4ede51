// Text drawing for other families (barcode interpretation lines): one line of text in a given font.

import type { FontSelection, StoredObject } from '../model.js';
import type { Canvas } from '../display/canvas.js';
import type { InkMode } from '../display/display-list.js';
import { resolveFace } from '../fonts/resolve.js';
import { boxFrame, codePoints, drawRun, pointFrame, runWidth } from './line.js';

export interface TextLine {
  text: string;
  font: FontSelection;
  /** Top-left corner (`FO`) or baseline start (`FT`), in dots, for orientation N; rotated per font.orientation. */
  x: number;
  y: number;
  origin: 'FO' | 'FT';
  mode: InkMode;
  /** Downloaded fonts the selection may name (^A@). */
  objects?: ReadonlyMap<string, StoredObject>;
  /** Pure black/white glyphs instead of anti-aliased edges (reverse-printed fields). */
  crisp?: boolean;
}

export interface TextMetrics {
  /** Advance width of the whole line in dots. */
  width: number;
  /** Cell height in dots. */
  height: number;
  /** Distance from the top of the cell to the baseline. */
  baseline: number;
}

export function measureTextLine(
  text: string,
  font: FontSelection,
  objects?: ReadonlyMap<string, StoredObject>,
): TextMetrics {
  const face = resolveFace(font, objects);
  return { width: runWidth(face, codePoints(text, face)), height: face.height, baseline: face.baseline };
}

export function drawTextLine(r: Canvas, line: TextLine): void {
  const face = resolveFace(line.font, line.objects);
  const cps = codePoints(line.text, face);
  const o = line.font.orientation;
  const frame =
    line.origin === 'FT'
      ? pointFrame(line.x, line.y, face.baseline, o)
      : boxFrame(line.x, line.y, runWidth(face, cps), face.height, o);
  drawRun(r, face, line.text, frame, 0, face.baseline, { mode: line.mode, crisp: line.crisp ?? false, gap: 0 });
}
