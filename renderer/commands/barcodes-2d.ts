// Two-dimensional and stacked barcode commands (^BQ ^BX ^B7 ^BF ^BO ^B0 ^BD ^BB ^B4 ^BT): each makes the field a
// barcode field drawn by renderer/barcodes/matrix; the parameter tables, from the ZPL II guide, are in
// field-kinds.ts. Parameters whose default depends on ^FW, ^BY or the print density are left undefined there and
// settled by the drawer.

import type { CommandDef, CommandTable } from './context.js';
import { fieldKind } from './define.js';
import type { FIELD_PARAMS } from './field-kinds.js';

const qrField = fieldKind('BQ');

/**
 * A ^BQ magnification also becomes the default module width, as ^BY w does (the legacy service draws a later ^BC
 * with it). The guide gives ^BY's module width an "initial value at power-up" that "stays in effect until another
 * ^BY", so it survives ^XA within a request, and this with it. ^BY does not change the default ^BQ magnification:
 * the guide fixes that by density (1, 2, 3, 6 at 150, 200, 300, 600 dpi).
 */
const qrCode: CommandDef<typeof FIELD_PARAMS.BQ> = {
  ...qrField,
  run(ip, args, tok) {
    qrField.run!(ip, args, tok);
    if (args.magnification !== undefined)
      ip.printer.barcode = { ...ip.printer.barcode, moduleWidth: args.magnification };
  },
};

export const matrixBarcodeCommands: CommandTable = {
  '^BQ': qrCode,
  '^BX': fieldKind('BX'),
  '^B7': fieldKind('B7'),
  '^BF': fieldKind('BF'),
  '^BO': fieldKind('BO'),
  '^B0': fieldKind('BO'),
  '^BD': fieldKind('BD'),
  '^BB': fieldKind('BB'),
  '^B4': fieldKind('B4'),
  '^BT': fieldKind('BT'),
};
