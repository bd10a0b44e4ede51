// Linear (1D) and postal symbologies, keyed by ZPL command.

import type { FieldRenderer } from '../../display/drawer.js';
import { drawCode128 } from './code128.js';
import { twoWidthRenderers } from './two-width.js';
import { upcEanRenderers } from './ean-upc.js';
import { drawPlessey } from './plessey.js';
import { drawB5, drawBZ } from './postal.js';
import { drawDataBar } from './databar.js';

/** A barcode field without field data prints nothing (the legacy renderer draws no empty symbol). */
const withData = (draw: FieldRenderer): FieldRenderer => (field, env) => (field.data?.length ? draw(field, env) : []);

const drawers: Record<string, FieldRenderer> = {
  BC: drawCode128,
  ...twoWidthRenderers,
  ...upcEanRenderers,
  BP: drawPlessey,
  BZ: drawBZ,
  B5: drawB5,
  BR: drawDataBar,
};

export const linearRenderers: Record<string, FieldRenderer> = Object.fromEntries(
  Object.entries(drawers).map(([k, d]) => [k, withData(d)]),
);
