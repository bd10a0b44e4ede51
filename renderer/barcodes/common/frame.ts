// Where a barcode symbol sits on the label. Drawers lay a symbol out upright (orientation N, u along the
// symbol, v downwards, in dots) and these helpers turn that frame onto the label for N, R, I and B.

import type { FieldBase, Orientation } from '../../model.js';
import type { Canvas } from '../../display/canvas.js';
import type { InkMode } from '../../display/display-list.js';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A symbol of `width` x `height` dots (upright), whose upright top-left lands at label corner (x, y) of its bounding box. */
export interface SymbolFrame {
  /** Top-left corner of the symbol's bounding box on the label. */
  x: number;
  y: number;
  /** Upright size: `width` along the bars' sequence, `height` across. */
  width: number;
  height: number;
  orientation: Orientation;
}

/** The orientation a barcode command asked for, or the ^FW default when its parameter was omitted. */
export function fieldOrientation(
  field: Pick<FieldBase, 'defaultOrientation'>,
  param: Orientation | undefined,
): Orientation {
  return param ?? field.defaultOrientation;
}

/**
 * Places an upright symbol for a field: ^FO puts the top-left of the turned bounding box at the origin;
 * ^FT puts the symbol's own bottom-left corner (upright (0, height)) there, whichever way it is turned.
 */
export function placeSymbol(
  field: Pick<FieldBase, 'x' | 'y' | 'origin'>,
  width: number,
  height: number,
  orientation: Orientation,
): SymbolFrame {
  let { x, y } = field;
  if (field.origin === 'FT') {
    switch (orientation) {
      case 'N':
        y -= height;
        break;
      case 'R':
        break;
      case 'I':
        x -= width;
        break;
      case 'B':
        x -= height;
        y -= width;
        break;
    }
  }
  return { x, y, width, height, orientation };
}

/** The label rectangle covered by the upright rectangle (u, v, w, h) of a frame (may lie outside the symbol). */
export function toLabelRect(f: SymbolFrame, u: number, v: number, w: number, h: number): Rect {
  switch (f.orientation) {
    case 'R':
      return { x: f.x + f.height - v - h, y: f.y + u, w: h, h: w };
    case 'I':
      return { x: f.x + f.width - u - w, y: f.y + f.height - v - h, w, h };
    case 'B':
      return { x: f.x + v, y: f.y + f.width - u - w, w: h, h: w };
    default:
      return { x: f.x + u, y: f.y + v, w, h };
  }
}

/** Fills the upright rectangle (u, v, w, h) of a frame with whole dots. */
export function fillFrameRect(
  r: Canvas,
  f: SymbolFrame,
  u: number,
  v: number,
  w: number,
  h: number,
  mode: InkMode,
): void {
  if (w <= 0 || h <= 0) return;
  const q = toLabelRect(f, u, v, w, h);
  r.rect(q.x, q.y, q.w, q.h, mode);
}

/** Ink mode of a barcode field: ^FR (or ^LR) draws it reversed. */
export function barcodeInk(field: Pick<FieldBase, 'reverse'>): InkMode {
  return field.reverse ? 'xor' : 'black';
}
