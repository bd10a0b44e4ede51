// Reads an HP PCL 5 job from the PCL 5 Technical Reference Manual and the PJL Technical Reference alone. PJL lines
// (after the Universal Exit Language) until ENTER LANGUAGE = PCL; then escape sequences: ESC + one character
// (two-character sequences, e.g. ESC E reset), or ESC + a parameterized character (!-/) + a group character
// (`-~, optional) + value fields each ending in a parameter character, lower case continuing the sequence and upper
// case ending it. Raster graphics: *t#R resolution, *r#S width, *r#T height, *b#M compression (0 unencoded, 2 TIFF
// PackBits), *r#A start, *b#Y skip rows, *b#W a row of # bytes that follow, *rB / *rC end. A form feed (or the reset)
// ends a page.

import { DotGrid, JobError, latin1, type PrintedDots, unpackBits } from './printed.js';

export interface Pcl5Page extends PrintedDots {
  /** Where the raster started, in raster dots. */
  x: number;
  y: number;
}

export interface Pcl5Job {
  pjl: Record<string, string>;
  /** &l#A page size code. */
  pageSize: number | undefined;
  orientation: number | undefined;
  /** *t#R dots per inch. */
  resolution: number | undefined;
  pages: Pcl5Page[];
}

const ESC = 0x1b;
const UEL = '\x1b%-12345X';

export function readPcl5(job: Uint8Array): Pcl5Job {
  const text = latin1(job);
  if (!text.startsWith(UEL)) throw new JobError('PCL 5: no Universal Exit Language at the start');
  const result: Pcl5Job = { pjl: {}, pageSize: undefined, orientation: undefined, resolution: undefined, pages: [] };
  let at = UEL.length;
  // PJL commands, one a line.
  for (;;) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end).replace(/\r$/, '');
    at = end + 1;
    const set = /^@PJL SET (\w+)\s*=\s*(.+)$/.exec(line);
    if (set) result.pjl[set[1]!] = set[2]!.trim();
    else if (/^@PJL ENTER LANGUAGE\s*=\s*PCL$/.test(line)) break;
    else throw new JobError(`PCL 5: unexpected PJL line ${line}`);
  }
  let width = 0,
    height = 0,
    compression = 0,
    cursorX = 0,
    cursorY = 0;
  let page: { raster?: DotGrid; x: number; y: number } | undefined;
  let row = 0;
  const closePage = (): void => {
    if (page?.raster) result.pages.push({ ...page.raster.copy(), x: page.x, y: page.y });
    page = undefined;
  };
  while (at < job.length) {
    const b = job[at]!;
    if (b === 0x0c) {
      closePage();
      at++;
      continue;
    }
    if (b !== ESC) throw new JobError(`PCL 5: unexpected byte ${b} at ${at}`);
    if (text.startsWith(UEL, at)) {
      closePage();
      at += UEL.length;
      if (at !== job.length) throw new JobError('PCL 5: data after the closing UEL');
      break;
    }
    const c = text[at + 1]!;
    if (c >= '0' && c <= '~' && !(c >= '!' && c <= '/')) {
      // Two-character sequence.
      if (c === 'E') closePage();
      else throw new JobError(`PCL 5: unexpected ESC ${c}`);
      at += 2;
      continue;
    }
    let p = at + 2;
    const parameterized = c;
    let group = '';
    if (text[p]! >= '`' && text[p]! <= '~') group = text[p++]!;
    for (;;) {
      const m = /^([+-]?\d*(?:\.\d+)?)([@-^`-~])/.exec(text.slice(p, p + 24));
      if (!m) throw new JobError(`PCL 5: bad value field at ${p}`);
      p += m[0].length;
      const value = Number(m[1] || '0');
      const terminator = m[2]!.toUpperCase();
      const key = `${parameterized}${group}${terminator}`;
      if (key === '*bW') {
        if (!page?.raster) throw new JobError('PCL 5: raster data outside raster graphics');
        const data = job.subarray(p, p + value);
        p += value;
        const bytes = compression === 2 ? unpackBits(data) : compression === 0 ? data : undefined;
        if (!bytes) throw new JobError(`PCL 5: compression method ${compression}`);
        page.raster.row(0, row++, bytes, Math.min(width, bytes.length * 8));
      } else {
        switch (key) {
          case '&lA':
            result.pageSize = value;
            break;
          case '&lO':
            result.orientation = value;
            break;
          case '&lE':
            break;
          case '*tR':
            result.resolution = value;
            break;
          case '*pX':
            cursorX = value;
            break;
          case '*pY':
            cursorY = value;
            break;
          case '*rS':
            width = value;
            break;
          case '*rT':
            height = value;
            break;
          case '*bM':
            compression = value;
            break;
          case '*rA':
            if (value !== 1) throw new JobError('PCL 5: raster started away from the cursor');
            page ??= { x: cursorX, y: cursorY };
            page.raster = new DotGrid(width, height);
            row = 0;
            break;
          case '*bY':
            row += value;
            break;
          case '*rB':
          case '*rC':
            break;
          default:
            throw new JobError(`PCL 5: unexpected ESC ${key}`);
        }
      }
      if (m[2] === terminator) break;
    }
    at = p;
  }
  return result;
}
