// Two-dimensional and stacked symbologies, keyed by ZPL command.

import type { FieldRenderer } from '../../model.js';

export const matrixRenderers: Record<string, FieldRenderer> = {};
