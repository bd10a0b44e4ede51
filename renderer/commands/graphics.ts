// Graphic field commands: ^GB ^GC ^GE ^GD ^GS ^GF. Each makes the current field a graphic field.

import type { CommandTable } from '../zpl/command.js';
import { fieldKind, int, oneOf } from './define.js';

const color = () => oneOf('color', 'BW', 'B');

export const graphicCommands: CommandTable = {
  '^GB': fieldKind('GB', [int('width', 0, 32000), int('height', 0, 32000), int('thickness', 1, 32000, 1), color(), int('rounding', 0, 8, 0)]),
  '^GC': fieldKind('GC', [int('diameter', 3, 4095, 3), int('thickness', 1, 4095, 1), color()]),
  '^GE': fieldKind('GE', [int('width', 3, 4095), int('height', 3, 4095), int('thickness', 1, 4095, 1), color()]),
  '^GD': fieldKind('GD', [int('width', 3, 32000), int('height', 3, 32000), int('thickness', 1, 32000, 1), color(), oneOf('orientation', 'RL/\\', 'R')]),
};
