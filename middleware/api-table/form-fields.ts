// The fields of POST /fonts' multipart form, as the legacy service documents them: the font's validation and the
// OpenAPI document both read this table.

import type { Described } from './table-entry.js';

export interface FormFieldSpec extends Described {
  name: string;
  /** What a valid value looks like (any case); a value that does not match is a 400. */
  pattern?: string;
  /** The 400 answered for a value outside `pattern`. */
  refusal?: (value: string) => string;
  required?: boolean;
  /** A file part (bytes) rather than text. */
  file?: boolean;
  example?: string;
}

const HEX = '[0-9A-F]{1,6}';
/** The one-letter font names `^CW` may assign (the `name` field; the preview page offers them). */
export const FONT_NAME_LETTERS = 'IKMOWXYZ';
const RANGE = `${HEX}(?:-${HEX})?`;

export const FONT_FORM_FIELDS = {
  file: {
    name: 'file',
    required: true,
    file: true,
    description: 'The TrueType font (`.ttf`): an OpenType font with CFF outlines, WOFF or a collection is a 400.',
  },
  path: {
    name: 'path',
    pattern: '^[REBA]:[A-Z0-9]{1,16}\\.TTF$',
    refusal: (v) =>
      `Invalid path ${v}; expected a printer path like R:NAME.TTF (drive R, E, B or A; 1 to 16 letters or digits; .TTF)`,
    example: 'R:MYFONT.TTF',
    description:
      'Where the printer stores the font (`~DU`), written in capitals. Without it the path is `R:` and the ' +
      "font's PostScript name in letters and digits (at most 16), or `R:FONT.TTF` when it has none.",
  },
  name: {
    name: 'name',
    pattern: `^[${FONT_NAME_LETTERS}]$`,
    refusal: (v) => `Invalid name ${v}; expected one letter of ${[...FONT_NAME_LETTERS].join(', ')}`,
    example: 'Z',
    description:
      'A one-letter font name: the ZPL also assigns it to the font with `^CW`, so `^A<name>` draws with it. ' +
      'Without it no name is assigned (`^A@` with the path draws with the font).',
  },
  chars: {
    name: 'chars',
    example: '0123456789',
    description:
      'Cut the font down to these characters (UTF-8; glyph 0 and the glyphs they are made of are kept). ' +
      'A font whose fsType forbids subsetting is a 400; one that has none of them is a 400.',
  },
  unicodes: {
    name: 'unicodes',
    pattern: `^${RANGE}(?:,${RANGE})*$`,
    refusal: (v) =>
      `Invalid unicodes ${v}; expected hexadecimal code points and ranges up to 10FFFF, like 0030-0039,0041-005A`,
    example: '0030-0039,0041-005A',
    description:
      'Cut the font down to the characters in these ranges (hexadecimal code points, first not above last, up to ' +
      '10FFFF); with `chars`, the font keeps the characters of both.',
  },
} as const satisfies Record<string, FormFieldSpec>;
