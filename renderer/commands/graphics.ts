// Graphic field commands: ^GB ^GC ^GE ^GD ^GS ^GF. Each makes the current field a graphic field.

import { decodeGraphic } from '../decode/grf.js';
import type { CommandTable } from './context.js';
import { latin1 } from '../zpl/params.js';
import { fieldKind } from './define.js';
import { FIELD_KINDS, fieldCommand } from './field-kinds.js';
import { checkDeclaredSize, payloadAfter, payloadCommand, payloadReporter } from './payload.js';

const SWALLOWED_FS = /\^FS/i;

// ^GB/^GC/^GE/^GD sizes are lengths (in ^MU units): their arguments arrive in dots.
export const graphicCommands: CommandTable = {
  '^GB': fieldKind('GB'),
  '^GC': fieldKind('GC'),
  '^GE': fieldKind('GE'),
  '^GD': fieldKind('GD'),
  '^GS': fieldKind('GS'),
  '^GF': payloadCommand({
    makes: 'GF',
    params: FIELD_KINDS.GF.params,
    run(ip, args, tok) {
      const { format, binaryCount, graphicCount, rowBytes } = args;
      const data = payloadAfter(tok, 4);
      const f = ip.field;
      f.command = fieldCommand('GF', { ...args, data: undefined }); // the data is the decoded graphic
      f.payload = data.bytes;
      if (!f.positioned) f.at = tok.start;
      const total = graphicCount ?? binaryCount;
      if (total === undefined || rowBytes === undefined) {
        ip.warn(
          tok.start,
          tok.end - tok.start,
          '^GF',
          total === undefined ? 3 : 4,
          'Graphic field without a byte count or row width; nothing drawn',
        );
      }
      checkDeclaredSize(tok, graphicCount !== undefined ? 2 : 1, 'Graphic');
      // A ^GF whose data stops short of its byte count draws nothing (the legacy service's rule).
      const bmp = decodeGraphic(
        data.bytes,
        {
          totalBytes: total ?? 0,
          rowBytes: rowBytes ?? 1,
          binary: format === 'B' || format === 'C',
          short: 'draw-nothing',
          what: 'Graphic',
        },
        ip.meter,
        payloadReporter(ip, data, '^GF', 5),
      );
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
