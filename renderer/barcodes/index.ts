// Barcode drawers keyed by ZPL command (BC, B3, BQ...) -- the barcode work fills this in.

import type { FieldRenderer } from '../model.js';

export const barcodeRenderers: Record<string, FieldRenderer> = {};
