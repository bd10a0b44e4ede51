// Label boundaries and label-wide settings: ^XA ^XZ ^PQ ^LH ^LS ^LT ^PW ^LL ^PO ^PM ^LR ^MU ^MC.

import type { CommandTable } from './context.js';
import { asCount, float, inDots, int, length, oneOf, yesNo } from '../zpl/params.js';
import { command } from './define.js';

/** Dots per unit for ^MU, from the printer's density. */
function unitScale(unit: string, dpmm: number): number {
  if (unit === 'I') return Math.floor(dpmm * 25.4);
  if (unit === 'M') return dpmm;
  return 1;
}

export const labelCommands: CommandTable = {
  '^XA': { anywhere: true, run: (ip, _a, tok) => ip.startLabel(tok.start) },
  '^XZ': { anywhere: true, run: (ip) => ip.endLabel() },
  '^PQ': command({
    params: [
      asCount(int('quantity', 1, 99999999, 1)),
      asCount(int('pause', 0, 99999999, 0)),
      asCount(int('replicates', 0, 99999999, 0)),
      yesNo('override', 'N'),
      yesNo('cut', 'N'),
    ],
    run: (ip, { quantity }) => {
      if (ip.label) ip.label.copies = quantity;
    },
  }),
  '^LH': command({
    params: [inDots(float('x', 0, 32000, 0)), inDots(float('y', 0, 32000, 0))],
    run: (ip, { x, y }) => {
      ip.printer.home = { x: ip.dots(x), y: ip.dots(y) };
    },
  }),
  '^LS': command({
    params: [inDots(int('shift', -9999, 9999, 0))],
    run: (ip, { shift }) => {
      ip.printer.shiftLeft = shift;
    },
  }),
  '^LT': command({
    params: [inDots(int('top', -120, 120, 0))],
    run: (ip, { top }) => {
      ip.printer.shiftTop = top;
    },
  }),
  // Lengths arrive in dots.
  '^PW': command({
    params: [length('width', 2, 32000)],
    run: (ip, { width }) => {
      if (width !== undefined) ip.printer.printWidth = width;
    },
  }),
  '^LL': command({
    params: [length('length', 1, 32000), yesNo('ignore', 'N')],
    run: (ip, { length: l }) => {
      if (l !== undefined) ip.printer.labelLength = l;
    },
  }),
  '^PO': command({
    params: [oneOf('orientation', 'NIT', 'N')],
    run: (ip, { orientation }) => {
      ip.printer.invert = orientation === 'I';
    },
  }),
  '^PM': command({
    params: [yesNo('mirror', 'N')],
    run: (ip, { mirror }) => {
      ip.printer.mirror = mirror;
    },
  }),
  '^LR': command({
    params: [yesNo('reverse', 'N')],
    run: (ip, { reverse }) => {
      ip.printer.reverseAll = reverse;
    },
  }),
  '^MU': command({
    params: [oneOf('units', 'DIM', 'D'), asCount(int('formatDpi', 150, 600)), asCount(int('convertDpi', 150, 600))],
    run: (ip, { units, formatDpi: from, convertDpi: to }) => {
      ip.printer.unitScale = unitScale(units, ip.dpmm);
      // ^MUD,200,300 scales a format written for one density to another.
      if (units === 'D' && from && to) ip.printer.unitScale = to / from;
    },
  }),
  // ^MCN keeps this label's image under the next ones until a label with ^MCY (the default) is printed.
  '^MC': command({
    params: [yesNo('clear', 'Y')],
    run: (ip, { clear }) => {
      ip.printer.mapClear = clear;
    },
  }),
  '^FX': { field: 'inside', syntax: 'text', anywhere: true },
  '^XB': { noop: true },
};
