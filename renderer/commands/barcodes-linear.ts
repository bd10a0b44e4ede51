// Linear barcode commands (^BC ^B3 ^BE ...): parameter tables from the ZPL II guide; each makes the field a
// barcode field whose drawer (renderer/barcodes/linear) reads these values. Orientation and height left
// undefined default to ^FW and ^BY at drawing time.

import type { CommandTable } from './context.js';
import { fieldKind, float, int, oneOf, orientation, yesNo } from './define.js';

// Heights are read as decimals: the legacy renderer rounds `186.966` to 187 dots.
const height = () => float('height', 1, 32000);
const line = (def: 'Y' | 'N' = 'Y') => yesNo('line', def);
const above = (def: 'Y' | 'N' = 'N') => yesNo('lineAbove', def);

export const linearBarcodeCommands: CommandTable = {
  '^BC': fieldKind('BC', [orientation(), height(), line(), above(), yesNo('checkDigit', 'N'), oneOf('mode', 'NUAD', 'N')]),
  '^B3': fieldKind('B3', [orientation(), yesNo('mod43', 'N'), height(), line(), above()]),
  '^BL': fieldKind('BL', [orientation(), height(), above()]),
  '^BA': fieldKind('BA', [orientation(), height(), line(), above(), yesNo('checkDigit', 'N')]),
  '^B2': fieldKind('B2', [orientation(), height(), line(), above(), yesNo('mod10', 'N')]),
  '^BI': fieldKind('BI', [orientation(), height(), line(), above()]),
  '^BJ': fieldKind('BJ', [orientation(), height(), line(), above()]),
  '^BK': fieldKind('BK', [orientation(), yesNo('checkDigit', 'N'), height(), line(), above(), oneOf('start', 'ABCD', 'A'), oneOf('stop', 'ABCD', 'A')]),
  '^B1': fieldKind('B1', [orientation(), yesNo('oneCheckDigit', 'N'), height(), line(), above()]),
  '^BM': fieldKind('BM', [orientation(), oneOf('checkDigits', 'ABCD', 'B'), height(), line(), above(), yesNo('lineCheckDigit', 'N')]),
  '^BP': fieldKind('BP', [orientation(), yesNo('lineCheckDigit', 'N'), height(), line(), above()]),
  '^BE': fieldKind('BE', [orientation(), height(), line(), above()]),
  '^B8': fieldKind('B8', [orientation(), height(), line(), above()]),
  '^BU': fieldKind('BU', [orientation(), height(), line(), above(), yesNo('lineCheckDigit', 'Y')]),
  '^B9': fieldKind('B9', [orientation(), height(), line(), above(), yesNo('lineCheckDigit', 'Y')]),
  '^BS': fieldKind('BS', [orientation(), height(), line(), above('Y')]),
  '^BZ': fieldKind('BZ', [orientation(), height(), line('N'), above(), int('type', 0, 3, 0)]),
  '^B5': fieldKind('B5', [orientation(), height(), line('N'), above()]),
  '^BR': fieldKind('BR', [orientation(), int('type', 1, 12, 1), int('magnification', 1, 10), int('separatorHeight', 1, 2, 1), int('height', 1, 32000, 25), int('segmentWidth', 2, 22, 22)]),
};
