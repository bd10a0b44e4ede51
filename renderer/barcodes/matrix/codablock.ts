// ^BB Codablock: the legacy renderer does not draw the symbol; it prints the field data as a plain text field
// in the field's font (measured on its output), so we do the same.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { drawTextField } from '../../text/field.js';

export function drawCodablock(field: FieldOf<'BB'>, env: DrawEnv, canvas: Canvas): void {
  drawTextField({ ...field, kind: 'text', args: {} }, env, canvas);
}
