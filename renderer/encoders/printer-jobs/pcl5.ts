// HP PCL 5 print job: a custom page the label's size (PJL), each label one page of raster graphics compressed with
// TIFF PackBits (method 2). Commands from the PCL 5 Printer Language Technical Reference Manual (HP 5961-0509:
// "Page Control Commands", "Raster Graphics") and the Printer Job Language Technical Reference Manual.

import { dotsPerInch } from '../../layout/dots.js';
import { JobBytes, packBits } from './job-bytes.js';
import { inkedRows, type LabelDots, type PrintJobEncoder } from './label-dots.js';

const ESC = '\x1b';
/** PJL: Universal Exit Language, which starts and ends a job. */
const UEL = `${ESC}%-12345X`;
/** Raster Resolution values the Technical Reference lists; the label's density is sent as the nearest. */
const RASTER_DPI = [75, 100, 150, 200, 300, 600];

export const encodePcl5: PrintJobEncoder = async (labels, setup) => {
  const job = new JobBytes();
  const decipoints = (inches: number): number => Math.round(inches * 720);
  const dpi = dotsPerInch(setup.dpmm);
  const resolution = RASTER_DPI.reduce((best, r) => (Math.abs(r - dpi) < Math.abs(best - dpi) ? r : best));
  // PJL SET PAPERWIDTH / PAPERLENGTH (decipoints) size the custom paper; ENTER LANGUAGE switches to PCL.
  job.text(`${UEL}@PJL SET PAPERWIDTH = ${decipoints(setup.widthIn)}\r\n`);
  job.text(`@PJL SET PAPERLENGTH = ${decipoints(setup.heightIn)}\r\n@PJL ENTER LANGUAGE = PCL\r\n`);
  // Printer Reset; Page Size 101 (custom, the PJL paper size); portrait Orientation; Top Margin 0 lines.
  job.text(`${ESC}E${ESC}&l101A${ESC}&l0O${ESC}&l0E`);
  // Raster Graphics Resolution, dots per inch.
  job.text(`${ESC}*t${resolution}R`);
  let first = true;
  for await (const label of labels) {
    // Form Feed between labels: one page per label.
    if (!first) job.text('\f');
    first = false;
    writeRaster(job, label);
  }
  // Printer Reset ends the last page; UEL ends the job.
  job.text(`${ESC}E${UEL}`);
  return job.finish();
};

function writeRaster(job: JobBytes, label: LabelDots): void {
  const { top, bottom } = inkedRows(label);
  // Cursor to the top left of the logical page (PCL units); Source Raster Width and Height in dots.
  job.text(`${ESC}*p0X${ESC}*p0Y${ESC}*r${label.width}S${ESC}*r${label.height}T`);
  // Set Compression Method 2 (TIFF); Start Raster Graphics at the cursor.
  job.text(`${ESC}*b2M${ESC}*r1A`);
  // Raster Y Offset skips the white rows above the ink (rows are zero-filled).
  if (top > 0) job.text(`${ESC}*b${top}Y`);
  const { stride, bits } = label;
  let blank = 0;
  for (let y = top; y < bottom; y++) {
    const row = bits.subarray(y * stride, (y + 1) * stride);
    let used = row.length;
    while (used > 0 && row[used - 1] === 0) used--;
    if (used === 0) {
      blank++;
      continue;
    }
    if (blank > 0) job.text(`${ESC}*b${blank}Y`);
    blank = 0;
    // Transfer Raster Data by Row: the byte count, then the row compressed (1 = black; missing bytes are 0).
    const data = Uint8Array.from(packBits(row.subarray(0, used)));
    job.text(`${ESC}*b${data.length}W`).bytes(data);
  }
  // End Raster Graphics.
  job.text(`${ESC}*rB`);
}
