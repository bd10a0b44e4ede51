// Barcode drawers keyed by ZPL command (BC, B3, BQ...).

import type { DrawerTable } from '../display/drawer.js';
import { linearDrawers, type LinearKind } from './linear/index.js';
import { matrixDrawers, type MatrixKind } from './matrix/index.js';

export const barcodeDrawers: DrawerTable<LinearKind | MatrixKind> = {
  ...linearDrawers,
  ...matrixDrawers,
};
