// Reads a Datamax DPL job from the DPL Programmer's Manual alone. System level: <STX>m / <STX>n metric or imperial
// units, <STX>M maximum label length, <STX>KW printable width, <STX>I image download (Appendix "Image Loading": dot-row
// records "80" nn hex-bytes, repeat records "0000FF" nn, terminator "FFFF"; a 1 bit black, the first record the top
// row). <STX>L enters label formatting: D dot size, records (here images: rotation, "Y", multipliers, "000", row,
// column, name), Q quantity, E end and print. Positions are mm/10 in metric mode (inch/100 otherwise); where they
// land in dots depends on the printer's density, so the reader is told it.

import { DotGrid, JobError, latin1, type PrintedDots } from './printed.js';

export interface DplJob {
  units: 'metric' | 'imperial';
  /** <STX>M and <STX>KW values, in the units. */
  maxLength: number | undefined;
  printableWidth: number | undefined;
  dotSize: string | undefined;
  labels: PrintedDots[];
}

interface Image {
  rows: Uint8Array[];
}

export function readDpl(job: Uint8Array, dotsPerMm: number): DplJob {
  const text = latin1(job);
  const images = new Map<string, Image>();
  const result: DplJob = {
    units: 'imperial',
    maxLength: undefined,
    printableWidth: undefined,
    dotSize: undefined,
    labels: [],
  };
  let at = 0;
  /** The next line, without its CR (and an LF after it). */
  const line = (): string => {
    const end = text.indexOf('\r', at);
    if (end < 0) throw new JobError(`DPL: unterminated line at byte ${at}`);
    const s = text.slice(at, end);
    at = end + 1;
    if (text[at] === '\n') at++;
    return s;
  };
  const toDots = (v: number): number =>
    Math.round(result.units === 'metric' ? (v * dotsPerMm) / 10 : (v * dotsPerMm * 25.4) / 100);
  while (at < text.length) {
    if (text[at] !== '\x02') throw new JobError(`DPL: <STX> expected at byte ${at}`);
    at++;
    const command = line();
    if (command === 'm') result.units = 'metric';
    else if (command === 'n') result.units = 'imperial';
    else if (/^M\d{4}$/.test(command)) result.maxLength = Number(command.slice(1));
    else if (/^KW\d{4}$/.test(command)) result.printableWidth = Number(command.slice(2));
    else if (command.startsWith('I')) {
      // <STX>I a [b] f name: module, optional data type A, format F (the only one read here).
      const m = /^I([A-Z])(A?)F(.{1,16})$/.exec(command);
      if (!m) throw new JobError(`DPL: image download ${command} is not a 7-bit Datamax image`);
      images.set(m[3]!, readImage(line));
    } else if (command === 'L') {
      result.labels.push(...readFormat(line, images, toDots, (d) => (result.dotSize = d)));
    } else throw new JobError(`DPL: unexpected <STX>${command}`);
  }
  return result;
}

function readImage(line: () => string): Image {
  const rows: Uint8Array[] = [];
  for (;;) {
    const record = line();
    if (record === 'FFFF') return { rows };
    if (record.startsWith('0000FF')) {
      const previous = rows.at(-1);
      if (!previous) throw new JobError('DPL: repeat record before any row');
      for (let n = parseInt(record.slice(6, 8), 16); n > 0; n--) rows.push(previous);
    } else if (record.startsWith('80')) {
      const count = parseInt(record.slice(2, 4), 16);
      const hex = record.slice(4);
      if (hex.length !== 2 * count) throw new JobError(`DPL: record says ${count} bytes, holds ${hex.length / 2}`);
      rows.push(Uint8Array.from(Buffer.from(hex, 'hex')));
    } else throw new JobError(`DPL: unexpected image record ${record.slice(0, 12)}`);
  }
}

/** One label format: its image records drawn on a grid as large as they reach, printed Q times at E. */
function readFormat(
  line: () => string,
  images: Map<string, Image>,
  toDots: (v: number) => number,
  dotSize: (d: string) => void,
): PrintedDots[] {
  const placed: Array<{ image: Image; x: number; y: number }> = [];
  let quantity = 1;
  for (;;) {
    const record = line();
    if (record === 'E') break;
    if (/^D\d\d$/.test(record)) dotSize(record.slice(1));
    else if (/^Q\d{4,5}$/.test(record)) quantity = Number(record.slice(1));
    else {
      // a b c d eee ffff gggg name: rotation 1, Y image, width and height multipliers 1, 000, row, column.
      const m = /^1Y11000(\d{4})(\d{4})(.+)$/.exec(record);
      if (!m) throw new JobError(`DPL: unexpected format record ${record.slice(0, 20)}`);
      const image = images.get(m[3]!);
      if (!image) throw new JobError(`DPL: no image ${m[3]}`);
      placed.push({ image, y: toDots(Number(m[1])), x: toDots(Number(m[2])) });
    }
  }
  const width = Math.max(0, ...placed.map((p) => p.x + Math.max(0, ...p.image.rows.map((r) => r.length * 8))));
  const height = Math.max(0, ...placed.map((p) => p.y + p.image.rows.length));
  const grid = new DotGrid(width, height);
  for (const p of placed) {
    for (const [r, row] of p.image.rows.entries()) grid.row(p.x, p.y + r, row, row.length * 8);
  }
  return Array.from({ length: quantity }, () => grid.copy());
}
