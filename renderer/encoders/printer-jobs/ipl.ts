// Intermec IPL print job: a temporary format with no fields, and each label sent in Direct Graphics mode (run-length
// columns straight into image memory) before a print command. Commands from the IPL Programmer's Reference Manual
// (Intermec, chapter 7 "IPL Command Reference" and Appendix E "Using Direct Graphics Mode").

import { RenderError } from '../../errors.js';
import { JobBytes } from './job-bytes.js';
import type { LabelDots, PrintJobEncoder } from './label-dots.js';

const STX = '\x02';
const ETX = '\x03';
const ESC = '\x1b';
const SI = '\x0f';
const CAN = '\x18';
const RS = '\x1e';
const ETB = '\x17';

// Appendix E, compression encodation commands (one byte each, 0x20-0x3F).
const CHANGE_ORIGIN = 0x21;
const END_OF_LINE = 0x22;
const REPEAT_LAST_LINE = 0x24;
const TRANSITION_BLACK = 0x25;
const TRANSITION_WHITE = 0x26;
const END_OF_BITMAP = 0x28;
/** Appendix E: data values are 13 bits at most (a high-order byte of 6 bits and a low-order byte of 7). */
const MAX_VALUE = 8191;

export const encodeIpl: PrintJobEncoder = async (labels) => {
  const job = new JobBytes();
  let first = true;
  for await (const label of labels) {
    if (first) {
      if (label.width - 1 > MAX_VALUE || label.height - 1 > MAX_VALUE)
        throw new RenderError(
          'too-large',
          `IPL addresses at most ${MAX_VALUE + 1} dots a side; this label is ${label.width}x${label.height} dots`,
        );
      // <ESC>C Advanced Mode, Select: positions in the printer's own dots.
      job.text(`${STX}${ESC}C${ETX}`);
      // <SI>W Label Width, Set and <SI>L Maximum Label Length, Set, in dots.
      job.text(`${STX}${SI}W${label.width}${ETX}${STX}${SI}L${label.height}${ETX}`);
      // <ESC>P Program Mode, Enter; E*;F* erase and create the temporary format *; R exit to Print mode.
      job.text(`${STX}${ESC}P${ETX}${STX}E*;F*;${ETX}${STX}R${ETX}`);
      first = false;
    }
    // <ESC>E Format, Select (format *); <CAN> clears its data.
    job.text(`${STX}${ESC}E*${CAN}${ETX}`);
    // <ESC>g0 Direct Graphics Mode, Enter (8 bits per byte), then the run-length data up to End of Bitmap.
    job
      .text(`${STX}${ESC}g0${ETX}${STX}`)
      .bytes(Uint8Array.from(directGraphic(label)))
      .text(ETX);
    // <RS> Quantity Count, Set: 1; <ETB> print.
    job.text(`${STX}${RS}1${ETB}${ETX}`);
  }
  return job.finish();
};

/**
 * The label as columns left to right. Appendix E: a column loads from its origin upward (dot k at y = origin - k),
 * so the origin is the bottom row and each column's runs are listed bottom first; End of Line moves to the next
 * column; Repeat Last Line copies the column before.
 */
function directGraphic(label: LabelDots): number[] {
  const out: number[] = [CHANGE_ORIGIN, ...value(0), ...value(label.height - 1)];
  let previous: number[] | undefined;
  for (let x = 0; x < label.width; ) {
    const runs = columnRuns(label, x);
    if (runs.length === 0) {
      out.push(END_OF_LINE);
      previous = undefined;
      x++;
      continue;
    }
    out.push(runs[0] === 0 ? TRANSITION_WHITE : TRANSITION_BLACK);
    for (const n of runs[0] === 0 ? runs.slice(1) : runs) out.push(...value(n));
    out.push(END_OF_LINE);
    x++;
    previous = runs;
    let same = 0;
    while (x + same < label.width && same < MAX_VALUE && sameRuns(columnRuns(label, x + same), previous)) same++;
    if (same > 0) {
      out.push(REPEAT_LAST_LINE, ...value(same));
      x += same;
    }
  }
  out.push(END_OF_BITMAP);
  return out;
}

/** Alternating run lengths from the bottom, black first (a leading 0 when the bottom dot is white); [] when blank. */
function columnRuns(label: LabelDots, x: number): number[] {
  const { bits, stride, height } = label;
  const byte = x >> 3,
    mask = 0x80 >> (x & 7);
  const runs: number[] = [];
  let black = true,
    n = 0;
  for (let y = height - 1; y >= 0; y--) {
    const dot = (bits[y * stride + byte] & mask) !== 0;
    if (dot === black) n++;
    else {
      runs.push(n);
      black = dot;
      n = 1;
    }
  }
  if (black) runs.push(n);
  // Trailing white is left out: the rest of the column stays white.
  return runs.length === 1 && runs[0] === 0 ? [] : runs;
}

function sameRuns(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Appendix E data value: a low-order byte (1xxxxxxx) for 0-127, else a high-order byte (01xxxxxx) before it. */
function value(n: number): number[] {
  return n < 128 ? [0x80 | n] : [0x40 | (n >> 7), 0x80 | (n & 0x7f)];
}
