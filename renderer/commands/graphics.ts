// Graphic field commands: ^GB ^GC ^GE ^GD ^GS ^GF. Each makes the current field a graphic field.

import { decodeGraphic } from '../graphics/grf.js';
import type { CommandDef, CommandTable } from './context.js';
import type { ParamSpec } from '../zpl/params.js';
import { fieldKind, float, int, oneOf, orientation, text } from './define.js';
import { payloadAfter, payloadCommand, payloadReporter } from './payload.js';

const color = () => oneOf('color', 'BW', 'B');
const byteCount = (name: string) => int(name, 0, 99999999);
/** A size in ^MU units (fractions allowed for inches and millimetres). */
const size = (name: string, min: number, max: number, def?: number) => float(name, min, max, def);

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

export const graphicCommands: CommandTable = {
  '^GB': shape('GB', [size('width', 0, 32000), size('height', 0, 32000), size('thickness', 0, 32000, 1), color(), int('rounding', 0, 8, 0)], [0, 1, 2]),
  '^GC': shape('GC', [size('diameter', 3, 4095, 3), size('thickness', 0, 4095, 1), color()], [0, 1]),
  '^GE': shape('GE', [size('width', 3, 4095), size('height', 3, 4095), size('thickness', 0, 4095, 1), color()], [0, 1, 2]),
  '^GD': shape('GD', [size('width', 3, 32000), size('height', 3, 32000), size('thickness', 0, 32000, 1), color(), oneOf('orientation', 'RL/\\', 'R')], [0, 1, 2]),
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
      const bmp = decodeGraphic(data.bytes, total ?? 0, rowBytes ?? 1, format === 'B' || format === 'C', payloadReporter(ip, data, '^GF', 5));
      f.graphic = bmp;
    },
  }),
};
