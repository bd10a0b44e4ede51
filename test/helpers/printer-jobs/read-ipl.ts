// Reads an Intermec IPL job from the IPL Programmer's Reference Manual alone. Each message is <STX> ... <ETX>. Print
// mode: <ESC>C advanced mode (positions in dots), <SI>W label width, <SI>L maximum label length, <ESC>P program
// mode (commands separated by ";", R returns), <ESC>E select a format, <CAN> clear its data, <RS> quantity, <ETB>
// print, <ESC>g0 Direct Graphics (Appendix E). In Direct Graphics, bytes 0-31 are immediate commands (the message
// framing among them) and are not data; 0x21 x,y change origin; 0x22 end of line (next column, X + 1); 0x24 n
// repeat the last column n times; 0x25 / 0x26 transitions, black / white first, alternating dot counts; 0x27 raw
// bytes (7 data bits, the first dot the least significant bit); 0x28 end of bitmap. Values are one low-order byte
// (1xxxxxxx) or a high-order byte (01xxxxxx, 6 bits) before it. A column loads from its origin upward: its k-th dot
// is at y = origin y - k.

import { DotGrid, JobError, type PrintedDots } from './printed.js';

export interface IplJob {
  advancedMode: boolean;
  labelWidth: number | undefined;
  maxLabelLength: number | undefined;
  labels: PrintedDots[];
}

const STX = 0x02,
  ETX = 0x03,
  ESC = 0x1b,
  SI = 0x0f,
  CAN = 0x18,
  RS = 0x1e,
  ETB = 0x17;

export function readIpl(job: Uint8Array): IplJob {
  const result: IplJob = { advancedMode: false, labelWidth: undefined, maxLabelLength: undefined, labels: [] };
  let image: DotGrid | undefined;
  let quantity = 1;
  let programMode = false;
  let at = 0;
  const ascii = (): string => {
    let end = at;
    while (end < job.length && job[end]! >= 0x20) end++;
    const s = Buffer.from(job.subarray(at, end)).toString('latin1');
    at = end;
    return s;
  };
  const memory = (): DotGrid => {
    if (result.labelWidth === undefined || result.maxLabelLength === undefined)
      throw new JobError('IPL: image before <SI>W and <SI>L');
    return (image ??= new DotGrid(result.labelWidth, result.maxLabelLength));
  };
  while (at < job.length) {
    const b = job[at++]!;
    if (b === STX || b === ETX || b === 0x0d || b === 0x0a) continue;
    if (programMode) {
      at--;
      const commands = ascii()
        .split(';')
        .filter((c) => c !== '');
      for (const c of commands) {
        if (c === 'R') programMode = false;
        else if (!/^[EF]\*$/.test(c)) throw new JobError(`IPL: unexpected program command ${c}`);
      }
      continue;
    }
    if (b === ESC) {
      const c = String.fromCharCode(job[at++]!);
      if (c === 'C') result.advancedMode = true;
      else if (c === 'P') programMode = true;
      else if (c === 'E') {
        if (ascii() !== '*') throw new JobError('IPL: format other than *');
      } else if (c === 'g') {
        if (job[at++] !== 0x30) throw new JobError('IPL: only <ESC>g0 (8 bits per byte) is read');
        at = directGraphics(job, at, memory());
      } else throw new JobError(`IPL: unexpected <ESC>${c}`);
    } else if (b === SI) {
      const c = String.fromCharCode(job[at++]!);
      const n = Number(ascii());
      if (c === 'W') result.labelWidth = n;
      else if (c === 'L') result.maxLabelLength = n;
      else throw new JobError(`IPL: unexpected <SI>${c}`);
    } else if (b === CAN) {
      // Clears host-entered data; the format has no fields.
    } else if (b === RS) quantity = Number(ascii());
    else if (b === ETB) {
      const printed = memory();
      for (let i = 0; i < quantity; i++) result.labels.push(printed.copy());
      image = undefined;
    } else throw new JobError(`IPL: unexpected byte ${b} at ${at - 1}`);
  }
  return result;
}

/** Runs Appendix E's commands into the image from byte `at`; returns where normal parsing resumes. */
function directGraphics(job: Uint8Array, at: number, image: DotGrid): number {
  let originY = 0;
  let x = 0,
    k = 0;
  let lastColumn: boolean[] | undefined;
  let column: boolean[] = [];
  const next = (): number => {
    // Immediate commands (0-31) are removed from the data.
    while (at < job.length && job[at]! < 0x20) at++;
    if (at >= job.length) throw new JobError('IPL: direct graphics without end of bitmap');
    return job[at++]!;
  };
  const peek = (): number => {
    while (at < job.length && job[at]! < 0x20) at++;
    return at < job.length ? job[at]! : -1;
  };
  /** A value if one follows: [high byte] low byte. */
  const value = (): number | undefined => {
    const b = peek();
    if (b >= 0x80) return next() & 0x7f;
    if (b >= 0x40 && b < 0x80) {
      const high = next() & 0x3f;
      const low = next();
      if (low < 0x80) throw new JobError('IPL: high-order byte not followed by a low-order byte');
      return (high << 7) | (low & 0x7f);
    }
    return undefined;
  };
  const draw = (black: boolean, n: number): void => {
    for (let i = 0; i < n; i++, k++) {
      image.set(x, originY - k, black);
      column[k] = black;
    }
  };
  const endColumn = (): void => {
    lastColumn = column;
    column = [];
    x++;
    k = 0;
  };
  for (;;) {
    const command = next();
    switch (command) {
      case 0x21: {
        x = value() ?? 0;
        originY = value() ?? 0;
        k = 0;
        column = [];
        break;
      }
      case 0x22:
        endColumn();
        break;
      case 0x24: {
        const n = value() ?? 0;
        if (!lastColumn) throw new JobError('IPL: repeat with no column before');
        for (let i = 0; i < n; i++) {
          for (const [dot, black] of lastColumn.entries()) image.set(x, originY - dot, black === true);
          x++;
        }
        break;
      }
      case 0x25:
      case 0x26: {
        let black = command === 0x25;
        for (let n = value(); n !== undefined; n = value()) {
          draw(black, n);
          black = !black;
        }
        break;
      }
      case 0x27:
        for (let b = value(); b !== undefined; b = value())
          for (let bit = 0; bit < 7; bit++) draw(((b >> bit) & 1) === 1, 1);
        break;
      case 0x28:
        return at;
      default:
        throw new JobError(`IPL: unexpected direct graphics byte ${command}`);
    }
  }
}
