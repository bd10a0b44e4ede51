// Drawers for graphic fields, keyed by the command that made the field.

import type { FieldRenderer } from '../model.js';
import { renderBox } from './box.js';

export const graphicRenderers: Record<string, FieldRenderer> = {
  GB: renderBox,
};
