// Bitmap fields: ^GF graphic fields, ^XG recalled graphics (with magnification) and ^IM image moves.

import type { Bits, Field, StoredObject } from '../model.js';
import type { DrawEnv, LabelElement } from '../display/drawer.js';
import type { InkMode } from '../display/display-list.js';
import { findObject } from './objects.js';

/** ^XG / ^IM parameters, named as in their parameter tables. */
interface RecallArgs { name?: string; magnificationX?: number; magnificationY?: number }

/** The object a ^XG/^IM field was bound to when it was made, else the one its name finds now. */
function recalled(f: Field, env: DrawEnv, ...exts: string[]): StoredObject | undefined {
  if (f.object) return f.object;
  const { name } = f.args as RecallArgs;
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

function place(f: Field, bmp: Bits, sx: number, sy: number): LabelElement[] {
  if (bmp.height === 0 || bmp.width === 0) return [];
  const y = f.origin === 'FT' ? f.y - bmp.height * sy : f.y;
  const mode = modeOf(f);
  return [{ draw: (r) => r.bitmap(bmp, f.x, y, mode, sx, sy) }];
}

/** ^GFa,b,c,d,data */
export function renderGraphicField(f: Field, _env: DrawEnv): LabelElement[] {
  return f.graphic ? place(f, f.graphic, 1, 1) : [];
}

/** ^XGd:o.x,mx,my */
export function renderRecalledGraphic(f: Field, env: DrawEnv): LabelElement[] {
  const { magnificationX: mx, magnificationY: my } = f.args as RecallArgs;
  const obj = recalled(f, env, 'GRF');
  return obj?.bits ? place(f, obj.bits, mx ?? 1, my ?? 1) : [];
}

/** ^IMd:o.x: the stored image at the field origin, unscaled. */
export function renderImageMove(f: Field, env: DrawEnv): LabelElement[] {
  const obj = recalled(f, env, 'GRF', 'PNG');
  return obj?.bits ? place(f, obj.bits, 1, 1) : [];
}
