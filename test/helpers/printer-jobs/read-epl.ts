// Reads an EPL2 job as an Eltron printer would, from the EPL Programming Guide (Zebra 14245L-003) alone: commands are
// lines ending in LF; q sets the image buffer's width and Q its length (dots), N clears it, GW writes raw rows into it
// (p3 bytes a row, p4 rows, a 0 bit black), P prints it p1 times.

import { DotGrid, JobError, latin1, type PrintedDots } from './printed.js';

export interface EplJob {
  /** q p1: label width in dots. */
  labelWidth: number;
  /** Q p1, p2: form length and gap length in dots. */
  formLength: number;
  gapLength: number;
  printDirection: 'T' | 'B' | undefined;
  labels: PrintedDots[];
}

export function readEpl(job: Uint8Array): EplJob {
  const text = latin1(job);
  let width: number | undefined,
    length: number | undefined,
    gap = 0;
  let direction: 'T' | 'B' | undefined;
  let buffer: DotGrid | undefined;
  const labels: PrintedDots[] = [];
  const numbers = (s: string): number[] => s.split(',').map((v) => Number(v.trim()));
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end).replace(/\r$/, '');
    const next = end < 0 ? text.length : end + 1;
    if (line === '') {
      at = next;
      continue;
    }
    if (line.startsWith('GW')) {
      // GWp1,p2,p3,p4,DATA: the data starts after the fourth comma and is p3 * p4 bytes long.
      const head = /^GW(\d+),(\d+),(\d+),(\d+),/.exec(text.slice(at, at + 40));
      if (!head) throw new JobError(`EPL: malformed GW at byte ${at}`);
      const [x, y, bytes, rows] = head.slice(1).map(Number) as [number, number, number, number];
      const from = at + head[0].length;
      if (!buffer) throw new JobError('EPL: GW before the image buffer is sized');
      for (let r = 0; r < rows; r++) {
        buffer.row(x, y + r, job.subarray(from + r * bytes, from + (r + 1) * bytes), bytes * 8, true);
      }
      at = from + bytes * rows;
      if (job[at] === 0x0d) at++;
      if (job[at] === 0x0a) at++;
      continue;
    }
    const command = line[0];
    const rest = line.slice(1);
    switch (command) {
      case 'q':
        width = Number(rest);
        buffer = undefined;
        break;
      case 'Q': {
        const [p1, p2] = numbers(rest);
        length = p1!;
        gap = p2!;
        buffer = undefined;
        break;
      }
      case 'Z':
        if (rest !== 'T' && rest !== 'B') throw new JobError(`EPL: Z${rest}`);
        direction = rest;
        break;
      case 'N':
        if (width === undefined || length === undefined) throw new JobError('EPL: N before q and Q');
        buffer = new DotGrid(width, length);
        break;
      case 'P': {
        const [sets] = numbers(rest);
        if (!buffer) throw new JobError('EPL: P with no image');
        for (let i = 0; i < sets!; i++) labels.push(buffer.copy());
        break;
      }
      default:
        throw new JobError(`EPL: unexpected command ${JSON.stringify(line.slice(0, 20))}`);
    }
    at = next;
  }
  if (width === undefined || length === undefined) throw new JobError('EPL: no q or Q');
  return { labelWidth: width, formLength: length, gapLength: gap, printDirection: direction, labels };
}
