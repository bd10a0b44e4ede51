// The whole command table: every family contributes its own entries.

import type { CommandTable } from './context.js';
import { linearBarcodeCommands } from './barcodes-linear.js';
import { matrixBarcodeCommands } from './barcodes-2d.js';
import { clockCommands } from './clock.js';
import { fieldCommands } from './field.js';
import { graphicCommands } from './graphics.js';
import { labelCommands } from './label.js';
import { printerCommands } from './printer.js';
import { storageCommands } from './storage.js';
import { textCommands } from './text.js';

export const commandTable: CommandTable = {
  ...printerCommands,
  ...labelCommands,
  ...fieldCommands,
  ...clockCommands,
  ...textCommands,
  ...graphicCommands,
  ...storageCommands,
  ...linearBarcodeCommands,
  ...matrixBarcodeCommands,
};
