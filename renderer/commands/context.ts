// What a command may touch while it runs: the printer state, the field and label being assembled, and a few
// verbs. Commands see this narrow context, never the interpreter itself.

import type { DiagnosticLog } from '../diagnostics.js';
import type { WorkMeter } from '../work-meter.js';
import type { ClockOffset } from '../zpl/clock.js';
import type {
  BarcodeDefaults,
  Field,
  FieldBlock,
  FontSelection,
  Orientation,
  StoredObject,
  TextBlock,
} from '../model.js';
import type { FieldCommand, FieldKind } from './field-kinds.js';
import type { Token } from '../zpl/lexer.js';
import type { ArgsOf, ParamSpec } from '../zpl/params.js';

/** Settings that persist from one label to the next within a document (a request is a fresh printer). */
export interface PrinterState {
  defaultFont: { name: string; height: number; width: number };
  orientation: Orientation;
  justification: number;
  /** Replaced by ^BY, never changed in place: every field shares the defaults in force when it was finished. */
  barcode: Readonly<BarcodeDefaults>;
  charset: number;
  /** ^CI remapping pairs in force: byte -> the byte whose character prints for it (charsets 0-13 only). */
  remap?: Uint8Array;
  /** ^MC: false keeps each label's image under the next label (map not cleared). */
  mapClear: boolean;
  /** ^SO: the secondary (2) and tertiary (3) clocks' offsets from the primary one. */
  clockOffsets: Partial<Record<2 | 3, ClockOffset>>;
  home: { x: number; y: number };
  shiftLeft: number;
  shiftTop: number;
  /** ^MU: dots per unit of the format's coordinates (1 for dots). */
  unitScale: number;
  fontAliases: Map<string, string>;
  printWidth?: number;
  labelLength?: number;
  invert: boolean;
  mirror: boolean;
  reverseAll: boolean;
  objects: Map<string, StoredObject>;
  formats: Map<string, Token[]>;
}

/** The field being assembled between ^FO/^FT and ^FS: what becomes the Field, plus what only assembling needs. */
export interface FieldDraft {
  /** The command that makes the field drawn other than as text (a barcode, a graphic), with its arguments. */
  command?: FieldCommand;
  payload?: Uint8Array;
  graphic?: Field['graphic'];
  object?: Field['object'];
  x: number;
  y: number;
  origin: 'FO' | 'FT';
  positioned: boolean;
  justification: number;
  font?: FontSelection;
  data?: Uint8Array;
  dataAt?: Field['dataAt'];
  variable?: Field['variable'];
  hexIndicator?: number;
  reverse: boolean;
  block?: FieldBlock;
  textBlock?: TextBlock;
  direction?: Field['direction'];
  fieldNumber?: number;
  serial?: Field['serial'];
  continues?: boolean;
  /** ^FC: the primary, secondary and tertiary clock indicator characters (bytes) of this field's data. */
  clock?: readonly (number | undefined)[];
  /** ^FM: the symbols' origins in dots (null: that symbol is excluded). */
  origins?: Field['origins'];
  at: number;
}

export interface LabelDraft {
  fields: Field[];
  copies: number;
  /** Set while ^DF is capturing the rest of this format instead of printing it. */
  capturing?: { name: string; tokens: Token[] };
  /** A ^DF (or ^IS with print N) in this format: it stores a format (an image) and prints nothing. */
  storesFormat: boolean;
  start: number;
  /** ^FN data given before the recalled format that has the variable (filled in when it arrives). */
  pendingFills?: Map<number, Pick<Field, 'data' | 'serial'>>;
}

export interface CommandContext {
  readonly printer: PrinterState;
  /** The field being assembled (a new draft after each ^FS). */
  field: FieldDraft;
  /** The format between ^XA and ^XZ, or null outside one. */
  readonly label: LabelDraft | null;
  readonly dpmm: number;
  readonly log: DiagnosticLog;
  /** The document's memory budget: decoded graphics and stored objects are claimed here before allocating. */
  readonly memory: WorkMeter;
  /** The same request meter: what decoders of downloaded bytes and every command's loops spend (claim, charge). */
  readonly meter: WorkMeter;
  /** The printer's real-time clock: the moment the document is rendered (^FC fields print it). */
  readonly now: Date;
  warn(byteIndex: number, byteSize: number, command: string, param: number, message: string): void;
  /** A coordinate in ^MU units, in dots. */
  dots(v: number): number;
  startLabel(at: number): void;
  endLabel(): void;
  /** ^FS: the draft becomes a field of the current label. */
  finishField(): void;
  fieldHasContent(): boolean;
  /** Runs a stored format's tokens (^XF), guarded against formats that recall themselves. */
  replay(tokens: readonly Token[], at: number): void;
}

// How a command family declares its commands: parameter table plus what running it does.
export interface CommandDef<P extends readonly ParamSpec[] = readonly ParamSpec[]> {
  /** The parameter table (ranges and defaults); the linter reads it too. */
  params?: P;
  /**
   * How the parameter bytes are read: `split` (default) at the delimiter; `font` for ^A (font letter then
   * orientation without a delimiter); `text` as one free-text value (^FD, ^FX...); `raw` not at all.
   */
  syntax?: 'split' | 'font' | 'text' | 'raw';
  /** Runs outside ^XA..^XZ too (downloads, host commands). Format commands outside a label are ignored. */
  anywhere?: boolean;
  /** Accepted but has no effect on the picture (printer settings). */
  noop?: boolean;
  /** The kind of field it makes (barcodes, graphics); its `params` are that kind's table in field-kinds.ts. */
  makes?: FieldKind;
  /**
   * How it stands to the field around it, for a command that assembles one: `opens` a field (^FO, ^A, ^FD...: the
   * formatter starts a line there), or only stands `inside` the one it is in (^FS, ^FX, ^FM). A field drawn as a
   * bitmap drops both kinds; the rest inside a field (^BY, ^FW, ^CF, ^CI...) set what later fields use.
   */
  field?: 'opens' | 'inside';
  /** `args`: the parameters by name, typed by `params`; `length` ones already in dots. */
  run?(ip: CommandContext, args: ArgsOf<P>, tok: Token): void;
}

/** Keyed by prefix and name: `^FO`, `~DG`. */
export type CommandTable = Record<string, CommandDef>;
