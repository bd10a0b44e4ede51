// ^BB Codablock: the legacy renderer does not draw the symbol; it prints the field data as a plain text field
// in the field's font (measured on its output), so we do the same.

import type { Field } from '../../model.js';
import type { DrawEnv, LabelElement } from '../../display/drawer.js';
import { drawTextField } from '../../text/field.js';

export function renderCodablock(field: Field, env: DrawEnv): LabelElement[] {
  return drawTextField({ ...field, kind: 'text' }, env);
}
