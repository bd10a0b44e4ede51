// Drawers for graphic fields, keyed by the command that made the field.

import type { FieldRenderer } from '../display/drawer.js';
import { renderBox } from './box.js';
import { renderDiagonal } from './diagonal.js';
import { renderCircle, renderEllipse } from './ellipse.js';
import { renderGraphicField, renderImageMove, renderRecalledGraphic } from './image.js';
import { renderSymbol } from './symbol.js';

export const graphicRenderers: Record<string, FieldRenderer> = {
  GB: renderBox,
  GC: renderCircle,
  GE: renderEllipse,
  GD: renderDiagonal,
  GF: renderGraphicField,
  XG: renderRecalledGraphic,
  IM: renderImageMove,
  GS: renderSymbol,
};
