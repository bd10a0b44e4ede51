// Datamax DPL print job: each label downloaded as images in Datamax 7-bit ASCII format (<STX>I), placed by a label
// format (<STX>L ... E) that prints it once. Commands from the DPL Programmer's Manual (Datamax-O'Neil E-Class Mark
// III / Class Series): System-Level Commands, Generating Label Formats, Appendix "Image Loading".

import { JobBytes } from './job-bytes.js';
import type { LabelDots, PrintJobEncoder, PrintJobSetup } from './label-dots.js';

const STX = '\x02';
const CR = '\r';
/** A dot-row record holds at most 255 bytes (its count is two hex digits): wider labels are several images. */
const STRIP_BYTES = 255;
/** Duplicates one repeat record can stand for (two hex digits). */
const MAX_REPEAT = 255;

export const encodeDpl: PrintJobEncoder = async (labels, setup) => {
  const job = new JobBytes();
  let first = true;
  for await (const label of labels) {
    if (first) {
      // <STX>m Set Printer to Metric Mode: lengths below in tenths of a millimetre.
      job.text(`${STX}m${CR}`);
      // <STX>M Set Maximum Label Length (mm/10).
      job.text(`${STX}M${pad4(tenthsOfMm(setup.heightIn))}${CR}`);
      // <STX>KW Set Printable Label Width (mm/10).
      job.text(`${STX}KW${pad4(tenthsOfMm(setup.widthIn))}${CR}`);
      first = false;
    }
    const strips = stripsOf(label);
    for (const s of strips) writeImage(job, label, s);
    // <STX>L Enter Label Formatting Mode; D11 dot size 1 x 1.
    job.text(`${STX}L${CR}D11${CR}`);
    // Image records: rotation 1, font Y (image), multipliers 1 1, 000, row, column (mm/10), image name.
    for (const s of strips) job.text(`1Y11000${pad4(0)}${pad4(columnOf(s, setup))}${s.name}${CR}`);
    // Q Set Quantity: one; E End formatting and print.
    job.text(`Q0001${CR}E${CR}`);
  }
  return job.finish();
};

interface Strip {
  name: string;
  /** First byte of the label's rows this image holds, and how many. */
  byte: number;
  bytes: number;
}

/** Images side by side, each at most 255 bytes (2040 dots: a whole number of 0.1 mm at every density). */
function stripsOf(label: LabelDots): Strip[] {
  const strips: Strip[] = [];
  for (let byte = 0; byte < label.stride; byte += STRIP_BYTES) {
    strips.push({ name: `ZPL${strips.length + 1}`, byte, bytes: Math.min(STRIP_BYTES, label.stride - byte) });
  }
  return strips;
}

/** A strip's left edge in mm/10: 2040 dots is 255, 340, 170 or 85 mm at 8, 6, 12 and 24 dots/mm. */
function columnOf(s: Strip, setup: PrintJobSetup): number {
  return (s.byte * 8 * 10) / setup.dpmm;
}

/**
 * <STX>I Input Image Data: module D, data type A (ASCII hex), format F (Datamax 7-bit), the name; then one dot-row
 * record per row, top first ("80", byte count, bytes in hex, 1 = black), equal rows as repeat records
 * ("0000FF", count), and the terminator "FFFF".
 */
function writeImage(job: JobBytes, label: LabelDots, s: Strip): void {
  job.text(`${STX}IDAF${s.name}${CR}`);
  let previous = '';
  let repeats = 0;
  const flush = (): void => {
    if (repeats > 0) job.text(`0000FF${hex2(repeats)}${CR}`);
    repeats = 0;
  };
  for (let y = 0; y < label.height; y++) {
    const row = label.bits.subarray(y * label.stride + s.byte, y * label.stride + s.byte + s.bytes);
    // Trailing white bytes are left out (a record is as long as its count says); one byte is always sent.
    let used = row.length;
    while (used > 1 && row[used - 1] === 0) used--;
    const record = `80${hex2(used)}${Buffer.from(row.subarray(0, used)).toString('hex').toUpperCase()}`;
    if (record === previous && repeats < MAX_REPEAT) {
      repeats++;
      continue;
    }
    flush();
    job.text(record + CR);
    previous = record;
  }
  flush();
  job.text(`FFFF${CR}`);
}

const tenthsOfMm = (inches: number): number => Math.round(inches * 254);
const pad4 = (n: number): string => String(n).padStart(4, '0');
const hex2 = (n: number): string => n.toString(16).toUpperCase().padStart(2, '0');
