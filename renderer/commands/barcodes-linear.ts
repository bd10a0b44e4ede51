// Linear barcode commands (^BC ^B3 ^BE ...): parameter tables from the ZPL II guide; each makes the field a
// barcode field whose drawer (renderer/barcodes/linear) reads these values. Orientation and height default
// to ^FW and ^BY when omitted (undefined here).

import type { CommandTable } from '../zpl/command.js';
import { fieldKind, int, oneOf, orientation, yesNo } from './define.js';

const height = () => int('height', 1, 32000);

export const linearBarcodeCommands: CommandTable = {
  '^BC': fieldKind('BC', [orientation(), height(), yesNo('line', 'Y'), yesNo('lineAbove', 'N'), yesNo('checkDigit', 'N'), oneOf('mode', 'NUAD', 'N')]),
};
