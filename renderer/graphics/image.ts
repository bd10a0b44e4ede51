// Bitmap fields: ^GF graphic fields, ^XG recalled graphics (with magnification) and ^IM image moves.

import type { DrawEnv, Field, LabelElement } from '../model.js';
import type { InkMode } from '../raster/raster.js';
import { decodeGraphic, type Bitmap } from './grf.js';
import { findObject } from './objects.js';

/** ^GF bitmaps decoded while interpreting (with diagnostics), keyed by the field's payload bytes. */
const decodedFields = new WeakMap<Uint8Array, Bitmap>();

export function rememberGraphicField(payload: Uint8Array, bmp: Bitmap): void {
  decodedFields.set(payload, bmp);
}

/** ^GF parameters after the interpreter: format, binary byte count, graphic byte count, bytes per row. */
export function graphicFieldBitmap(f: Field): Bitmap | undefined {
  if (!f.payload) return undefined;
  const cached = decodedFields.get(f.payload);
  if (cached) return cached;
  const [format, binaryCount, total, row] = f.params as [string, number | undefined, number | undefined, number | undefined];
  const bmp = decodeGraphic(f.payload, total ?? binaryCount ?? 0, row ?? 1, format === 'B' || format === 'C');
  decodedFields.set(f.payload, bmp);
  return bmp;
}

function modeOf(f: Field): InkMode {
  return f.reverse ? 'xor' : 'black';
}

function place(f: Field, bmp: Bitmap, sx: number, sy: number): LabelElement[] {
  if (bmp.height === 0 || bmp.width === 0) return [];
  const y = f.origin === 'FT' ? f.y - bmp.height * sy : f.y;
  const mode = modeOf(f);
  return [{ draw: (r) => r.blitBits(bmp.data, bmp.stride, bmp.width, bmp.height, f.x, y, mode, sx, sy) }];
}

/** ^GFa,b,c,d,data */
export function renderGraphicField(f: Field, _env: DrawEnv): LabelElement[] {
  const bmp = graphicFieldBitmap(f);
  return bmp ? place(f, bmp, 1, 1) : [];
}

/** ^XGd:o.x,mx,my */
export function renderRecalledGraphic(f: Field, env: DrawEnv): LabelElement[] {
  const [name, mx, my] = f.params as [string | undefined, number | undefined, number | undefined];
  const obj = name ? findObject(env.objects, name, 'GRF') : undefined;
  return obj?.bits ? place(f, obj.bits, mx ?? 1, my ?? 1) : [];
}

/** ^IMd:o.x: the stored image at the field origin, unscaled. */
export function renderImageMove(f: Field, env: DrawEnv): LabelElement[] {
  const [name] = f.params as [string | undefined];
  const obj = name ? findObject(env.objects, name, 'GRF') ?? findObject(env.objects, name, 'PNG') : undefined;
  return obj?.bits ? place(f, obj.bits, 1, 1) : [];
}
