// Barcode drawers keyed by ZPL command (BC, B3, BQ...).

import type { FieldRenderer } from '../display/drawer.js';
import { linearRenderers } from './linear/index.js';
import { matrixRenderers } from './matrix/index.js';

export const barcodeRenderers: Record<string, FieldRenderer> = {
  ...linearRenderers,
  ...matrixRenderers,
};
