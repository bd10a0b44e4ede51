// Bitmap fields: ^GF graphic fields, ^XG recalled graphics (with magnification) and ^IM image moves.

import type { Bits, FieldBase, FieldOf, StoredObject } from '../model.js';
import type { DrawEnv, Drawer } from '../display/drawer.js';
import type { Canvas } from '../display/canvas.js';
import type { InkMode } from '../display/display-list.js';
import { findObject } from './objects.js';

/** The object a ^XG/^IM field was bound to when it was made, else the one its name finds now. */
function recalled(f: FieldOf<'XG' | 'IM'>, env: DrawEnv, ...exts: string[]): StoredObject | undefined {
  if (f.object) return f.object;
  const { name } = f.args;
  if (!name) return undefined;
  for (const ext of exts) {
    const o = findObject(env.objects, name, ext);
    if (o) return o;
  }
  return undefined;
}

function place(canvas: Canvas, f: FieldBase, bmp: Bits, sx: number, sy: number): void {
  if (bmp.height === 0 || bmp.width === 0) return;
  const y = f.origin === 'FT' ? f.y - bmp.height * sy : f.y;
  const mode: InkMode = f.reverse ? 'xor' : 'black';
  canvas.bitmap(bmp, f.x, y, mode, sx, sy);
}

/** ^GFa,b,c,d,data */
export const drawGraphicField: Drawer<'GF'> = (f, _env, canvas) => {
  if (f.graphic) place(canvas, f, f.graphic, 1, 1);
};

/** ^XGd:o.x,mx,my */
export const drawRecalledGraphic: Drawer<'XG'> = (f, env, canvas) => {
  const { magnificationX: mx, magnificationY: my } = f.args;
  const obj = recalled(f, env, 'GRF');
  if (obj?.bits) place(canvas, f, obj.bits, mx, my);
};

/** ^IMd:o.x: the stored image at the field origin, unscaled. */
export const drawImageMove: Drawer<'IM'> = (f, env, canvas) => {
  const obj = recalled(f, env, 'GRF', 'PNG', 'BMP');
  if (obj?.bits) place(canvas, f, obj.bits, 1, 1);
};
