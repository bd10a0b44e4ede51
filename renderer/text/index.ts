// Text fields (font 0, bitmap fonts, field blocks) -- the fonts work fills this in.

import type { FieldRenderer } from '../model.js';

export const textRenderers: Record<string, FieldRenderer> = {};
