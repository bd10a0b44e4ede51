// The label model: what the interpreter hands to the drawers. Nothing here knows about HTTP.

import type { FieldArgs, FieldKind } from './commands/field-kinds.js';
import type { OutlineFont } from './decode/outline-font.js';
import type { BitmapFont } from './decode/bitmap-font.js';

export type Orientation = 'N' | 'R' | 'I' | 'B';

/** A font as chosen by ^A / ^CF / ^A@: name `0`, `A`..`Z` or an alias/downloaded font path. */
export interface FontSelection {
  name: string;
  orientation: Orientation;
  /** Character height in dots (already defaulted from ^CF). */
  height: number;
  /** Character width in dots; 0 means "derived from the height" (font 0: proportional). */
  width: number;
  /** For ^A@ and ^CW aliases: the stored font object name, e.g. `E:ARIAL.TTF`. */
  path?: string;
}

/** ^FB field block. */
export interface FieldBlock {
  width: number;
  maxLines: number;
  lineSpacing: number;
  justify: 'L' | 'C' | 'R' | 'J';
  hangingIndent: number;
}

/** ^TB text block. */
export interface TextBlock {
  orientation: Orientation;
  width: number;
  height: number;
}

/** ^BY defaults in force when a field was finished. */
export interface BarcodeDefaults {
  moduleWidth: number;
  ratio: number;
  height: number;
}

export type { BarcodeKind, FieldArgs, FieldKind, KindOf, UndrawnKind } from './commands/field-kinds.js';

/**
 * One finished field (^FO/^FT ... ^FS) of kind K: `kind` names the command that decides how it is drawn (`text` for
 * plain text, the barcode command `BC`, `B3`, `BQ`..., or the graphic command `GB`, `GF`...), `args` that command's
 * parameters by name, typed by its table (commands/field-kinds.ts).
 */
export type FieldOf<K extends FieldKind> = K extends FieldKind ? FieldBase & { kind: K; args: FieldArgs[K] } : never;

/** Any finished field: a union keyed by `kind`. */
export type Field = FieldOf<FieldKind>;

/** What every field has, whatever its kind. */
export interface FieldBase {
  /** Raw parameter bytes of that command, for payloads such as ^GF data. */
  payload?: Uint8Array;
  /** ^GF: the graphic, decoded (with its diagnostics) when the command ran. */
  graphic?: Bits;
  /** ^XG/^IM: the stored object the field named, as it was when the field was made. */
  object?: StoredObject;
  /** Position in dots, label home (^LH) and shifts (^LS, ^LT) already applied. */
  x: number;
  y: number;
  /** ^FO: x/y is the top-left corner. ^FT: x/y is the baseline start (text) or bottom-left (barcodes, graphics). */
  origin: 'FO' | 'FT';
  /** Third parameter of ^FO/^FT: 0 left, 1 right, 2 auto. */
  justification: number;
  font: FontSelection;
  /** Field data bytes after ^FH hex escapes, before character-set decoding (^CI). */
  data?: Uint8Array;
  /** Where the field data (^FD/^FV/^SN parameters) stands in the document, for diagnostics about it. */
  dataAt?: { offset: number; size: number };
  /** ^FV: the data is variable, so the image ^MCN keeps for the next label leaves the field out. */
  variable?: true;
  /** ^CI in force. */
  charset: number;
  /** ^CI remapping pairs in force (text only): byte -> the byte whose character prints instead. */
  remap?: Uint8Array;
  /** ^FR xor ^LR. */
  reverse: boolean;
  block?: FieldBlock;
  textBlock?: TextBlock;
  /** ^FP: H horizontal, V vertical, R reverse; with the extra inter-character gap. */
  direction?: { mode: 'H' | 'V' | 'R'; gap: number };
  barcode: Readonly<BarcodeDefaults>;
  /** ^FW orientation in force (barcodes and graphics whose own orientation parameter is omitted use it). */
  defaultOrientation: Orientation;
  /** ^FN number when the field is a variable of a stored format. */
  fieldNumber?: number;
  /** ^SN/^SF: how the data changes on each copy. */
  serial?: { increment: string; leadingZeros: boolean; mask?: string; maskIncrement?: string };
  /** Byte offset of the ^FO/^FT (or first command) of the field, for diagnostics. */
  at: number;
  /** Byte offset just past the command that ended the field (^FS, or ^XZ without one). */
  end: number;
  /** ^FT without coordinates: the field starts where the previous text field ended. */
  continues?: boolean;
  /** ^FM: one symbol of a structured-append PDF417 / MicroPDF417 series at each origin, in dots (null: excluded). */
  origins?: ReadonlyArray<{ x: number; y: number } | null>;
}

/** A 1-bit image: rows MSB first, `stride` bytes a row, set bits are ink. */
export interface Bits {
  data: Uint8Array;
  stride: number;
  width: number;
  height: number;
}

export interface StoredObject {
  /** Normalised name with drive and extension, e.g. `R:LOGO.GRF`. */
  name: string;
  kind: 'graphic' | 'font' | 'format' | 'image' | 'other';
  /** Bitmap objects: 1-bit rows, MSB first. */
  bits?: Bits;
  /** Fonts and other binary objects. */
  bytes?: Uint8Array;
  /** Fonts: the outlines parsed from `bytes` when the object was stored (null when they cannot be read). */
  outlines?: OutlineFont | null;
  /** ~DB bitmap fonts: the glyph bitmaps, parsed when the font arrived. */
  bitmapFont?: BitmapFont;
  /** ^IS saved images: the fields of the label saved, drawn again (moved) where the image is recalled. */
  fields?: readonly Field[];
}

/** One ^XA..^XZ format as interpreted: its fields, and how many labels it prints. */
export interface LabelPlan {
  fields: Field[];
  /** ^PQ copies (at least 1). */
  copies: number;
  /** ^PO I: the whole label turned 180 degrees. */
  invert: boolean;
  /** ^PM Y: mirror image. */
  mirror: boolean;
  /** ^LR Y at ^XZ time is folded into each field's `reverse`; kept for the record. */
  reverse: boolean;
  /** ^PW / ^LL when given, in dots (the picture is still the requested size). */
  printWidth?: number;
  labelLength?: number;
  /** ^MCN on the label before: its image (that label's last copy), drawn first, under this label's fields. */
  background?: { label: LabelPlan; copy: number };
}
