// Linear barcode commands (^BC ^B3 ^BE ...): parameter tables; each makes the field a barcode field.

import type { CommandTable } from '../zpl/command.js';

export const linearBarcodeCommands: CommandTable = {};
