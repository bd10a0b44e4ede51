// Text fields (font 0, device fonts, downloaded fonts, ^FB/^TB blocks).

import type { FieldRenderer } from '../display/drawer.js';
import { drawTextField } from './field.js';

export const textRenderers: Record<string, FieldRenderer> = {
  text: drawTextField,
};
