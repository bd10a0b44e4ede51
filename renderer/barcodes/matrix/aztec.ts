// ^BO / ^B0 Aztec: magnification, error control / symbol size code, reader initialisation (menu symbol).

import type { DrawEnv, Field, LabelElement } from '../../model.js';
import { byteString, encodeGrid, type ModuleGrid } from './grid.js';
import { gridElement, num, report, tryEncode } from './field.js';
import { defaultQrMagnification } from './qr.js';

export interface AztecOptions {
  /** ^BO d: 0 default, 1-99 error correction percent, 101-104 compact layers, 201-232 full layers, 300 rune. */
  errorControl: number;
  readerInit: boolean;
}

/** The symbol for a size code; by default the smallest of compact and full-range (compact on a tie). */
export function encodeAztec(text: string, o: AztecOptions): ModuleGrid {
  const d = o.errorControl;
  const base: Record<string, string | number | boolean> = o.readerInit ? { readerinit: true } : {};
  if (d === 300) return encodeGrid('aztecrune', String(Number.parseInt(text, 10) & 0xff));
  if (d >= 101 && d <= 104) return encodeGrid('azteccode', text, { ...base, format: 'compact', layers: d - 100 });
  if (d >= 201 && d <= 232) return encodeGrid('azteccode', text, { ...base, format: 'full', layers: d - 200 });
  const eclevel = d >= 1 && d <= 99 ? d : 23;
  const full = encodeGrid('azteccode', text, { ...base, format: 'full', eclevel });
  try {
    const compact = encodeGrid('azteccode', text, { ...base, format: 'compact', eclevel });
    return compact.width <= full.width ? compact : full;
  } catch {
    return full;
  }
}

export function renderAztec(field: Field, env: DrawEnv): LabelElement[] {
  const [orientation, magParam, , errorControl, menu, count] = field.params;
  const mag = num(magParam, defaultQrMagnification(env.dpmm));
  const text = byteString(field.data);
  if (!text) return [];
  if (num(count, 1) > 1) report(env, field, '^BO', 'Structured append is not drawn; one symbol printed', 6);
  const d = num(errorControl, 0);
  const g = tryEncode(env, field, '^BO', () => encodeAztec(text, { errorControl: d, readerInit: menu === 'Y' }));
  if (!g) return [];
  return gridElement(field, orientation, g, mag, mag);
}
