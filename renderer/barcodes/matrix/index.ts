// Two-dimensional and stacked symbologies, keyed by ZPL command.

import type { FieldRenderer } from '../../model.js';
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
