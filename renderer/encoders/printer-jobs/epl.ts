// EPL2 (Eltron/Zebra) print job: the label as one GW graphic per print. Commands and syntax from the EPL
// Programming Guide (Zebra 14245L-003, "EPL Commands"); every command is one line ending in a line feed.

import { JobBytes } from './job-bytes.js';
import { inkedRows, type PrintJobEncoder } from './label-dots.js';

/** The gap between labels the Q command declares: 3 mm, within its 16-240 dot range at every density. */
const GAP_MM = 3;

export const encodeEpl: PrintJobEncoder = async (labels, setup) => {
  const job = new JobBytes();
  let first = true;
  for await (const label of labels) {
    if (first) {
      // N Clear Image Buffer, remarks: a line feed before it clears any partial command left in the printer's buffer.
      job.text('\n');
      // q Set Label Width: the label width in dots.
      job.text(`q${label.width}\n`);
      // Q Set Form Length: label length and gap length in dots (gap mode).
      job.text(`Q${label.height},${GAP_MM * setup.dpmm}\n`);
      // Z Print Direction: T prints the image buffer top first.
      job.text('ZT\n');
      first = false;
    }
    // N Clear Image Buffer (after q and Q, which clear it too).
    job.text('N\n');
    const { top, bottom } = inkedRows(label);
    if (bottom > top) {
      // GW Direct Graphic Write: x, y in dots, width in bytes, length in dot rows, then raw rows; a 1 bit is a white
      // dot, a 0 bit black (Zebra knowledge article "Details related to the GW EPL command").
      job.text(`GW0,${top},${label.stride},${bottom - top},`);
      const rows = label.bits.slice(top * label.stride, bottom * label.stride);
      for (let i = 0; i < rows.length; i++) rows[i] ^= 0xff;
      job.bytes(rows).text('\n');
    }
    // P Print: one label set.
    job.text('P1\n');
  }
  return job.finish();
};
