// ^B7 PDF417 and ^BF MicroPDF417: stacked rows of `h` dots, modules ^BY wide.

import type { FieldBase, FieldOf } from '../../model.js';
import { macroSegments, paddedSegment, type MacroSegment } from './pdf417-macro.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { encodeGrid, rawCodewords, type ModuleGrid } from './grid.js';
import { pdf417DataCodewords } from './pdf417-codewords.js';
import { drawGridField, tryEncode } from './field.js';

export interface Pdf417Options {
  security: number;
  columns: number;
  rows: number;
  truncate: boolean;
}

/**
 * Columns when ^B7 gives neither columns nor rows (n = length descriptor + data + error correction codewords):
 * the legacy service keeps the symbol narrow, `floor(sqrt(n / 5))`. Another rule fits every legacy symbol we
 * measured as well (the aspect ratio closest to 1:2 with rows 3 modules tall); the two differ only at n = 20,
 * 43-44, 73-79 and from 105 up, and this one is kept.
 */
export function autoColumns(total: number): number {
  return Math.min(30, Math.max(1, Math.floor(Math.sqrt(total / 5))));
}

export interface Pdf417Size {
  columns: number;
  rows: number;
}

const MIN_ROWS = 3,
  MAX_ROWS = 90,
  MAX_COLUMNS = 30;

/**
 * Columns and rows for `needed` codewords: both given and large enough are kept; one given derives the other as
 * the smallest that holds the codewords; neither gives autoColumns and as many rows as they need.
 */
export function pdf417Size(needed: number, columns: number, rows: number): Pdf417Size {
  if (columns && rows && columns * rows >= needed) return { columns, rows };
  if (rows && !columns) return { columns: Math.min(MAX_COLUMNS, Math.max(1, Math.ceil(needed / rows))), rows };
  const c = columns || autoColumns(needed);
  return { columns: c, rows: Math.max(MIN_ROWS, Math.ceil(needed / c)) };
}

/** The symbol for ^B7 data; `needed` is length descriptor + data + error correction codewords. */
export function encodePdf417(data: Uint8Array, o: Pdf417Options): ModuleGrid {
  return encodePdf417Codewords(pdf417DataCodewords(data), o);
}

/** Codewords a PDF417 symbol holds at most, length descriptor and error correction included. */
const MAX_CODEWORDS = 928;

/** Whether `count` data codewords fit one ^B7 symbol of the columns and rows asked for (0: any). */
function fitsPdf417(count: number, o: Pdf417Options): boolean {
  const needed = 1 + count + 2 ** (o.security + 1);
  const room = o.columns && o.rows ? o.columns * o.rows : (o.columns || MAX_COLUMNS) * (o.rows || MAX_ROWS);
  return needed <= Math.min(MAX_CODEWORDS, room);
}

/** One ^FM symbol: the segment padded to the size its codewords need, so the control block ends the symbol. */
function encodePdf417Segment(segment: MacroSegment, o: Pdf417Options): ModuleGrid {
  const ec = 2 ** (o.security + 1);
  const size = pdf417Size(1 + segment.data.length + segment.control.length + ec, o.columns, o.rows);
  return encodePdf417Codewords(paddedSegment(segment, size.columns * size.rows - 1 - ec), o);
}

/** The symbol for ^B7 data codewords. */
function encodePdf417Codewords(cws: number[], o: Pdf417Options): ModuleGrid {
  const bcid = o.truncate ? 'pdf417compact' : 'pdf417';
  const needed = 1 + cws.length + 2 ** (o.security + 1);
  const size = pdf417Size(needed, o.columns, o.rows);
  const base = { raw: true, eclevel: o.security, rowmult: 1, columns: size.columns };
  const text = rawCodewords(cws);
  if (size.rows <= MAX_ROWS && size.columns * size.rows >= needed)
    return encodeGrid(bcid, text, { ...base, rows: size.rows });
  // More rows than a symbol has: bwip-js sizes it from the columns (or reports that the data does not fit).
  return encodeGrid(bcid, text, base);
}

export function drawPdf417(field: FieldOf<'B7'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation, rowHeight: h, security, columns, rows, truncate } = field.args;
  const data = field.data ?? new Uint8Array(0);
  if (!data.length) return;
  const o: Pdf417Options = { security, columns, rows, truncate };
  if (o.rows && o.rows < 3) o.rows = 3;
  const moduleHeight = h ?? field.barcode.height;
  if (field.origins) {
    const series = macroSeries(
      env,
      field,
      '^B7',
      data,
      (part) => pdf417DataCodewords(part),
      (count) => fitsPdf417(count, o),
    );
    series?.forEach((segment, i) => {
      const g = tryEncode(env, field, '^B7', () => encodePdf417Segment(segment, o));
      const at = field.origins![i];
      if (g && at)
        drawGridField(
          canvas,
          { ...field, ...at, origin: 'FO' },
          orientation,
          g,
          field.barcode.moduleWidth,
          moduleHeight,
        );
    });
    return;
  }
  const g = tryEncode(env, field, '^B7', () => encodePdf417(data, o));
  if (!g) return;
  return drawGridField(canvas, field, orientation, g, field.barcode.moduleWidth, h ?? field.barcode.height);
}

/** ^BF modes 0..33: data columns and rows of the MicroPDF417 symbol (ZPL II guide table). */
const MICRO_SIZES: ReadonlyArray<readonly [number, number]> = [
  [1, 11],
  [1, 14],
  [1, 17],
  [1, 20],
  [1, 24],
  [1, 28],
  [2, 8],
  [2, 11],
  [2, 14],
  [2, 17],
  [2, 20],
  [2, 23],
  [2, 26],
  [3, 6],
  [3, 8],
  [3, 10],
  [3, 12],
  [3, 15],
  [3, 20],
  [3, 26],
  [3, 32],
  [3, 38],
  [3, 44],
  [4, 6],
  [4, 8],
  [4, 10],
  [4, 12],
  [4, 15],
  [4, 20],
  [4, 26],
  [4, 32],
  [4, 38],
  [4, 44],
  [4, 4],
];

/** ^BF mode 0..33 picks columns and rows; data larger than that size gets the smallest symbol that holds it. */
export function encodeMicroPdf417(data: Uint8Array, mode: number): ModuleGrid {
  const [columns, rows] = MICRO_SIZES[mode] ?? MICRO_SIZES[0];
  return encodeMicroPdf417Columns(data, columns, rows);
}

export function drawMicroPdf417(field: FieldOf<'BF'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation, rowHeight: h, mode } = field.args;
  const data = field.data ?? new Uint8Array(0);
  if (!data.length) return;
  if (field.origins) {
    const [columns, rows] = MICRO_SIZES[mode] ?? MICRO_SIZES[0];
    const room = microCapacity(columns, rows);
    const series = macroSeries(
      env,
      field,
      '^BF',
      data,
      (part) => pdf417DataCodewords(part, true),
      (count) => count <= room,
    );
    series?.forEach((segment, i) => {
      const g = tryEncode(env, field, '^BF', () =>
        encodeMicroCodewords(paddedSegment(segment, room), { columns, rows }),
      );
      const at = field.origins![i];
      if (g && at)
        drawGridField(
          canvas,
          { ...field, ...at, origin: 'FO' },
          orientation,
          g,
          field.barcode.moduleWidth,
          h ?? field.barcode.height,
        );
    });
    return;
  }
  const g = tryEncode(env, field, '^BF', () => encodeMicroPdf417(data, mode));
  if (!g) return;
  return drawGridField(canvas, field, orientation, g, field.barcode.moduleWidth, h ?? field.barcode.height);
}

/**
 * A MicroPDF417 symbol with the given columns and rows; data that does not fit gets more rows in the same
 * columns, then the smallest symbol that holds it.
 */
export function encodeMicroPdf417Columns(data: Uint8Array, columns: number, rows: number): ModuleGrid {
  const cws = pdf417DataCodewords(data, true);
  const sizes: Array<Record<string, number>> = [{ columns, rows }, { columns }, {}];
  for (const size of sizes) {
    try {
      return encodeMicroCodewords(cws, size);
    } catch (e) {
      if (!('columns' in size)) throw e;
    }
  }
  throw new Error('micropdf417: no size');
}

/** Data codewords a MicroPDF417 symbol of this size holds, found once by asking the encoder. */
const microCapacities = new Map<number, number>();
function microCapacity(columns: number, rows: number): number {
  const key = columns * 100 + rows;
  let room = microCapacities.get(key);
  if (room === undefined) {
    const fits = (n: number): boolean => {
      try {
        encodeMicroCodewords(new Array<number>(n).fill(900), { columns, rows });
        return true;
      } catch {
        return false;
      }
    };
    let lo = 0,
      hi = 176; // the largest symbol, 4 columns x 44 rows, holds 176 codewords
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(mid)) lo = mid;
      else hi = mid - 1;
    }
    microCapacities.set(key, (room = lo));
  }
  return room;
}

/** A MicroPDF417 symbol of data codewords `cws` in exactly `size` (throws when they do not fit). */
function encodeMicroCodewords(cws: readonly number[], size: Record<string, number>): ModuleGrid {
  return encodeGrid('micropdf417', rawCodewords(cws), { raw: true, rowmult: 1, ...size });
}

/**
 * ^FM: the data cut into a structured-append series, one segment for each origin. The guide: with too few
 * origins for the series no symbol prints (said in a warning); more origins than symbols are left unused.
 */
function macroSeries(
  env: DrawEnv,
  field: FieldBase,
  command: string,
  data: Uint8Array,
  codewords: (part: Uint8Array) => number[],
  fits: (count: number) => boolean,
): MacroSegment[] | undefined {
  const origins = field.origins!.length;
  const series = macroSegments(data, codewords, fits, origins);
  if (!series) {
    env.log?.add({
      byteIndex: field.at,
      byteSize: 0,
      command,
      param: 0,
      message: 'Bar code data cannot be encoded; field not printed (a character does not fit one symbol)',
    });
    return undefined;
  }
  if (series.length > origins) {
    env.log?.add({
      byteIndex: field.at,
      byteSize: 0,
      command: '^FM',
      param: 0,
      message: `The data needs more symbols than the ${origins} ^FM origins; none printed`,
    });
    return undefined;
  }
  return series;
}
