// What every 2D drawer needs from a field: one way to report problems, and its module grid placed and drawn.

import { fieldDataSpan } from '../../diagnostics.js';
import type { FieldBase, Orientation } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { barcodeInk, fieldOrientation, placeSymbol } from '../common/frame.js';
import { drawGrid, type ModuleGrid } from './grid.js';

/** Logs a problem with a field's symbol at the field's position in the document; `feature` names what this renderer skips or approximates (see Diagnostic.feature). */
export function report(
  env: DrawEnv,
  field: FieldBase,
  command: string,
  message: string,
  param = 0,
  feature?: string,
): void {
  env.log?.add({
    byteIndex: field.at,
    byteSize: 0,
    command,
    param,
    message,
    ...(feature !== undefined && { feature }),
  });
}

/**
 * Runs an encoder; when the data cannot be encoded, logs why against the field data (^FD bytes) and returns
 * undefined (the field prints nothing).
 */
export function tryEncode<T>(env: DrawEnv, field: FieldBase, command: string, encode: () => T): T | undefined {
  try {
    return encode();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    env.log?.add({
      ...fieldDataSpan(field),
      command,
      param: 0,
      message: `Bar code data cannot be encoded; field not printed (${msg.replace(/^bwipp\.\w+#\d+:\s*/, '')})`,
    });
    return undefined;
  }
}

/** Draws a module grid placed by the field's origin and the given orientation. */
export function drawGridField(
  canvas: Canvas,
  field: FieldBase,
  orientationParam: Orientation | undefined,
  g: ModuleGrid,
  moduleWidth: number,
  moduleHeight: number | readonly number[],
  offset: { x?: number; y?: number } = {},
): void {
  const orientation = fieldOrientation(field, orientationParam);
  const width = g.width * moduleWidth;
  const height = typeof moduleHeight === 'number' ? g.height * moduleHeight : moduleHeight.reduce((s, h) => s + h, 0);
  const frame = placeSymbol(
    { x: field.x + (offset.x ?? 0), y: field.y + (offset.y ?? 0), origin: field.origin },
    width,
    height,
    orientation,
  );
  const mode = barcodeInk(field);
  drawGrid(canvas, frame, g, moduleWidth, moduleHeight, mode);
}
