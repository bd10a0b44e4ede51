// Field assembly: ^FO ^FT ^FM ^FS ^FD ^FV ^FR ^FH ^FN ^SN ^SF ^FP ^FW ^BY (^FC is in clock.ts).

import type { CommandContext, CommandTable } from './context.js';
import type { Token } from '../zpl/lexer.js';
import { claimBytes, type DecodeMeter } from '../decode/meter.js';
import {
  asCount,
  asRatio,
  float,
  inDots,
  inModules,
  int,
  intOr,
  numberedPairs,
  oneOf,
  orientation,
  text,
  yesNo,
} from '../zpl/params.js';
import { command } from './define.js';
import { clockData } from './clock.js';

/** Whether a ^FO/^FT gave a usable coordinate (missing and non-numeric ones do not; `B50` is 50). */
function hasCoordinates(tok: Token): boolean {
  // A digit before the second delimiter, read from the bytes rather than splitting the parameters a second time.
  const raw = tok.raw;
  let delimiters = 0;
  for (let k = 0; k < raw.length; k++) {
    const c = raw[k];
    if (c === tok.delimiter) {
      if (++delimiters === 2) return false;
    } else if (c >= 0x30 && c <= 0x39) return true;
  }
  return false;
}

function place(
  ip: CommandContext,
  origin: 'FO' | 'FT',
  x: number | undefined,
  y: number | undefined,
  z: number | undefined,
  tok: Token,
): void {
  // Field data ends at a caret but the field stays open until ^FS: a ^FO or ^FT without usable coordinates
  // applies to the open field (the legacy service prints `^FO50,50^FDabc (^FO)^FS` at 0,0). One with
  // coordinates ends it: a missing ^FS is common in the wild.
  const bare = !hasCoordinates(tok);
  if (ip.fieldHasContent() && !bare) {
    ip.warn(tok.start, tok.end - tok.start, '^' + origin, 0, 'Missing ^FS; field ended by the next field origin');
    ip.finishField();
  }
  const p = ip.printer;
  const f = ip.field;
  f.origin = origin;
  f.positioned = true;
  if (!ip.fieldHasContent()) f.at = tok.start;
  // ^FT without coordinates continues where the previous field ended (the drawers follow `continues`);
  // ^FO without them is 0,0.
  f.x = ip.dots(x ?? 0) + p.home.x - p.shiftLeft;
  f.y = ip.dots(y ?? 0) + p.home.y + p.shiftTop;
  f.justification = z ?? p.justification;
  f.continues = origin === 'FT' && x === undefined && y === undefined;
}

/** Field data bytes with ^FH escapes (`_41` -> `A`) decoded, into bytes claimed on `meter` (held with the plan). */
export function decodeHexEscapes(raw: Uint8Array, indicator: number | undefined, meter: DecodeMeter): Uint8Array {
  if (indicator === undefined) return raw.slice();
  const out = claimBytes(meter, raw.length, '^FH field data');
  let k = 0;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b === indicator && i + 2 < raw.length && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
      out[k++] = Number.parseInt(String.fromCharCode(raw[i + 1], raw[i + 2]), 16);
      i += 2;
    } else out[k++] = b;
  }
  return out.subarray(0, k);
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/** ^FD/^FV: the field's data, ^FH escapes decoded, with its place in the document. */
function setData(ip: CommandContext, tok: Token): void {
  ip.field.data = clockData(ip, decodeHexEscapes(tok.raw, ip.field.hexIndicator, ip.meter));
  ip.field.dataAt = { offset: tok.paramStart, size: tok.end - tok.paramStart };
}

/** ^FM takes up to 60 origins; `e` for either coordinate excludes that symbol. */
const FM_ORIGINS = 60;
const EXCLUDE = 'E';

/**
 * ^FM: the origins of a PDF417 / MicroPDF417 series (structured append), label home and shifts applied as ^FO
 * applies them. Other fields ignore them (the guide), so the field's own origin is left as it is.
 */
function multipleOrigins(
  ip: CommandContext,
  args: Readonly<Record<string, number | string | undefined>>,
  tok: Token,
): void {
  if (ip.fieldHasContent()) {
    ip.warn(tok.start, tok.end - tok.start, '^FM', 0, 'Missing ^FS; field ended by the next field origin');
    ip.finishField();
  }
  const p = ip.printer;
  const origins: Array<{ x: number; y: number } | null> = [];
  for (let n = 1; n <= FM_ORIGINS; n++) {
    const x = args[`x${n}`],
      y = args[`y${n}`];
    if (x === undefined && y === undefined) break;
    if (typeof x === 'string' || typeof y === 'string') {
      origins.push(null);
      continue;
    } // `e`: excluded
    origins.push({ x: ip.dots(x ?? 0) + p.home.x - p.shiftLeft, y: ip.dots(y ?? 0) + p.home.y + p.shiftTop });
  }
  if (!ip.fieldHasContent()) ip.field.at = tok.start;
  ip.field.origins = origins;
}

// Coordinates may carry fractions (^MU units, generated ZPL): they round to the nearest dot.
const coordinate = (name: string) => inDots(float(name, 0, 32000, 0));

export const fieldCommands: CommandTable = {
  '^FO': command({
    field: 'opens',
    params: [coordinate('x'), coordinate('y'), asCount(int('justification', 0, 2))],
    run: (ip, { x, y, justification }, tok) => place(ip, 'FO', x, y, justification, tok),
  }),
  '^FT': command({
    field: 'opens',
    params: [inDots(float('x', 0, 32000)), inDots(float('y', 0, 32000)), asCount(int('justification', 0, 2))],
    run: (ip, { x, y, justification }, tok) => place(ip, 'FT', x, y, justification, tok),
  }),
  '^FM': command({
    field: 'inside',
    params: numberedPairs(
      FM_ORIGINS,
      (n) => [inDots(intOr(`x${n}`, 0, 32000, [EXCLUDE])), inDots(intOr(`y${n}`, 0, 32000, [EXCLUDE]))] as const,
    ),
    run: (ip, args, tok) => multipleOrigins(ip, args, tok),
  }),
  '^FS': { field: 'inside', run: (ip) => ip.finishField() },
  '^FD': {
    field: 'opens',
    syntax: 'raw',
    run: (ip, _a, tok) => {
      setData(ip, tok);
      delete ip.field.variable;
    },
  },
  '^FV': {
    field: 'opens',
    syntax: 'raw',
    run: (ip, _a, tok) => {
      setData(ip, tok);
      ip.field.variable = true;
    },
  },
  '^FR': {
    field: 'opens',
    run: (ip) => {
      ip.field.reverse = true;
    },
  },
  '^FH': {
    field: 'opens',
    syntax: 'raw',
    run: (ip, _a, tok) => {
      ip.field.hexIndicator = tok.raw.length ? tok.raw[0] : 0x5f;
    },
  },
  '^FN': command({
    field: 'opens',
    params: [asCount(int('number', 0, 9999, 0)), text('prompt')],
    run: (ip, { number }) => {
      ip.field.fieldNumber = number;
    },
  }),
  '^SN': command({
    field: 'opens',
    params: [text('start'), asCount(int('increment', -999999999999, 999999999999, 1)), yesNo('leadingZeros', 'N')],
    run: (ip, { start, increment, leadingZeros }) => {
      ip.field.data = new TextEncoder().encode(start ?? '1');
      ip.field.serial = { increment: String(increment), leadingZeros };
    },
  }),
  '^SF': command({
    field: 'opens',
    params: [text('mask'), text('increment')],
    run: (ip, { mask, increment }) => {
      ip.field.serial = { increment: increment ?? '1', leadingZeros: true, mask, maskIncrement: increment };
    },
  }),
  '^FP': command({
    field: 'opens',
    params: [oneOf('direction', 'HVR', 'H'), inDots(int('gap', 0, 9999, 0))],
    run: (ip, { direction, gap }) => {
      ip.field.direction = { mode: direction, gap };
    },
  }),
  '^FW': command({
    params: [orientation(), asCount(int('justification', 0, 2))],
    anywhere: true,
    run: (ip, { orientation: o, justification }) => {
      if (o !== undefined) ip.printer.orientation = o;
      // The legacy renderer also turns the field in progress (^A0N,20,20^FWB... prints rotated).
      if (o !== undefined && ip.field.font) ip.field.font.orientation = o;
      if (justification !== undefined) ip.printer.justification = justification;
    },
  }),
  '^BY': command({
    params: [inModules(int('moduleWidth', 1, 10)), asRatio(float('ratio', 2, 3)), inDots(int('height', 1, 32000))],
    run: (ip, { moduleWidth, ratio, height }) => {
      const b = ip.printer.barcode;
      ip.printer.barcode = {
        moduleWidth: moduleWidth ?? b.moduleWidth,
        ratio: ratio ?? b.ratio,
        height: height ?? b.height,
      };
    },
  }),
};
