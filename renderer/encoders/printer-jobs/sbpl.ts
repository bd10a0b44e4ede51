// SATO SBPL print job: the label as binary graphics (<ESC>GB) between <ESC>A and <ESC>Z, one block per print.
// Commands from the SBPL Programming Reference (SATO CL4NX/WS4 "Part 1 SBPL Commands"; GL4xxe for the older forms).

import { JobBytes } from './job-bytes.js';
import { inkedRows, type LabelDots, type PrintJobEncoder } from './label-dots.js';

const ESC = '\x1b';
/** <ESC>GB takes its width in bytes and its height in 8-row blocks, three digits each. */
const MAX_BLOCKS = 999;

export const encodeSbpl: PrintJobEncoder = async (labels) => {
  const job = new JobBytes();
  let first = true;
  for await (const label of labels) {
    if (first) {
      // [ESC+A1] Media Size, variable-digit form: label height (V) and width (H) in dots, a data stream of its own.
      job.text(`${ESC}A${ESC}A1V${label.height}H${label.width}${ESC}Z`);
      first = false;
    }
    // [ESC+A] Start of data.
    job.text(`${ESC}A`);
    writeGraphics(job, label);
    // [ESC+Q] Print quantity 1; [ESC+Z] end of data (prints).
    job.text(`${ESC}Q1${ESC}Z`);
  }
  return job.finish();
};

/** The inked rows as graphics of at most 999 bytes by 999 blocks, each placed with [ESC+V] and [ESC+H] in dots. */
function writeGraphics(job: JobBytes, label: LabelDots): void {
  const { top, bottom } = inkedRows(label);
  const { stride, bits, height } = label;
  for (let y0 = top; y0 < bottom; y0 += MAX_BLOCKS * 8) {
    const blocks = Math.min(MAX_BLOCKS, Math.ceil((bottom - y0) / 8));
    for (let b0 = 0; b0 < stride; b0 += MAX_BLOCKS) {
      const bytes = Math.min(MAX_BLOCKS, stride - b0);
      // [ESC+G] Graphic print, B: binary, one byte per 8 dots, rows top to bottom; rows past the label are white.
      const data = new Uint8Array(bytes * blocks * 8);
      for (let r = 0; r < blocks * 8 && y0 + r < height; r++) {
        const from = (y0 + r) * stride + b0;
        data.set(bits.subarray(from, from + bytes), r * bytes);
      }
      if (data.every((v) => v === 0)) continue;
      job.text(`${ESC}V${pad4(y0)}${ESC}H${pad4(b0 * 8)}${ESC}GB${pad3(bytes)}${pad3(blocks)}`).bytes(data);
    }
  }
}

const pad4 = (n: number): string => String(n).padStart(4, '0');
const pad3 = (n: number): string => String(n).padStart(3, '0');
