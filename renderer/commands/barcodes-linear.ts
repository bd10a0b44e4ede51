// Linear barcode commands (^BC ^B3 ^BE ...): each makes the field a barcode field whose drawer
// (renderer/barcodes/linear) reads its arguments; the parameter tables, from the ZPL II guide, are in field-kinds.ts.

import type { CommandTable } from './context.js';
import { fieldKind } from './define.js';

export const linearBarcodeCommands: CommandTable = {
  '^BC': fieldKind('BC'),
  '^B3': fieldKind('B3'),
  '^BL': fieldKind('BL'),
  '^BA': fieldKind('BA'),
  '^B2': fieldKind('B2'),
  '^BI': fieldKind('BI'),
  '^BJ': fieldKind('BJ'),
  '^BK': fieldKind('BK'),
  '^B1': fieldKind('B1'),
  '^BM': fieldKind('BM'),
  '^BP': fieldKind('BP'),
  '^BE': fieldKind('BE'),
  '^B8': fieldKind('B8'),
  '^BU': fieldKind('BU'),
  '^B9': fieldKind('B9'),
  '^BS': fieldKind('BS'),
  '^BZ': fieldKind('BZ'),
  '^B5': fieldKind('B5'),
  '^BR': fieldKind('BR'),
};
