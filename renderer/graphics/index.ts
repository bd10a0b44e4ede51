// Drawers for graphic fields, keyed by the command that made the field.

import type { DrawerTable } from '../display/drawer.js';
import type { KindOf } from '../model.js';
import { drawBoxField } from './box.js';
import { drawDiagonal } from './diagonal.js';
import { drawCircle, drawEllipse } from './ellipse.js';
import { drawGraphicField, drawImageMove, drawRecalledGraphic } from './image.js';
import { drawSymbol } from './symbol.js';

export const graphicDrawers: DrawerTable<KindOf<'graphic'>> = {
  GB: drawBoxField,
  GC: drawCircle,
  GE: drawEllipse,
  GD: drawDiagonal,
  GF: drawGraphicField,
  XG: drawRecalledGraphic,
  IM: drawImageMove,
  GS: drawSymbol,
};
