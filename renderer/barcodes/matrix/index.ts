// Two-dimensional and stacked symbologies, keyed by ZPL command.
//
// bwip-js lays out every symbol except QR Code; we draw all modules at whole dots. Where the legacy renderer's
// encoder makes choices bwip-js would make differently (data codewords, symbol sizes), those choices are made
// here and handed to bwip-js as raw codewords or bits: pdf417-codewords.ts, datamatrix-codewords.ts,
// aztec-bits.ts. QR Code has no raw input in bwip-js, so qr-segments.ts and qr-symbol.ts build it whole.

import type { FieldRenderer } from '../../display/drawer.js';
import { renderAztec } from './aztec.js';
import { renderCodablock } from './codablock.js';
import { renderCode49 } from './code49.js';
import { renderDataMatrix } from './datamatrix.js';
import { renderMaxiCode } from './maxicode.js';
import { renderMicroPdf417, renderPdf417 } from './pdf417.js';
import { renderQr } from './qr.js';
import { renderTlc39 } from './tlc39.js';

export const matrixRenderers: Record<string, FieldRenderer> = {
  BQ: renderQr,
  BX: renderDataMatrix,
  B7: renderPdf417,
  BF: renderMicroPdf417,
  BO: renderAztec,
  BD: renderMaxiCode,
  BB: renderCodablock,
  B4: renderCode49,
  BT: renderTlc39,
};
