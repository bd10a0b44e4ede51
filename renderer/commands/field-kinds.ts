// Every kind of field, with the parameter table of the command that makes it and its traits: the hand-off from the
// interpreter to the drawers, and the one list of kinds. A field of kind K carries `ArgsOf` its table, so each drawer
// reads its parameters typed, by name; the drawer tables, the barcode commands, the kind unions and the density
// converter's rules all derive from the entries, so a kind missing from any of them does not compile.
// Orientations and heights left undefined default to ^FW and ^BY when drawn; ^GB/^GC/^GE/^GD lengths arrive in dots.

import {
  asCount,
  asRatio,
  float,
  inDots,
  inModules,
  int,
  length,
  oneOf,
  orientation,
  text,
  yesNo,
  type ArgsOf,
  type ParamSpec,
} from '../zpl/params.js';

// Heights are read as decimals: the legacy renderer rounds `186.966` to 187 dots.
const height = () => inDots(float('height', 1, 32000));
const line = (def: 'Y' | 'N' = 'Y') => yesNo('line', def);
const above = (def: 'Y' | 'N' = 'N') => yesNo('lineAbove', def);
const color = () => oneOf('color', 'BW', 'B');
const byteCount = <N extends string>(name: N) => asCount(int(name, 0, 99999999));
/** A box side: at least the border thickness, which is also its value when absent (ZPL II guide, ^GB). */
const side = <N extends string>(name: N): ParamSpec<N, number | undefined> => ({
  name,
  kind: 'float',
  max: 32000,
  atLeast: 'thickness',
  length: true,
  measure: 'dots',
});
const objectPath = () => text('name');

// The guide says 1 to 10, but the legacy service draws ^BQN,2,12 with 12-dot modules: larger values are honoured
// (the drawer bounds them by the label).
const QR_MAX_MAGNIFICATION = 100;

const aztec = [
  orientation(),
  inModules(int('magnification', 1, 10)),
  yesNo('extendedChannel', 'N'),
  asCount(int('errorControl', 0, 300, 0)),
  yesNo('menuSymbol', 'N'),
  asCount(int('symbolCount', 1, 26, 1)),
  text('structuredAppendId'),
];

/** What draws a kind: text, a graphic, or a barcode (its drawer is in renderer/barcodes/ + family). */
export type FieldFamily = 'text' | 'graphic' | BarcodeFamily;

/** `linear`: 1D and postal symbols (renderer/barcodes/linear); `matrix`: 2D and stacked ones (barcodes/matrix). */
export type BarcodeFamily = 'linear' | 'matrix';

interface EntryBase {
  /** The parameter table of the command that makes the field (the interpreter, the linter and the drawer read it). */
  params: readonly ParamSpec[];
  /** The interpreter makes such fields but nothing draws them yet: reported as not drawn (a known gap). */
  undrawn?: true;
}

export interface BarcodeEntry extends EntryBase {
  family: BarcodeFamily;
  /**
   * Where its module width comes from: ^BY's (a density conversion marks the field lossy when ^BY's is not whole), or
   * a parameter of its own (a magnification or module size in `params`).
   */
  module: 'BY' | 'own';
  /**
   * Its reader samples a fixed grid from the symbol's edges: never drawn as a bitmap (X-Lossy-Fields), where modules
   * come out 4 and 5 dots wide in turn (a Data Matrix scaled to 6 dpmm so stopped reading; QR codes, located by their
   * finder and alignment patterns, read).
   */
  grid: boolean;
  /** Other commands that make the same kind (^B0 for ^BO); the kind's own name is its command. */
  aliases?: readonly string[];
}

export type FieldKindEntry = (EntryBase & { family: 'text' | 'graphic' }) | BarcodeEntry;

export const FIELD_KINDS = {
  /** ^FD text in the field's font: no parameters of its own. */
  text: { family: 'text', params: [] },

  // Linear barcodes (renderer/barcodes/linear).
  BC: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), height(), line(), above(), yesNo('checkDigit', 'N'), oneOf('mode', 'NUAD', 'N')],
  },
  B3: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), yesNo('mod43', 'N'), height(), line(), above()],
  },
  BL: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), above()] },
  BA: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), height(), line(), above(), yesNo('checkDigit', 'N')],
  },
  B2: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), height(), line(), above(), yesNo('mod10', 'N')],
  },
  BI: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), line(), above()] },
  BJ: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), line(), above()] },
  BK: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [
      orientation(),
      yesNo('checkDigit', 'N'),
      height(),
      line(),
      above(),
      oneOf('start', 'ABCD', 'A'),
      oneOf('stop', 'ABCD', 'A'),
    ],
  },
  B1: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), yesNo('oneCheckDigit', 'N'), height(), line(), above()],
  },
  BM: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), oneOf('checkDigits', 'ABCD', 'B'), height(), line(), above(), yesNo('lineCheckDigit', 'N')],
  },
  BP: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), yesNo('lineCheckDigit', 'N'), height(), line(), above()],
  },
  BE: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), line(), above()] },
  B8: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), line(), above()] },
  BU: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), height(), line(), above(), yesNo('lineCheckDigit', 'Y')],
  },
  B9: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), height(), line(), above(), yesNo('lineCheckDigit', 'Y')],
  },
  BS: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), line(), above('Y')] },
  BZ: {
    family: 'linear',
    module: 'BY',
    grid: false,
    params: [orientation(), height(), line('N'), above(), asCount(int('type', 0, 3, 0))],
  },
  B5: { family: 'linear', module: 'BY', grid: false, params: [orientation(), height(), line('N'), above()] },
  BR: {
    family: 'linear',
    module: 'own',
    grid: false,
    params: [
      orientation(),
      asCount(int('type', 1, 12, 1)),
      inModules(int('magnification', 1, 10)),
      inModules(int('separatorHeight', 1, 2, 1)),
      inDots(int('height', 1, 32000, 25)),
      asCount(int('segmentWidth', 2, 22, 22)),
    ],
  },

  // Two-dimensional and stacked barcodes (renderer/barcodes/matrix).
  // ^BQ a,b,c,d,e: orientation (N only), model, magnification, error correction, mask
  BQ: {
    family: 'matrix',
    module: 'own',
    grid: false,
    params: [
      oneOf('orientation', 'N', 'N'),
      asCount(int('model', 1, 2, 2)),
      inModules(int('magnification', 1, QR_MAX_MAGNIFICATION)),
      oneOf('errorCorrection', 'HQML', 'Q'),
      asCount(int('mask', 0, 7, 7)),
    ],
  },
  // ^BX o,h,s,c,r,f,g,a: orientation, module size, quality, columns, rows, format id, escape character, aspect ratio
  BX: {
    family: 'matrix',
    module: 'own',
    grid: true,
    params: [
      orientation(),
      inModules(int('moduleSize', 1, 9999)),
      asCount(int('quality', 0, 200, 0)),
      asCount(int('columns', 0, 144, 0)),
      asCount(int('rows', 0, 144, 0)),
      asCount(int('format', 0, 6, 6)),
      text('escape', '_'),
      asCount(int('aspect', 1, 2, 1)),
    ],
  },
  // ^B7 o,h,s,c,r,t: orientation, row height, security level, columns, rows, truncate
  B7: {
    family: 'matrix',
    module: 'BY',
    grid: false,
    params: [
      orientation(),
      inDots(int('rowHeight', 1, 32000)),
      asCount(int('security', 0, 8, 0)),
      asCount(int('columns', 0, 30, 0)),
      asCount(int('rows', 0, 90, 0)),
      yesNo('truncate', 'N'),
    ],
  },
  // ^BF o,h,m: orientation, row height, mode (size variant)
  BF: {
    family: 'matrix',
    module: 'BY',
    grid: false,
    params: [orientation(), inDots(int('rowHeight', 1, 9999)), asCount(int('mode', 0, 33, 0))],
  },
  // ^BO / ^B0 a,b,c,d,e,f,g: orientation, magnification, ECI, error control and size, menu, structured append count and id
  BO: { family: 'matrix', module: 'own', grid: true, aliases: ['B0'], params: aztec },
  // ^BD m,n,t: mode, symbol number, total symbols
  BD: {
    family: 'matrix',
    module: 'own',
    grid: true,
    params: [
      asCount(int('mode', 2, 6, 2)),
      asCount(int('symbolNumber', 1, 8, 1)),
      asCount(int('symbolCount', 1, 8, 1)),
    ],
  },
  // ^BB o,h,s,c,r,m: orientation, row height, security, characters per row, rows, mode
  BB: {
    family: 'matrix',
    module: 'BY',
    grid: false,
    params: [
      orientation(),
      inDots(int('rowHeight', 2, 32000, 8)),
      yesNo('security', 'Y'),
      asCount(int('columns', 2, 62)),
      asCount(int('rows', 1, 22)),
      oneOf('mode', 'AEF', 'F'),
    ],
  },
  // ^B4 o,h,f,m: orientation, row height multiplier, interpretation line, starting mode
  B4: {
    family: 'matrix',
    module: 'BY',
    grid: false,
    params: [
      orientation(),
      asRatio(int('rowHeight', 1, 32000)),
      oneOf('line', 'NAB', 'N'),
      oneOf('startMode', '012345A', 'A'),
    ],
  },
  // ^BT o,w1,r1,h1,w2,h2: orientation, Code 39 module width, ratio, height, MicroPDF417 module width, row height
  BT: {
    family: 'matrix',
    module: 'own',
    grid: false,
    params: [
      orientation(),
      inModules(int('code39Width', 1, 10)),
      asRatio(float('code39Ratio', 2, 3, 2)),
      inDots(int('code39Height', 1, 9999)),
      inModules(int('pdfWidth', 1, 10)),
      inDots(int('pdfRowHeight', 1, 255)),
    ],
  },

  // Graphics (renderer/graphics).
  // Thickness is read first: the legacy linter warns about it before width and height.
  GB: {
    family: 'graphic',
    params: [
      side('width'),
      side('height'),
      length('thickness', 1, 32000, 1),
      color(),
      asCount(int('rounding', 0, 8, 0)),
    ],
  },
  // The guide gives ^GC/^GE thickness 2..4095 with a default of 1; 1 stays valid (the printer draws 1-dot outlines).
  GC: { family: 'graphic', params: [length('diameter', 3, 4095, 3), length('thickness', 1, 4095, 1), color()] },
  GE: {
    family: 'graphic',
    params: [length('width', 3, 4095), length('height', 3, 4095), length('thickness', 1, 4095, 1), color()],
  },
  GD: {
    family: 'graphic',
    params: [
      length('width', 3, 32000),
      length('height', 3, 32000),
      length('thickness', 1, 32000, 1),
      color(),
      oneOf('orientation', 'RL/\\', 'R'),
    ],
  },
  GS: { family: 'graphic', params: [orientation(), inDots(int('height', 1, 32000)), inDots(int('width', 1, 32000))] },
  GF: {
    family: 'graphic',
    params: [
      oneOf('format', 'ABC', 'A'),
      byteCount('binaryCount'),
      byteCount('graphicCount'),
      asCount(int('rowBytes', 1, 99999)),
      text('data'),
    ],
  },
  XG: {
    family: 'graphic',
    params: [objectPath(), asCount(int('magnificationX', 1, 10, 1)), asCount(int('magnificationY', 1, 10, 1))],
  },
  IM: { family: 'graphic', params: [objectPath()] },
} as const satisfies Record<string, FieldKindEntry>;

export type FieldKind = keyof typeof FIELD_KINDS;

/** The kinds whose entry has `T` (e.g. `{ family: 'linear' }`), as a union. */
type KindsWhere<T> = { [K in FieldKind]: (typeof FIELD_KINDS)[K] extends T ? K : never }[FieldKind];

/** The kinds of a family: `KindOf<'linear'>` is `'BC' | 'B3' | ...`. */
export type KindOf<F extends FieldFamily> = KindsWhere<{ family: F }>;

export type BarcodeKind = KindOf<BarcodeFamily>;

/** Kinds marked `undrawn`: the layout reports them as not drawn, and no drawer table has to hold them. */
export type UndrawnKind = KindsWhere<{ undrawn: true }>;

/** A kind's parameter table. */
export type FieldParams<K extends FieldKind> = (typeof FIELD_KINDS)[K]['params'];

/** Each field kind's arguments, by parameter name. */
export type FieldArgs = { [K in FieldKind]: ArgsOf<FieldParams<K>> };

/** The command that decides how a field is drawn, with its arguments. */
export type FieldCommand = { [K in FieldKind]: { kind: K; args: FieldArgs[K] } }[FieldKind];

/** A field command of kind `kind` (the one place a kind meets its arguments' type). */
export function fieldCommand<K extends FieldKind>(kind: K, args: ArgsOf<FieldParams<K>>): FieldCommand {
  return { kind, args } as FieldCommand;
}

/** Every kind, in table order. */
export const FIELD_KIND_NAMES = Object.keys(FIELD_KINDS) as FieldKind[];

/** A kind's entry, read through the common entry type (optional traits included). */
export function fieldKindEntry(kind: FieldKind): FieldKindEntry {
  return FIELD_KINDS[kind];
}

export function isFieldKind(name: string): name is FieldKind {
  return Object.hasOwn(FIELD_KINDS, name);
}

/** The traits of barcode kind `name` (a kind name, not an alias such as ^B0), or undefined for any other name. */
export function barcodeTraits(name: string): BarcodeEntry | undefined {
  if (!isFieldKind(name)) return undefined;
  const entry = fieldKindEntry(name);
  return entry.family === 'linear' || entry.family === 'matrix' ? entry : undefined;
}

export function isBarcodeKind(name: string): name is BarcodeKind {
  return barcodeTraits(name) !== undefined;
}

/** The kinds a drawer table must hold (every kind not marked `undrawn`). */
export function isDrawnKind(kind: FieldKind): kind is Exclude<FieldKind, UndrawnKind> {
  return fieldKindEntry(kind).undrawn !== true;
}
