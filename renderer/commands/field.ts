// Field assembly: ^FO ^FT ^FS ^FD ^FV ^FR ^FH ^FN ^SN ^SF ^FP ^FW ^BY.

import type { Orientation } from '../model.js';
import type { CommandContext, CommandTable } from './context.js';
import type { Token } from '../zpl/lexer.js';
import { float, int, oneOf, orientation, text, yesNo } from './define.js';

function place(ip: CommandContext, origin: 'FO' | 'FT', x: number | undefined, y: number | undefined, z: number | undefined, tok: Token): void {
  // A new origin before ^FS ends the previous field (a missing ^FS is common in the wild).
  if (ip.fieldHasContent()) {
    ip.warn(tok.start, tok.end - tok.start, '^' + origin, 0, 'Missing ^FS; field ended by the next field origin');
    ip.finishField();
  }
  const p = ip.printer;
  const f = ip.field;
  f.origin = origin;
  f.positioned = true;
  f.at = tok.start;
  // ^FT without coordinates continues where the previous field ended (the drawers follow `continues`).
  f.x = ip.dots(x ?? 0) + p.home.x - p.shiftLeft;
  f.y = ip.dots(y ?? 0) + p.home.y + p.shiftTop;
  f.justification = z ?? p.justification;
  f.continues = origin === 'FT' && x === undefined && y === undefined;
}

/** Field data bytes with ^FH escapes (`_41` -> `A`) decoded. */
export function decodeHexEscapes(raw: Uint8Array, indicator: number | undefined): Uint8Array {
  if (indicator === undefined) return raw.slice();
  const out = new Uint8Array(raw.length);
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
  ip.field.data = decodeHexEscapes(tok.raw, ip.field.hexIndicator);
  ip.field.dataAt = { offset: tok.paramStart, size: tok.end - tok.paramStart };
}

// Coordinates may carry fractions (^MU units, generated ZPL): they round to the nearest dot.
const coordinate = (name: string) => float(name, 0, 32000, 0);

export const fieldCommands: CommandTable = {
  '^FO': { params: [coordinate('x'), coordinate('y'), int('justification', 0, 2)], run: (ip, [x, y, z], tok) => place(ip, 'FO', x as number, y as number, z as number | undefined, tok) },
  '^FT': { params: [float('x', 0, 32000), float('y', 0, 32000), int('justification', 0, 2)], run: (ip, [x, y, z], tok) => place(ip, 'FT', x as number | undefined, y as number | undefined, z as number | undefined, tok) },
  '^FS': { run: (ip) => ip.finishField() },
  '^FD': { syntax: 'raw', run: (ip, _a, tok) => setData(ip, tok) },
  '^FV': { syntax: 'raw', run: (ip, _a, tok) => setData(ip, tok) },
  '^FR': { run: (ip) => { ip.field.reverse = true; } },
  '^FH': {
    syntax: 'raw',
    run: (ip, _a, tok) => { ip.field.hexIndicator = tok.raw.length ? tok.raw[0] : 0x5f; },
  },
  '^FN': { params: [int('number', 0, 9999, 0), text('prompt')], run: (ip, [n]) => { ip.field.fieldNumber = n as number; } },
  '^SN': {
    params: [text('start'), int('increment', -999999, 999999, 1), yesNo('leadingZeros', 'N')],
    run: (ip, [start, inc, z]) => {
      ip.field.data = new TextEncoder().encode((start as string | undefined) ?? '1');
      ip.field.serial = { increment: String(inc), leadingZeros: z === 'Y' };
    },
  },
  '^SF': {
    params: [text('mask'), text('increment')],
    run: (ip, [mask, inc]) => {
      ip.field.serial = { increment: (inc as string | undefined) ?? '1', leadingZeros: true, mask: mask as string | undefined, maskIncrement: inc as string | undefined };
    },
  },
  '^FP': {
    params: [oneOf('direction', 'HVR', 'H'), int('gap', 0, 9999, 0)],
    run: (ip, [d, g]) => { ip.field.direction = { mode: d as 'H' | 'V' | 'R', gap: g as number }; },
  },
  '^FW': {
    params: [orientation(), int('justification', 0, 2)],
    anywhere: true,
    run: (ip, [o, z]) => {
      if (o !== undefined) ip.printer.orientation = o as Orientation;
      // The legacy renderer also turns the field in progress (^A0N,20,20^FWB... prints rotated).
      if (o !== undefined && ip.field.font) ip.field.font.orientation = o as Orientation;
      if (z !== undefined) ip.printer.justification = z as number;
    },
  },
  '^BY': {
    params: [int('moduleWidth', 1, 10), float('ratio', 2, 3), int('height', 1, 32000)],
    run: (ip, [w, r, h]) => {
      const b = ip.printer.barcode;
      ip.printer.barcode = { moduleWidth: (w as number | undefined) ?? b.moduleWidth, ratio: (r as number | undefined) ?? b.ratio, height: (h as number | undefined) ?? b.height };
    },
  },
};
