// ^BO / ^B0 Aztec: magnification, error control / symbol size code, reader initialisation (menu symbol).

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import { encodeGrid, type ModuleGrid } from './grid.js';
import { aztecBits, aztecSize } from './aztec-bits.js';
import { drawGridField, report, tryEncode } from './field.js';
import { defaultQrMagnification } from './qr.js';

export interface AztecOptions {
  /** ^BO d: 0 default, 1-99 error correction percent, 101-104 compact layers, 201-232 full layers, 300 rune. */
  errorControl: number;
  readerInit: boolean;
}

/**
 * The symbol for a size code. The data bits and, for an error control percentage, the symbol size follow the
 * legacy renderer's encoder (aztec-bits.ts); bwip-js adds bit stuffing, check words and the layout.
 */
export function encodeAztec(data: Uint8Array, o: AztecOptions): ModuleGrid {
  const d = o.errorControl;
  const base: Record<string, string | number | boolean> = o.readerInit ? { readerinit: true } : {};
  if (d === 300) return encodeGrid('aztecrune', String(Number.parseInt(String.fromCharCode(...data), 10) & 0xff));
  const bits = aztecBits(data);
  // bwip-js insists on 5% + 3 check words; the legacy encoder may use fewer, then the next size that allows them is used.
  const raw = { ...base, raw: true, eclevel: 5 };
  const sized = (format: string, layers: number) => {
    try {
      return encodeGrid('azteccode', bits, { ...raw, format, layers });
    } catch {
      return encodeGrid('azteccode', bits, { ...raw, format });
    }
  };
  if (d >= 101 && d <= 104) return sized('compact', d - 100);
  if (d >= 201 && d <= 232) return sized('full', d - 200);
  const size = aztecSize(bits, d >= 1 && d <= 99 ? d : 23);
  return sized(size.compact ? 'compact' : 'full', size.layers);
}

export function drawAztec(field: FieldOf<'BO'>, env: DrawEnv, canvas: Canvas): void {
  const { orientation, magnification: magParam, errorControl, menuSymbol: menu, symbolCount: count } = field.args;
  const mag = magParam ?? defaultQrMagnification(env.dpmm);
  const data = field.data ?? new Uint8Array(0);
  if (!data.length) return;
  if (count > 1) report(env, field, '^BO', 'Structured append is not drawn; one symbol printed', 6, '^BO:append');
  const g = tryEncode(env, field, '^BO', () => encodeAztec(data, { errorControl, readerInit: menu }));
  if (!g) return;
  return drawGridField(canvas, field, orientation, g, mag, mag);
}
