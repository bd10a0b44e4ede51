// ^B7 PDF417 and ^BF MicroPDF417: stacked rows of `h` dots, modules ^BY wide.

import type { DrawEnv, Field, LabelElement } from '../../model.js';
import { byteString, encodeGrid, type ModuleGrid } from './grid.js';
import { gridElement, num, tryEncode } from './field.js';

export interface Pdf417Options {
  security: number;
  columns: number;
  rows: number;
  truncate: boolean;
}

/** Data plus error correction codewords of a symbol, read from a one-column encoding when it fits. */
function totalCodewords(text: string, eclevel: number): number {
  try {
    return encodeGrid('pdf417', text, { eclevel, columns: 1, rowmult: 1 }).height;
  } catch {
    return encodeGrid('pdf417', text, { eclevel, columns: 30, rowmult: 1 }).height * 30;
  }
}

/** Columns when ^B7 gives neither columns nor rows: the legacy renderer keeps the symbol tall and narrow. */
export function autoColumns(total: number): number {
  return Math.min(30, Math.max(1, Math.ceil(Math.sqrt(total / 10))));
}

export function encodePdf417(text: string, o: Pdf417Options): ModuleGrid {
  const bcid = o.truncate ? 'pdf417compact' : 'pdf417';
  const base = { eclevel: o.security, rowmult: 1 };
  let columns = o.columns;
  if (!columns) {
    const total = totalCodewords(text, o.security);
    columns = o.rows ? Math.min(30, Math.ceil(total / o.rows)) : autoColumns(total);
  }
  try {
    return encodeGrid(bcid, text, o.rows && o.columns ? { ...base, columns, rows: o.rows } : { ...base, columns });
  } catch (e) {
    // Too many rows for the requested columns: let the rows grow as needed.
    if (!(o.rows && o.columns)) throw e;
    return encodeGrid(bcid, text, { ...base, columns });
  }
}

export function renderPdf417(field: Field, env: DrawEnv): LabelElement[] {
  const [orientation, h, security, columns, rows, truncate] = field.params;
  const text = byteString(field.data);
  if (!text) return [];
  const o: Pdf417Options = { security: num(security, 0), columns: num(columns, 0), rows: num(rows, 0), truncate: truncate === 'Y' };
  if (o.rows && o.rows < 3) o.rows = 3;
  const g = tryEncode(env, field, '^B7', () => encodePdf417(text, o));
  if (!g) return [];
  return gridElement(field, orientation, g, field.barcode.moduleWidth, num(h, field.barcode.height));
}

/** ^BF modes 0..33: data columns and rows of the MicroPDF417 symbol (ZPL II guide table). */
const MICRO_SIZES: ReadonlyArray<readonly [number, number]> = [
  [1, 11], [1, 14], [1, 17], [1, 20], [1, 24], [1, 28],
  [2, 8], [2, 11], [2, 14], [2, 17], [2, 20], [2, 23], [2, 26],
  [3, 6], [3, 8], [3, 10], [3, 12], [3, 15], [3, 20], [3, 26], [3, 32], [3, 38], [3, 44],
  [4, 6], [4, 8], [4, 10], [4, 12], [4, 15], [4, 20], [4, 26], [4, 32], [4, 38], [4, 44],
  [4, 4],
];

export function encodeMicroPdf417(text: string, mode: number): ModuleGrid {
  const [columns, rows] = MICRO_SIZES[mode] ?? MICRO_SIZES[0];
  try {
    return encodeGrid('micropdf417', text, { columns, rows, rowmult: 1 });
  } catch {
    // Data larger than the mode's size: the smallest symbol that holds it.
    return encodeGrid('micropdf417', text, { rowmult: 1 });
  }
}

export function renderMicroPdf417(field: Field, env: DrawEnv): LabelElement[] {
  const [orientation, h, mode] = field.params;
  const text = byteString(field.data);
  if (!text) return [];
  const g = tryEncode(env, field, '^BF', () => encodeMicroPdf417(text, num(mode, 0)));
  if (!g) return [];
  return gridElement(field, orientation, g, field.barcode.moduleWidth, num(h, field.barcode.height));
}

/** The smallest MicroPDF417 symbol that holds the data. */
export function encodeMicroPdf417Auto(text: string): ModuleGrid {
  return encodeGrid('micropdf417', text, { rowmult: 1 });
}
