// Two-dimensional barcode commands (^BQ ^BX ^B7 ...): parameter tables; each makes the field a barcode field.

import type { CommandTable } from '../zpl/command.js';

export const matrixBarcodeCommands: CommandTable = {};
