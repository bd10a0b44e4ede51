// Graphic field commands: ^GB (more shapes, ^GF and stored graphics land with the graphics work).

import type { CommandTable } from '../zpl/command.js';
import { fieldKind, int, oneOf } from './define.js';

export const graphicCommands: CommandTable = {
  '^GB': fieldKind('GB', [int('width', 0, 32000), int('height', 0, 32000), int('thickness', 1, 32000, 1), oneOf('color', 'BW', 'B'), int('rounding', 0, 8, 0)]),
};
