// Label boundaries and label-wide settings: ^XA ^XZ ^PQ ^LH ^LS ^LT ^PW ^LL ^PO ^PM ^LR ^MU.

import type { CommandTable } from './context.js';
import { float, int, oneOf, yesNo } from './define.js';

/** Dots per unit for ^MU, from the printer's density. */
function unitScale(unit: string, dpmm: number): number {
  if (unit === 'I') return Math.floor(dpmm * 25.4);
  if (unit === 'M') return dpmm;
  return 1;
}

export const labelCommands: CommandTable = {
  '^XA': { anywhere: true, run: (ip, _a, tok) => ip.startLabel(tok.start) },
  '^XZ': { anywhere: true, run: (ip) => ip.endLabel() },
  '^PQ': {
    params: [int('quantity', 1, 99999999, 1), int('pause', 0, 99999999, 0), int('replicates', 0, 99999999, 0), yesNo('override', 'N'), yesNo('cut', 'N')],
    run: (ip, [q]) => { if (ip.label) ip.label.copies = q as number; },
  },
  '^LH': {
    params: [float('x', 0, 32000, 0), float('y', 0, 32000, 0)],
    run: (ip, [x, y]) => { ip.printer.home = { x: ip.dots(x as number), y: ip.dots(y as number) }; },
  },
  '^LS': { params: [int('shift', -9999, 9999, 0)], run: (ip, [s]) => { ip.printer.shiftLeft = s as number; } },
  '^LT': { params: [int('top', -120, 120, 0)], run: (ip, [t]) => { ip.printer.shiftTop = t as number; } },
  '^PW': { params: [float('width', 2, 32000)], run: (ip, [w]) => { if (w !== undefined) ip.printer.printWidth = ip.dots(w as number); } },
  '^LL': { params: [float('length', 1, 32000), yesNo('ignore', 'N')], run: (ip, [l]) => { if (l !== undefined) ip.printer.labelLength = ip.dots(l as number); } },
  '^PO': { params: [oneOf('orientation', 'NIT', 'N')], run: (ip, [o]) => { ip.printer.invert = o === 'I'; } },
  '^PM': { params: [yesNo('mirror', 'N')], run: (ip, [m]) => { ip.printer.mirror = m === 'Y'; } },
  '^LR': { params: [yesNo('reverse', 'N')], run: (ip, [r]) => { ip.printer.reverseAll = r === 'Y'; } },
  '^MU': {
    params: [oneOf('units', 'DIM', 'D'), int('formatDpi', 150, 600), int('convertDpi', 150, 600)],
    run: (ip, [u, from, to]) => {
      ip.printer.unitScale = unitScale(u as string, ip.dpmm);
      // ^MUD,200,300 scales a format written for one density to another.
      if (u === 'D' && from && to) ip.printer.unitScale = (to as number) / (from as number);
    },
  },
  '^FX': { syntax: 'text', anywhere: true },
  '^XB': { noop: true },
};
