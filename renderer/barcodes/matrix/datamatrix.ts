// ^BX Data Matrix (ECC 200): square modules of `h` dots, optional fixed size, escape sequences in the data.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { byteString, encodeGrid, rawCodewords, type ModuleGrid } from './grid.js';
import { DM_SIZES, FNC1, dataMatrixSize, encodeDataMatrixData, finishDataMatrix } from './datamatrix-codewords.js';
import { drawGridField, report, tryEncode } from './field.js';

/**
 * Reads ^BX field data with escape character `esc` (shown as `_`): `_dNNN` a byte by decimal value, `_1` FNC1,
 * `_@`..`_Z` control characters NUL..SUB, a doubled escape the escape itself. FNC1 is returned as -1.
 */
export function parseDataMatrixData(data: string, esc: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (!esc || c !== esc || i + 1 >= data.length) {
      out.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const n = data[i + 1];
    if ((n === 'd' || n === 'D') && /^\d{3}$/.test(data.slice(i + 2, i + 5))) {
      out.push(Number(data.slice(i + 2, i + 5)) & 0xff);
      i += 4;
    } else if (n === '1') {
      out.push(FNC1);
      i++;
    } else if (n >= '@' && n <= 'Z') {
      out.push(n.charCodeAt(0) - 64);
      i++;
    } else if (n === esc) {
      out.push(esc.charCodeAt(0));
      i++;
    } else out.push(c.charCodeAt(0) & 0xff);
  }
  return out;
}

/**
 * The symbol: codewords as the legacy encoder picks them, in the requested size (rows x columns) when the data
 * fits it, otherwise the smallest square (or rectangle) that holds them.
 */
export function encodeDataMatrix(
  values: readonly number[],
  rows: number,
  columns: number,
  rectangular: boolean,
): ModuleGrid {
  const e = encodeDataMatrixData(values);
  const needed = e.codewords.length + e.pending.length;
  let size = DM_SIZES.findIndex((s) => s.rows === rows && s.cols === columns);
  if (size < 0 || DM_SIZES[size].bytes < needed) size = dataMatrixSize(needed, rectangular);
  const { rows: r, cols: c, bytes } = DM_SIZES[size];
  const codewords = finishDataMatrix(e, bytes);
  return encodeGrid('datamatrix', rawCodewords(codewords), { raw: true, version: `${r}x${c}` });
}

export function drawDataMatrix(field: FieldOf<'BX'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation, moduleSize: h, quality, columns, rows, escape: escapeChar, aspect } = field.args;
  if (quality !== 200)
    report(env, field, '^BX', `Quality ${quality} (ECC 000-140) is drawn as ECC 200`, 3, `^BX:${quality}`);
  // Escape sequences belong to quality 200 field data (default escape character: underscore).
  const data = byteString(field.data).slice(0, 3072);
  const values = quality === 200 ? parseDataMatrixData(data, escapeChar) : parseDataMatrixData(data, '');
  if (!values.length) return;
  const g = tryEncode(env, field, '^BX', () => encodeDataMatrix(values, rows, columns, aspect === 2));
  if (!g) return;
  // Without a module size the ^BY bar height is divided by the rows, rounded, at least one dot.
  const module = h !== undefined && h > 0 ? h : Math.max(1, Math.round(field.barcode.height / g.height));
  return drawGridField(canvas, field, orientation, g, module, module);
}
