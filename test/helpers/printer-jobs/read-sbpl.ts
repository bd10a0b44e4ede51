// Reads a SATO SBPL job from the SBPL Programming Reference alone: <ESC>A ... <ESC>Z frame each label; <ESC>A1 sets
// the media size (height V, width H, dots); <ESC>V and <ESC>H place what follows (dots from the top left);
// <ESC>G B|H bbb ccc draws a graphic bbb bytes wide and ccc 8-dot blocks high, rows top first, a 1 bit black (binary
// bytes or two hex digits each); <ESC>Q sets how many to print, and the label prints at <ESC>Z.

import { DotGrid, JobError, latin1, type PrintedDots } from './printed.js';

export interface SbplJob {
  media: { height: number; width: number } | undefined;
  labels: PrintedDots[];
}

const ESC = 0x1b;

export function readSbpl(job: Uint8Array): SbplJob {
  const text = latin1(job);
  let media: SbplJob['media'];
  const labels: PrintedDots[] = [];
  let canvas: DotGrid | undefined;
  let v = 0,
    h = 0,
    quantity = 0;
  let at = 0;
  const digits = (n?: number): number => {
    const m = (n === undefined ? /^\d+/ : new RegExp(`^\\d{${n}}`)).exec(text.slice(at, at + 8));
    if (!m) throw new JobError(`SBPL: number expected at byte ${at}`);
    at += m[0].length;
    return Number(m[0]);
  };
  while (at < job.length) {
    if (job[at] !== ESC) throw new JobError(`SBPL: <ESC> expected at byte ${at}`);
    const code = text[at + 1];
    at += 2;
    switch (code) {
      case 'A':
        if (text[at] === '1') {
          // Media size: V aaaaa H bbbb (variable digits) or aaaabbbb.
          at++;
          if (text[at] === 'V') {
            at++;
            const height = digits();
            if (text[at++] !== 'H') throw new JobError('SBPL: A1 V without H');
            media = { height, width: digits() };
          } else media = { height: digits(4), width: digits(4) };
        } else {
          canvas = media ? new DotGrid(media.width, media.height) : undefined;
          v = h = quantity = 0;
        }
        break;
      case 'V':
        v = digits();
        break;
      case 'H':
        h = digits();
        break;
      case 'G': {
        const kind = text[at++];
        const bytes = digits(3),
          blocks = digits(3);
        if (!canvas) throw new JobError('SBPL: graphic outside a label, or no media size');
        const size = bytes * blocks * 8;
        let data: Uint8Array;
        if (kind === 'B') {
          data = job.subarray(at, at + size);
          at += size;
        } else if (kind === 'H') {
          data = Buffer.from(text.slice(at, at + 2 * size), 'hex');
          at += 2 * size;
        } else throw new JobError(`SBPL: G${kind}`);
        for (let r = 0; r < blocks * 8; r++) canvas.row(h, v + r, data.subarray(r * bytes, (r + 1) * bytes), bytes * 8);
        break;
      }
      case 'Q':
        quantity = digits();
        break;
      case 'Z':
        for (let i = 0; i < quantity && canvas; i++) labels.push(canvas.copy());
        canvas = undefined;
        break;
      default:
        throw new JobError(`SBPL: unexpected <ESC>${code}`);
    }
  }
  return { media, labels };
}
