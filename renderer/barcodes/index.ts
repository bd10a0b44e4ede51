// Barcode drawers keyed by ZPL command (BC, B3, BQ...).

import type { DrawerTable } from '../display/drawer.js';
import type { BarcodeKind } from '../model.js';
import { linearDrawers } from './linear/index.js';
import { matrixDrawers } from './matrix/index.js';

export const barcodeDrawers: DrawerTable<BarcodeKind> = {
  ...linearDrawers,
  ...matrixDrawers,
};
