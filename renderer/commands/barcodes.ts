// Barcode commands (^BC ^B3 ... ^BQ ^BX ...): one for each barcode kind in field-kinds.ts, named as the kind, and one
// for each of its aliases (^B0 for ^BO). Each makes the field a barcode field whose drawer (renderer/barcodes/)
// reads its arguments. Parameters whose default depends on ^FW, ^BY or the print density are left undefined in the
// tables and settled by the drawer.

import type { CommandDef, CommandTable } from './context.js';
import { fieldKind } from './define.js';
import { barcodeTraits, FIELD_KIND_NAMES, isBarcodeKind, type FieldParams } from './field-kinds.js';

const qrField = fieldKind('BQ');

/**
 * A ^BQ magnification also becomes the default module width, as ^BY w does (the legacy service draws a later ^BC
 * with it). The guide gives ^BY's module width an "initial value at power-up" that "stays in effect until another
 * ^BY", so it survives ^XA within a request, and this with it. ^BY does not change the default ^BQ magnification:
 * the guide fixes that by density (1, 2, 3, 6 at 150, 200, 300, 600 dpi).
 */
const qrCode: CommandDef<FieldParams<'BQ'>> = {
  ...qrField,
  run(ip, args, tok) {
    qrField.run!(ip, args, tok);
    if (args.magnification !== undefined)
      ip.printer.barcode = { ...ip.printer.barcode, moduleWidth: args.magnification };
  },
};

export const barcodeCommands: CommandTable = {
  ...Object.fromEntries(
    FIELD_KIND_NAMES.filter(isBarcodeKind).flatMap((kind) =>
      [kind, ...(barcodeTraits(kind)?.aliases ?? [])].map((name) => [`^${name}`, fieldKind(kind)]),
    ),
  ),
  '^BQ': qrCode,
};
