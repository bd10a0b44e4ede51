// Linear (1D) and postal symbologies, keyed by ZPL command.

import type { FieldKind, KindOf } from '../../model.js';
import type { Drawer, DrawerTable } from '../../display/drawer.js';
import { drawCode128 } from './code128.js';
import { twoWidthDrawers } from './two-width.js';
import { upcEanDrawers } from './ean-upc.js';
import { drawPlessey } from './plessey.js';
import { drawB5, drawBZ } from './postal.js';
import { drawDataBar } from './databar.js';

/** A barcode field without field data prints nothing (the legacy renderer draws no empty symbol). */
const withData =
  <K extends FieldKind>(draw: Drawer<K>): Drawer<K> =>
  (field, env, canvas) => {
    if (field.data?.length) draw(field, env, canvas);
  };

/** A drawer for every `linear` kind of field-kinds.ts: a kind without one does not compile. */
export const linearDrawers: DrawerTable<KindOf<'linear'>> = {
  BC: withData(drawCode128),
  B3: withData(twoWidthDrawers.B3),
  BL: withData(twoWidthDrawers.BL),
  BA: withData(twoWidthDrawers.BA),
  B2: withData(twoWidthDrawers.B2),
  BI: withData(twoWidthDrawers.BI),
  BJ: withData(twoWidthDrawers.BJ),
  BK: withData(twoWidthDrawers.BK),
  B1: withData(twoWidthDrawers.B1),
  BM: withData(twoWidthDrawers.BM),
  BE: withData(upcEanDrawers.BE),
  B8: withData(upcEanDrawers.B8),
  BU: withData(upcEanDrawers.BU),
  B9: withData(upcEanDrawers.B9),
  BS: withData(upcEanDrawers.BS),
  BP: withData(drawPlessey),
  BZ: withData(drawBZ),
  B5: withData(drawB5),
  BR: withData(drawDataBar),
};
