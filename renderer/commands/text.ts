// Text selection and layout commands: ^A ^CF ^CW ^FB ^TB ^CI.

import type { Orientation } from '../model.js';
import type { CommandTable } from './context.js';
import { int, oneOf, orientation, text } from './define.js';

const fontName = (name: string) => text(name);

export const textCommands: CommandTable = {
  '^A': {
    syntax: 'font',
    // 0 for height or width means "derived from the other" (common in generated ZPL: ^A0B,18,0).
    params: [fontName('font'), orientation(), int('height', 0, 32000), int('width', 0, 32000), text('path')],
    run: (ip, [name, o, h, w, path]) => {
      const p = ip.printer;
      let font = (name as string | undefined) ?? p.defaultFont.name;
      const alias = p.fontAliases.get(font);
      if (alias) font = alias;
      ip.field.font = {
        name: font,
        orientation: (o as Orientation | undefined) ?? p.orientation,
        height: (h as number | undefined) ?? (font === p.defaultFont.name ? p.defaultFont.height : 0),
        width: (w as number | undefined) ?? 0,
        // Only ^A@ names a font file; extra parameters after other fonts are ignored.
        path: name === '@' ? (path as string | undefined) : undefined,
      };
    },
  },
  '^CF': {
    params: [fontName('font'), int('height', 0, 32000), int('width', 0, 32000)],
    anywhere: true,
    run: (ip, [name, h, w]) => {
      const d = ip.printer.defaultFont;
      // Only the first character names the font (`^CFB0,30` is font B); a lone `0` is font 0.
      const font = ((name as string | undefined) ?? d.name).toUpperCase().slice(0, 1);
      ip.printer.defaultFont = { name: font, height: (h as number | undefined) ?? d.height, width: (w as number | undefined) ?? (h !== undefined ? 0 : d.width) };
    },
  },
  '^CW': {
    params: [fontName('font'), text('path')],
    anywhere: true,
    run: (ip, [name, path]) => {
      if (name && path) ip.printer.fontAliases.set((name as string).toUpperCase(), (path as string).toUpperCase());
    },
  },
  '^FB': {
    params: [int('width', 0, 9999, 0), int('maxLines', 1, 9999, 1), int('lineSpacing', -9999, 9999, 0), oneOf('justify', 'LCRJ', 'L'), int('hangingIndent', 0, 9999, 0)],
    run: (ip, [w, l, s, j, hi]) => {
      ip.field.block = { width: w as number, maxLines: l as number, lineSpacing: s as number, justify: j as 'L' | 'C' | 'R' | 'J', hangingIndent: hi as number };
    },
  },
  '^TB': {
    params: [orientation(), int('width', 1, 32000), int('height', 1, 32000)],
    run: (ip, [o, w, h]) => {
      ip.field.textBlock = { orientation: (o as Orientation | undefined) ?? ip.printer.orientation, width: (w as number | undefined) ?? 0, height: (h as number | undefined) ?? 0 };
    },
  },
  '^CI': {
    params: [int('charset', 0, 36, 0)],
    anywhere: true,
    run: (ip, [c]) => { ip.printer.charset = c as number; },
  },
};
