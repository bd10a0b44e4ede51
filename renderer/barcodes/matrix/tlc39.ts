// ^BT TLC39: a Code 39 symbol of the 6-digit ECI number with a four-column MicroPDF417 symbol of the serial
// number and additional data (everything after the comma that must follow the ECI number) printed directly
// above it, left edges aligned. Without that comma only the Code 39 part prints.

import type { FieldOf } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import type { Canvas } from '../../display/canvas.js';
import bwipjs from 'bwip-js';
import { barsFromRuns, drawBars, narrowWideToDots } from '../common/bars.js';
import { barcodeInk, fieldOrientation, fillFrameRect, placeSymbol } from '../common/frame.js';
import { byteString, type ModuleGrid } from './grid.js';
import { tryEncode } from './field.js';
import { encodeMicroPdf417Columns } from './pdf417.js';

export interface Tlc39Parts {
  eci: string;
  micro: string;
}

export function splitTlc39(data: string): Tlc39Parts {
  const eci = data.slice(0, 6);
  return { eci, micro: data[6] === ',' ? data.slice(7) : '' };
}

/** MicroPDF417 rows for the TLC39 part by character count (4 columns: 4, 6 or 8 rows, more when needed). */
function tlcMicroRows(chars: number): number {
  return chars <= 14 ? 4 : chars <= 22 ? 6 : 8;
}

/** Defaults that scale with the print density (given for 8 dpmm; 600 dpi doubles module sizes). */
function byDensity(dpmm: number, at8: number, at12: number, at24: number): number {
  return dpmm >= 24 ? at24 : dpmm >= 12 ? at12 : at8;
}

/** Code 39 element widths in modules (bar, space, ...; wide elements are 3), start/stop included. */
function code39Elements(text: string): number[] {
  const out = bwipjs.raw({ bcid: 'code39', text } as Parameters<typeof bwipjs.raw>[0]) as unknown as Array<{
    sbs?: number[];
  }>;
  if (!out[0]?.sbs) throw new Error('code39: no bars');
  return out[0].sbs;
}

export function drawTlc39(field: FieldOf<'BT'>, env: DrawEnv, canvas: Canvas): void {
  const {
    orientation: orientationParam,
    code39Width: w1,
    code39Ratio: r1,
    code39Height: h1,
    pdfWidth: w2,
    pdfRowHeight: h2,
  } = field.args;
  const parts = splitTlc39(byteString(field.data));
  if (!parts.eci) return;
  const encoded = tryEncode(env, field, '^BT', () => ({
    elements: code39Elements(parts.eci),
    micro: parts.micro
      ? encodeMicroPdf417Columns(
          Uint8Array.from(parts.micro, (c) => c.charCodeAt(0)),
          4,
          tlcMicroRows(parts.micro.length),
        )
      : undefined,
  }));
  if (!encoded) return;
  const narrow = w1 ?? byDensity(env.dpmm, 2, 2, 4);
  const linearHeight = h1 ?? byDensity(env.dpmm, 40, 60, 120);
  const runs = narrowWideToDots(encoded.elements, narrow, r1, (e) => e > 1);
  const pdfModule = w2 ?? byDensity(env.dpmm, 2, 2, 4);
  const pdfRow = h2 ?? byDensity(env.dpmm, 4, 4, 8);
  const micro: ModuleGrid | undefined = encoded.micro;
  const microHeight = micro ? micro.height * pdfRow : 0;
  const { bars, width: linearWidth } = barsFromRuns(runs, microHeight, linearHeight);
  const width = Math.max(linearWidth, micro ? micro.width * pdfModule : 0);
  const orientation = fieldOrientation(field, orientationParam);
  const frame = placeSymbol(field, width, microHeight + linearHeight, orientation);
  const mode = barcodeInk(field);
  drawBars(canvas, frame, bars, mode);
  if (!micro) return;
  for (let y = 0; y < micro.height; y++) {
    for (let x = 0; x < micro.width; x++) {
      if (micro.bits[y * micro.width + x])
        fillFrameRect(canvas, frame, x * pdfModule, y * pdfRow, pdfModule, pdfRow, mode);
    }
  }
}
