// Text selection and layout commands: ^A ^CF ^CW ^FB ^TB ^CI.

import type { CommandTable } from './context.js';
import { asCount, inDots, int, numberedPairs, oneOf, orientation, splitParams, text } from '../zpl/params.js';
import { command } from './define.js';
import { hasObjectNamed } from '../graphics/objects.js';

const fontName = <N extends string>(name: N) => text(name);

/** The printers keep their resident fonts on Z: as Z:A.FNT ... Z:H.FNT, Z:GS.FNT, Z:0.FNT (P-V: font 0 at fixed sizes). */
const RESIDENT_FONT_FILE = /^(?:Z:)?([A-H0P-V]|GS)\.(?:FNT|TTF)$/;

/** The resident font a font file name names (`Z:D.FNT` is font D), or undefined. */
function residentFont(file: string): string | undefined {
  return RESIDENT_FONT_FILE.exec(file.trim().toUpperCase())?.[1];
}

/** Source and destination pairs one ^CI may give (ZPL II guide: up to 256). */
const REMAP_PAIRS = 256;
/** The guide remaps characters of the single-byte sets 0-13 only; the space is never remapped. */
const REMAPPED_CHARSETS = 13;
const SPACE = 0x20;

/** The byte table of a ^CI's remapping pairs (undefined: none apply); a later pair for the same byte wins. */
function remapTable(charset: number, args: Readonly<Record<string, number | undefined>>): Uint8Array | undefined {
  if (charset > REMAPPED_CHARSETS) return undefined;
  let table: Uint8Array | undefined;
  for (let n = 1; n <= REMAP_PAIRS; n++) {
    const source = args[`source${n}`],
      destination = args[`destination${n}`];
    if (source === undefined && destination === undefined) break;
    if (source === undefined || destination === undefined || source === SPACE || destination === SPACE) continue;
    table ??= Uint8Array.from({ length: 256 }, (_, b) => b);
    table[destination] = source;
  }
  return table;
}

export const textCommands: CommandTable = {
  '^A': command({
    field: 'opens',
    syntax: 'font',
    // 0 for height or width means "derived from the other" (common in generated ZPL: ^A0B,18,0).
    params: [
      fontName('font'),
      orientation(),
      inDots(int('height', 0, 32000)),
      inDots(int('width', 0, 32000)),
      text('path'),
    ],
    run: (ip, { font: name, orientation: o, height: h, width: w, path }, tok) => {
      const p = ip.printer;
      let font = name ?? p.defaultFont.name;
      const alias = p.fontAliases.get(font);
      if (alias) font = alias;
      // Only ^A@ names a font file; extra parameters after other fonts are ignored.
      let file = name === '@' ? path : undefined;
      if (name === '@' && !file) font = p.defaultFont.name;
      else if (file !== undefined && !hasObjectNamed(p.objects, file)) {
        const resident = residentFont(file);
        // The guide: a name the printer does not have prints in the ^CF font (font A unless ^CF changed it).
        const at = splitParams(tok, 1)[3] ?? { offset: tok.start, size: tok.end - tok.start };
        if (!resident) ip.warn(at.offset, at.size, '^A', 5, `Font ${file} not found; used font ${p.defaultFont.name}`);
        font = resident ?? p.defaultFont.name;
        file = undefined;
      }
      ip.field.font = {
        name: font,
        orientation: o ?? p.orientation,
        height: h ?? (font === p.defaultFont.name ? p.defaultFont.height : 0),
        width: w ?? 0,
        path: file,
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
    field: 'opens',
    params: [
      inDots(int('width', 0, 9999, 0)),
      asCount(int('maxLines', 1, 9999, 1)),
      inDots(int('lineSpacing', -9999, 9999, 0)),
      oneOf('justify', 'LCRJ', 'L'),
      inDots(int('hangingIndent', 0, 9999, 0)),
    ],
    run: (ip, block) => {
      ip.field.block = block;
    },
  }),
  '^TB': command({
    field: 'opens',
    params: [orientation(), inDots(int('width', 1, 32000)), inDots(int('height', 1, 32000))],
    run: (ip, { orientation: o, width, height }) => {
      ip.field.textBlock = { orientation: o ?? ip.printer.orientation, width: width ?? 0, height: height ?? 0 };
    },
  }),
  // ^CIa,s1,d1,s2,d2...: character s prints when byte d is sent (the guide's ^CI0,21,36 prints the Euro for a dollar).
  '^CI': command({
    // The pairs are byte codes: the same at every density.
    params: [
      asCount(int('charset', 0, 36, 0)),
      ...numberedPairs(
        REMAP_PAIRS,
        (n) => [asCount(int(`source${n}`, 0, 255)), asCount(int(`destination${n}`, 0, 255))] as const,
      ),
    ],
    anywhere: true,
    run: (ip, args) => {
      ip.printer.charset = args.charset;
      ip.printer.remap = remapTable(args.charset, args);
    },
  }),
};
