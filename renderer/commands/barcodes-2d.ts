// Two-dimensional and stacked barcode commands (^BQ ^BX ^B7 ^BF ^BO ^B0 ^BD ^BB ^B4 ^BT): parameter tables from
// the ZPL II guide; each makes the field a barcode field drawn by renderer/barcodes/matrix. Parameters whose
// default depends on ^FW, ^BY or the print density are left undefined here and settled by the drawer.

import type { CommandTable } from './context.js';
import type { ParamSpec } from '../zpl/params.js';
import { fieldKind, int, oneOf, orientation, text, yesNo } from './define.js';

const aztec: readonly ParamSpec[] = [
  orientation(),
  int('magnification', 1, 10),
  yesNo('extendedChannel', 'N'),
  int('errorControl', 0, 300, 0),
  yesNo('menuSymbol', 'N'),
  int('symbolCount', 1, 26, 1),
  text('structuredAppendId'),
];

export const matrixBarcodeCommands: CommandTable = {
  // ^BQ a,b,c,d,e: orientation (N only), model, magnification, error correction, mask
  '^BQ': fieldKind('BQ', [oneOf('orientation', 'N', 'N'), int('model', 1, 2, 2), int('magnification', 1, 10), oneOf('errorCorrection', 'HQML', 'Q'), int('mask', 0, 7, 7)]),
  // ^BX o,h,s,c,r,f,g,a: orientation, module size, quality, columns, rows, format id, escape character, aspect ratio
  '^BX': fieldKind('BX', [orientation(), int('moduleSize', 1, 9999), int('quality', 0, 200, 0), int('columns', 0, 144, 0), int('rows', 0, 144, 0),
    int('format', 0, 6, 6), text('escape', '_'), int('aspect', 1, 2, 1)]),
  // ^B7 o,h,s,c,r,t: orientation, row height, security level, columns, rows, truncate
  '^B7': fieldKind('B7', [orientation(), int('rowHeight', 1, 32000), int('security', 0, 8, 0), int('columns', 0, 30, 0), int('rows', 0, 90, 0), yesNo('truncate', 'N')]),
  // ^BF o,h,m: orientation, row height, mode (size variant)
  '^BF': fieldKind('BF', [orientation(), int('rowHeight', 1, 9999), int('mode', 0, 33, 0)]),
  // ^BO / ^B0 a,b,c,d,e,f,g: orientation, magnification, ECI, error control and size, menu, structured append count and id
  '^BO': fieldKind('BO', aztec),
  '^B0': fieldKind('BO', aztec),
  // ^BD m,n,t: mode, symbol number, total symbols
  '^BD': fieldKind('BD', [int('mode', 2, 6, 2), int('symbolNumber', 1, 8, 1), int('symbolCount', 1, 8, 1)]),
  // ^BB o,h,s,c,r,m: orientation, row height, security, characters per row, rows, mode
  '^BB': fieldKind('BB', [orientation(), int('rowHeight', 2, 32000, 8), yesNo('security', 'Y'), int('columns', 2, 62), int('rows', 1, 22), oneOf('mode', 'AEF', 'F')]),
  // ^B4 o,h,f,m: orientation, row height multiplier, interpretation line, starting mode
  '^B4': fieldKind('B4', [orientation(), int('rowHeight', 1, 32000), oneOf('line', 'NAB', 'N'), oneOf('startMode', '012345A', 'A')]),
  // ^BT o,w1,r1,h1,w2,h2: orientation, Code 39 module width, ratio, height, MicroPDF417 module width, row height
  '^BT': fieldKind('BT', [orientation(), int('code39Width', 1, 10), { name: 'code39Ratio', kind: 'float', min: 2, max: 3, def: 2 }, int('code39Height', 1, 9999),
    int('pdfWidth', 1, 10), int('pdfRowHeight', 1, 255)]),
};
