// Two-dimensional and stacked symbologies, keyed by ZPL command.
//
// bwip-js lays out every symbol except QR Code; we draw all modules at whole dots. Where the legacy renderer's
// encoder makes choices bwip-js would make differently (data codewords, symbol sizes), those choices are made
// here and handed to bwip-js as raw codewords or bits: pdf417-codewords.ts, datamatrix-codewords.ts,
// aztec-bits.ts. QR Code has no raw input in bwip-js, so qr-segments.ts and qr-symbol.ts build it whole.

import type { DrawerTable } from '../../display/drawer.js';
import type { KindOf } from '../../model.js';
import { drawAztec } from './aztec.js';
import { drawCodablock } from './codablock.js';
import { drawCode49 } from './code49.js';
import { drawDataMatrix } from './datamatrix.js';
import { drawMaxiCode } from './maxicode.js';
import { drawMicroPdf417, drawPdf417 } from './pdf417.js';
import { drawQr } from './qr.js';
import { drawTlc39 } from './tlc39.js';

/** A drawer for every `matrix` kind of field-kinds.ts: a kind without one does not compile. */
export const matrixDrawers: DrawerTable<KindOf<'matrix'>> = {
  BQ: drawQr,
  BX: drawDataMatrix,
  B7: drawPdf417,
  BF: drawMicroPdf417,
  BO: drawAztec,
  BD: drawMaxiCode,
  BB: drawCodablock,
  B4: drawCode49,
  BT: drawTlc39,
};
