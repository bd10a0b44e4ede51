// Text selection and layout commands: ^A ^CF ^CW ^FB ^TB ^CI.

import type { CommandTable } from './context.js';
import { asCount, inDots, int, oneOf, orientation, text } from '../zpl/params.js';
import { command } from './define.js';

const fontName = <N extends string>(name: N) => text(name);

export const textCommands: CommandTable = {
  '^A': command({
    syntax: 'font',
    // 0 for height or width means "derived from the other" (common in generated ZPL: ^A0B,18,0).
    params: [fontName('font'), orientation(), inDots(int('height', 0, 32000)), inDots(int('width', 0, 32000)), text('path')],
    run: (ip, { font: name, orientation: o, height: h, width: w, path }) => {
      const p = ip.printer;
      let font = name ?? p.defaultFont.name;
      const alias = p.fontAliases.get(font);
      if (alias) font = alias;
      ip.field.font = {
        name: font,
        orientation: o ?? p.orientation,
        height: h ?? (font === p.defaultFont.name ? p.defaultFont.height : 0),
        width: w ?? 0,
        // Only ^A@ names a font file; extra parameters after other fonts are ignored.
        path: name === '@' ? path : undefined,
      };
    },
  }),
  '^CF': command({
    params: [fontName('font'), inDots(int('height', 0, 32000)), inDots(int('width', 0, 32000))],
    anywhere: true,
    run: (ip, { font: name, height: h, width: w }) => {
      const d = ip.printer.defaultFont;
      // Only the first character names the font (`^CFB0,30` is font B); a lone `0` is font 0.
      const font = (name ?? d.name).toUpperCase().slice(0, 1);
      ip.printer.defaultFont = { name: font, height: h ?? d.height, width: w ?? (h !== undefined ? 0 : d.width) };
    },
  }),
  '^CW': command({
    params: [fontName('font'), text('path')],
    anywhere: true,
    run: (ip, { font, path }) => {
      if (font && path) ip.printer.fontAliases.set(font.toUpperCase(), path.toUpperCase());
    },
  }),
  '^FB': command({
    params: [inDots(int('width', 0, 9999, 0)), asCount(int('maxLines', 1, 9999, 1)), inDots(int('lineSpacing', -9999, 9999, 0)), oneOf('justify', 'LCRJ', 'L'),
      inDots(int('hangingIndent', 0, 9999, 0))],
    run: (ip, block) => { ip.field.block = block; },
  }),
  '^TB': command({
    params: [orientation(), inDots(int('width', 1, 32000)), inDots(int('height', 1, 32000))],
    run: (ip, { orientation: o, width, height }) => {
      ip.field.textBlock = { orientation: o ?? ip.printer.orientation, width: width ?? 0, height: height ?? 0 };
    },
  }),
  '^CI': command({
    params: [asCount(int('charset', 0, 36, 0))],
    anywhere: true,
    run: (ip, { charset }) => { ip.printer.charset = charset; },
  }),
};
