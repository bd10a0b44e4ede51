// Linear (1D) and postal symbologies, keyed by ZPL command.

import type { FieldRenderer } from '../../model.js';

export const linearRenderers: Record<string, FieldRenderer> = {};
