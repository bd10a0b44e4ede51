// ^BX Data Matrix (ECC 200): square modules of `h` dots, optional fixed size, escape sequences in the data.

import type { DrawEnv, Field, LabelElement } from '../../model.js';
import { byteString, encodeGrid, type ModuleGrid } from './grid.js';
import { gridElement, num, report, str, tryEncode } from './field.js';

/** ECC 200 sizes (rows x columns): squares 10..144, rectangles from ISO/IEC 16022. */
const RECTANGLES = ['8x18', '8x32', '12x26', '12x36', '16x36', '16x48'];

export interface DataMatrixData {
  text: string;
  /** The text holds ^FNC1 escapes for bwip-js. */
  fnc: boolean;
}

/**
 * Reads ^BX field data with escape character `esc`: `~dNNN` a byte by decimal value, `~1` FNC1,
 * `~@`..`~Z` control characters NUL..SUB, a doubled escape the escape itself.
 */
export function parseDataMatrixData(data: string, esc: string): DataMatrixData {
  // Characters, with -1 standing for FNC1.
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (!esc || c !== esc || i + 1 >= data.length) { out.push(c.charCodeAt(0)); continue; }
    const n = data[i + 1];
    if ((n === 'd' || n === 'D') && /^\d{3}$/.test(data.slice(i + 2, i + 5))) {
      out.push(Number(data.slice(i + 2, i + 5)) & 0xff);
      i += 4;
    } else if (n === '1') {
      out.push(-1); i++;
    } else if (n >= '@' && n <= 'Z') {
      out.push(n.charCodeAt(0) - 64); i++;
    } else if (n === esc) {
      out.push(esc.charCodeAt(0)); i++;
    } else out.push(c.charCodeAt(0));
  }
  const fnc = out.includes(-1);
  // With FNC1 present bwip-js parses ^ escapes, so a literal caret is written as ^094.
  const text = out.map((v) => (v === -1 ? '^FNC1' : fnc && v === 0x5e ? '^094' : String.fromCharCode(v))).join('');
  return { text, fnc };
}

export function encodeDataMatrix(d: DataMatrixData, rows: number, columns: number, rectangular: boolean): ModuleGrid {
  const opts: Record<string, string | number | boolean> = d.fnc ? { parse: true, parsefnc: true } : {};
  if (rows && columns) opts.version = `${rows}x${columns}`;
  else if (rectangular) opts.format = 'rectangle';
  try {
    return encodeGrid('datamatrix', d.text, opts);
  } catch (e) {
    // A requested size too small for the data: the printer picks a size that fits.
    if (!opts.version) throw e;
    delete opts.version;
    return encodeGrid('datamatrix', d.text, opts);
  }
}

export function renderDataMatrix(field: Field, env: DrawEnv): LabelElement[] {
  const [orientation, h, quality, columns, rows, , escape, aspect] = field.params;
  if (quality !== undefined && quality !== 200 && quality !== 0) report(env, field, '^BX', `Quality ${quality} is drawn as ECC 200`, 3);
  const d = parseDataMatrixData(byteString(field.data), str(escape, '~'));
  if (!d.text) return [];
  const r = num(rows, 0);
  const c = num(columns, 0);
  const sized = r > 0 && c > 0 && (r === c ? r % 2 === 0 : RECTANGLES.includes(`${r}x${c}`));
  const g = tryEncode(env, field, '^BX', () => encodeDataMatrix(d, sized ? r : 0, sized ? c : 0, aspect === 2));
  if (!g) return [];
  // Without a module size the symbol is about as high as the ^BY bar height.
  const module = num(h, 0) > 0 ? num(h, 0) : Math.max(1, Math.floor(field.barcode.height / g.height));
  return gridElement(field, orientation, g, module, module);
}
