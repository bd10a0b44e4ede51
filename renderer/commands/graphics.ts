// Graphic field commands: ^GB ^GC ^GE ^GD ^GS ^GF. Each makes the current field a graphic field.

import { bitmapBytes, decodeGraphic } from '../decode/grf.js';
import type { CommandDef, CommandTable } from './context.js';
import { latin1, type ParamSpec } from '../zpl/params.js';
import { fieldKind, int, length, oneOf, orientation, text } from './define.js';
import { checkDeclaredSize, payloadAfter, payloadCommand, payloadReporter } from './payload.js';

const color = () => oneOf('color', 'BW', 'B');
const byteCount = (name: string) => int(name, 0, 99999999);
/** A box side: at least the border thickness, which is also its value when absent (ZPL II guide, ^GB). */
const side = (name: string): ParamSpec => ({ name, kind: 'float', max: 32000, atLeast: 'thickness', length: true });

/** A shape field whose parameters at `sizes` are lengths in ^MU units. */
function shape(kind: string, params: ParamSpec[], sizes: readonly number[]): CommandDef {
  const base = fieldKind(kind, params);
  return {
    params,
    run(ip, args, tok) {
      base.run?.(ip, args.map((v, i) => (sizes.includes(i) && typeof v === 'number' ? ip.dots(v) : v)), tok);
    },
  };
}

const SWALLOWED_FS = /\^FS/i;

export const graphicCommands: CommandTable = {
  // Thickness is read first: the legacy linter warns about it before width and height.
  '^GB': shape('GB', [side('width'), side('height'), length('thickness', 1, 32000, 1), color(), int('rounding', 0, 8, 0)], [0, 1, 2]),
  // The guide gives ^GC/^GE thickness 2..4095 with a default of 1; 1 stays valid (the printer draws 1-dot outlines).
  '^GC': shape('GC', [length('diameter', 3, 4095, 3), length('thickness', 1, 4095, 1), color()], [0, 1]),
  '^GE': shape('GE', [length('width', 3, 4095), length('height', 3, 4095), length('thickness', 1, 4095, 1), color()], [0, 1, 2]),
  '^GD': shape('GD', [length('width', 3, 32000), length('height', 3, 32000), length('thickness', 1, 32000, 1), color(), oneOf('orientation', 'RL/\\', 'R')], [0, 1, 2]),
  '^GS': fieldKind('GS', [orientation(), int('height', 1, 32000), int('width', 1, 32000)]),
  '^GF': payloadCommand({
    params: [oneOf('format', 'ABC', 'A'), byteCount('binaryCount'), byteCount('graphicCount'), int('rowBytes', 1, 99999), text('data')],
    run(ip, args, tok) {
      const [format, binaryCount, graphicCount, rowBytes] = args as [string, number | undefined, number | undefined, number | undefined];
      const data = payloadAfter(tok, 4);
      const f = ip.field;
      f.kind = 'GF';
      f.params = args.slice(0, 4);
      f.args = { format, binaryCount, graphicCount, rowBytes };
      f.payload = data.bytes;
      if (!f.positioned) f.at = tok.start;
      const total = graphicCount ?? binaryCount;
      if (total === undefined || rowBytes === undefined) {
        ip.warn(tok.start, tok.end - tok.start, '^GF', total === undefined ? 3 : 4, 'Graphic field without a byte count or row width; nothing drawn');
      }
      checkDeclaredSize(tok, graphicCount !== undefined ? 2 : 1, 'Graphic');
      ip.memory.claim(bitmapBytes(total ?? 0, rowBytes ?? 1), 'Graphic');
      // A ^GF whose data stops short of its byte count draws nothing (the legacy service's rule).
      const bmp = decodeGraphic(data.bytes, total ?? 0, rowBytes ?? 1, format === 'B' || format === 'C', payloadReporter(ip, data, '^GF', 5), 'draw-nothing');
      f.graphic = bmp;
      // A ^GF ends its field (legacy rule, one observation): when its byte count swallowed the ^FS, what follows
      // starts a new field at the label home instead of giving its data to the graphic.
      if (SWALLOWED_FS.test(latin1(data.bytes))) {
        ip.finishField();
        ip.field.x = ip.printer.home.x;
        ip.field.y = ip.printer.home.y;
      }
    },
  }),
};
