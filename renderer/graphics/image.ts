// Bitmap fields: ^GF graphic fields, ^XG recalled graphics (with magnification) and ^IM image moves.

import type { DrawEnv, Field, LabelElement, StoredObject } from '../model.js';
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
  const bmp = decodeGraphic(f.payload, total ?? binaryCount ?? 0, row ?? 1, format === 'B' || format === 'C', undefined, 'draw-nothing');
  decodedFields.set(f.payload, bmp);
  return bmp;
}

/** The stored object each ^XG/^IM field named, as it was when the field was made (keyed by its params). */
const recalledObjects = new WeakMap<readonly unknown[], StoredObject>();

export function rememberRecalledObject(params: readonly unknown[], obj: StoredObject): void {
  recalledObjects.set(params, obj);
}

function recalled(f: Field, env: DrawEnv, ...exts: string[]): StoredObject | undefined {
  const bound = recalledObjects.get(f.params);
  if (bound) return bound;
  const name = f.params[0] as string | undefined;
  if (!name) return undefined;
  for (const ext of exts) {
    const o = findObject(env.objects, name, ext);
    if (o) return o;
  }
  return undefined;
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
  const [, mx, my] = f.params as [string | undefined, number | undefined, number | undefined];
  const obj = recalled(f, env, 'GRF');
  return obj?.bits ? place(f, obj.bits, mx ?? 1, my ?? 1) : [];
}

/** ^IMd:o.x: the stored image at the field origin, unscaled. */
export function renderImageMove(f: Field, env: DrawEnv): LabelElement[] {
  const obj = recalled(f, env, 'GRF', 'PNG');
  return obj?.bits ? place(f, obj.bits, 1, 1) : [];
}
