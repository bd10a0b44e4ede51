// Walks the tokens of a document with the printer's state and produces one LabelPlan per ^XA..^XZ.
// Command semantics live in the family modules under commands/; this file only runs the table.

import { DiagnosticLog } from './diagnostics.js';
import { WorkMeter } from './work-meter.js';
import { CHECKPOINT_UNITS } from './decode/meter.js';
import { RenderError } from './errors.js';
import { finish, type Steps } from './steps.js';
import type { Field, FontSelection, LabelPlan, StoredObject } from './model.js';
import type {
  CommandContext,
  CommandDef,
  CommandTable,
  FieldDraft,
  LabelDraft,
  PrinterState,
} from './commands/context.js';
import { lexSteps, type Token } from './zpl/lexer.js';
import {
  latin1,
  namedArgs,
  readParams,
  splitParams,
  type ArgsOf,
  type ParamSpec,
  type ParamValue,
  type RawParam,
} from './zpl/params.js';
import { commandTable } from './commands/index.js';

export interface DocumentPlan {
  labels: LabelPlan[];
  log: DiagnosticLog;
  objects: Map<string, StoredObject>;
  /** Sum of copies over labels. */
  totalCount: number;
  /** Features met while interpreting that this renderer does not draw (drawing may add more to the log). */
  unsupported: string[];
}

const MAX_REPLAY_DEPTH = 8;
/** Commands all ^XF recalls of one document may run: formats recalling each other would otherwise grow exponentially. */
export const MAX_REPLAYED_COMMANDS = 50_000;

export type { FieldDraft, LabelDraft, PrinterState } from './commands/context.js';

export class Interpreter implements CommandContext {
  readonly log: DiagnosticLog;
  readonly printer: PrinterState;
  readonly dpmm: number;
  /** The request's work meter: commands claim decoded graphics and objects here before allocating. */
  readonly memory: WorkMeter;
  /** The same meter, as decoders see it (claim, charge). */
  readonly meter: WorkMeter;
  readonly now: Date;
  readonly labels: LabelPlan[] = [];
  /** ^MCN: the image the next label is drawn over (the last label printed while the map was not cleared). */
  private retained?: LabelPlan['background'];
  label: LabelDraft | null = null;
  field: FieldDraft;
  private readonly table: CommandTable;
  private replayDepth = 0;
  private replayed = 0;
  /** End of the token being run: where a field that it finishes ends. */
  private tokenEnd = 0;

  constructor(dpmm: number, context: InterpretContext = {}, table: CommandTable = commandTable) {
    this.dpmm = dpmm;
    this.memory = context.meter ?? new WorkMeter({ checkpoint: context.checkpoint });
    this.meter = this.memory;
    this.log = context.log ?? new DiagnosticLog(this.meter);
    this.now = context.now ?? new Date();
    this.table = table;
    this.printer = {
      defaultFont: { name: 'A', height: 9, width: 5 },
      orientation: 'N',
      justification: 0,
      barcode: { moduleWidth: 2, ratio: 3, height: 10 },
      charset: 0,
      mapClear: true,
      clockOffsets: {},
      home: { x: 0, y: 0 },
      shiftLeft: 0,
      shiftTop: 0,
      unitScale: 1,
      fontAliases: new Map(),
      invert: false,
      mirror: false,
      reverseAll: false,
      objects: new Map(),
      formats: new Map(),
    };
    this.field = this.newField(0);
  }

  /** Runs a whole document, pausing between commands when the meter's slice is spent. */
  *run(bytes: Uint8Array): Steps<DocumentPlan> {
    const tokens = yield* lexSteps(bytes, this.meter);
    for (const tok of tokens) {
      this.meter.charge(TOKEN_UNITS);
      this.step(tok);
      if (this.meter.sliceDue) yield;
    }
    if (this.label) {
      this.warn(this.label.start, 0, '', 0, 'Missing ^XZ; label ended at end of input');
      this.endLabel();
    }
    // Formats that only set printer state (a common header block) print nothing when real labels follow;
    // the legacy service counts the first label with fields as label 0. A document of empty formats still prints them.
    const labels = this.labels.some((l) => l.fields.length > 0)
      ? this.labels.filter((l) => l.fields.length > 0)
      : this.labels;
    const totalCount = labels.reduce((s, l) => s + l.copies, 0);
    return { labels, log: this.log, objects: this.printer.objects, totalCount, unsupported: this.log.features() };
  }

  /** Runs tokens in order (also used to replay a stored format for ^XF). */
  runTokens(tokens: readonly Token[]): void {
    for (const tok of tokens) {
      this.meter.charge(TOKEN_UNITS);
      this.step(tok);
    }
  }

  /** Replays a stored format's tokens, guarding against formats that recall themselves. */
  replay(tokens: readonly Token[], at: number): void {
    if (this.replayDepth >= MAX_REPLAY_DEPTH) {
      this.warn(at, 0, '^XF', 0, 'Recalled format nested too deeply; ignored');
      return;
    }
    if (this.replayed + tokens.length > MAX_REPLAYED_COMMANDS) {
      this.warn(at, 0, '^XF', 0, `Recalled formats exceed ${MAX_REPLAYED_COMMANDS} commands in this document; ignored`);
      return;
    }
    this.replayed += tokens.length;
    this.replayDepth++;
    try {
      this.runTokens(tokens);
    } finally {
      this.replayDepth--;
    }
  }

  private step(tok: Token): void {
    const key = tok.prefix + tok.name;
    const cap = this.label?.capturing;
    if (cap && key !== '^XZ') {
      cap.tokens.push(tok);
      return;
    }
    if (tok.stray) {
      this.warn(tok.start, tok.end - tok.start, '', 0, 'Ignored unrecognized content');
      return;
    }
    const def = this.table[key];
    if (!def) {
      this.log.add({
        byteIndex: tok.start,
        byteSize: tok.end - tok.start,
        command: key,
        param: 0,
        message: `Unknown command ${key}; ignored`,
        feature: key,
      });
      return;
    }
    if (!this.label && !def.anywhere) {
      this.warn(tok.start, tok.end - tok.start, key, 0, `Command ${key} outside ^XA...^XZ; ignored`);
      return;
    }
    if (def.noop || !def.run) return;
    this.tokenEnd = tok.end;
    try {
      def.run(this, this.args(def.params ?? [], this.values(key, def, tok)), tok);
    } catch (e) {
      if (e instanceof RenderError) throw e; // over a budget (e.g. a 2 MB object): the whole render fails
      this.warn(tok.start, tok.end - tok.start, key, 0, `Command failed: ${(e as Error).message}`);
    }
  }

  /** Values by parameter name, `length` ones turned from ^MU units into dots. */
  private args(specs: readonly ParamSpec[], values: ParamValue[]): ArgsOf<readonly ParamSpec[]> {
    // Only the values read: a table's trailing pairs may be left out (readParams).
    const n = Math.min(specs.length, values.length);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (specs[i].length && typeof v === 'number') values[i] = this.dots(v);
    }
    return namedArgs(specs, values);
  }

  private values(key: string, def: CommandDef, tok: Token): ParamValue[] {
    const specs = def.params ?? [];
    switch (def.syntax ?? 'split') {
      case 'raw':
        return [];
      case 'text':
        return [latin1(tok.raw)];
      case 'font': {
        // ^A: the font name is the first byte, then orientation,height,width[,path] after it.
        const name = tok.raw.length ? String.fromCharCode(tok.raw[0]).toUpperCase() : '';
        const nameParam: RawParam = { text: name, offset: tok.paramStart, size: tok.raw.length ? 1 : 0 };
        return readParams(key, [nameParam, ...splitParams(tok, 1)], specs, this.log, {
          unitScale: this.printer.unitScale,
        });
      }
      default:
        if (specs.length === 0) {
          this.ignoreContent(key, tok);
          return [];
        }
        return readParams(key, splitParams(tok), specs, this.log, { unitScale: this.printer.unitScale });
    }
  }

  /** Text after a command that takes no parameters is ignored, as the printer does. */
  private ignoreContent(key: string, tok: Token): void {
    let a = 0,
      b = tok.raw.length;
    while (a < b && tok.raw[a] <= 0x20) a++;
    while (b > a && tok.raw[b - 1] <= 0x20) b--;
    if (a < b)
      this.warn(tok.offsets[a], tok.offsets[b - 1] + 1 - tok.offsets[a], key, 0, 'Ignored unrecognized content');
  }

  warn(byteIndex: number, byteSize: number, command: string, param: number, message: string): void {
    this.log.add({ byteIndex, byteSize, command, param, message });
  }

  // ---- label lifecycle -------------------------------------------------------------------

  startLabel(at: number): void {
    if (this.label) this.endLabel();
    this.label = { fields: [], copies: 1, storesFormat: false, start: at };
    this.field = this.newField(at);
  }

  endLabel(): void {
    const label = this.label;
    if (!label) return;
    if (label.capturing) {
      this.printer.formats.set(label.capturing.name, label.capturing.tokens);
      label.capturing = undefined;
    }
    if (this.fieldHasContent()) this.warn(this.field.at, 0, '^FS', 0, 'Missing ^FS; field ended by ^XZ');
    this.finishField();
    this.label = null;
    if (label.storesFormat) return;
    const plan: LabelPlan = {
      fields: label.fields,
      copies: label.copies,
      invert: this.printer.invert,
      mirror: this.printer.mirror,
      reverse: this.printer.reverseAll,
      printWidth: this.printer.printWidth,
      labelLength: this.printer.labelLength,
    };
    if (this.retained) plan.background = this.retained;
    this.retained = this.printer.mapClear ? undefined : { label: plan, copy: plan.copies - 1 };
    this.labels.push(plan);
  }

  // ---- fields ------------------------------------------------------------------------------

  newField(at: number): FieldDraft {
    return {
      x: 0,
      y: 0,
      origin: 'FO',
      positioned: false,
      justification: this.printer?.justification ?? 0,
      reverse: false,
      at,
    };
  }

  /** Whether the field in progress holds anything that would print. */
  fieldHasContent(): boolean {
    return hasContent(this.field);
  }

  /** Converts a coordinate in ^MU units to dots. */
  dots(v: number): number {
    // Fractions (inches, millimetres, or dots written with decimals) round to the nearest dot.
    return Math.round(v * this.printer.unitScale);
  }

  /** ^FS: turns the draft into a Field of the current label. */
  finishField(): void {
    const d = this.field;
    const label = this.label;
    this.field = this.newField(d.at);
    if (!label || !hasContent(d)) return;
    // `^FNn^FD...^FS` after ^XF fills the recalled format's variable n instead of printing a new field.
    if (d.fieldNumber !== undefined && !d.positioned && d.command === undefined) {
      const target = label.fields.filter((f) => f.fieldNumber === d.fieldNumber);
      if (target.length) {
        for (const f of target) {
          f.data = d.data;
          if (d.serial) f.serial = d.serial;
        }
      } else {
        (label.pendingFills ??= new Map()).set(d.fieldNumber, { data: d.data, serial: d.serial });
      }
      return;
    }
    const fill = d.fieldNumber !== undefined ? label.pendingFills?.get(d.fieldNumber) : undefined;
    if (fill) {
      d.data = fill.data;
      d.serial = fill.serial ?? d.serial;
    }
    const p = this.printer;
    const font: FontSelection = d.font ?? {
      name: p.defaultFont.name,
      orientation: p.orientation,
      height: p.defaultFont.height,
      width: p.defaultFont.width,
    };
    // The field is the draft less what only assembling needs (positioned, hexIndicator), completed by the printer
    // state in force. Written out property by property: rest and spread copies are runtime calls, hundreds a label.
    // The ^BY defaults are shared, not copied: commands replace printer.barcode, never change it.
    const { kind, args } = d.command ?? TEXT;
    const field = {
      kind,
      args,
      x: d.x,
      y: d.y,
      origin: d.origin,
      justification: d.justification,
      font,
      charset: p.charset,
      reverse: d.reverse !== p.reverseAll,
      barcode: p.barcode,
      defaultOrientation: p.orientation,
      at: d.at,
      end: Math.max(d.at, this.tokenEnd),
    } as Field;
    // Optional parts only where the draft has them (a property set to undefined is kept, as a spread keeps it).
    if ('payload' in d) field.payload = d.payload;
    if ('graphic' in d) field.graphic = d.graphic;
    if ('object' in d) field.object = d.object;
    if ('data' in d) field.data = d.data;
    if ('dataAt' in d) field.dataAt = d.dataAt;
    if (d.variable) field.variable = true;
    if ('block' in d) field.block = d.block;
    if ('textBlock' in d) field.textBlock = d.textBlock;
    if ('direction' in d) field.direction = d.direction;
    if ('fieldNumber' in d) field.fieldNumber = d.fieldNumber;
    if ('serial' in d) field.serial = d.serial;
    if ('continues' in d) field.continues = d.continues;
    if ('origins' in d) field.origins = d.origins;
    if (p.remap) field.remap = p.remap;
    label.fields.push(field);
  }
}

/** The optional parts of a draft finishField copies one by one, and those it completes or drops. */
type CopiedParts =
  | 'payload'
  | 'graphic'
  | 'object'
  | 'data'
  | 'dataAt'
  | 'variable'
  | 'block'
  | 'textBlock'
  | 'direction'
  | 'fieldNumber'
  | 'serial'
  | 'continues'
  | 'origins';
type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
/** A part added to FieldDraft fails to compile here until finishField copies it (or says why not). */
const everyPartCopied: [
  Exclude<OptionalKeys<FieldDraft>, CopiedParts | 'command' | 'font' | 'hexIndicator' | 'clock'>,
] extends [never]
  ? true
  : false = true;
void everyPartCopied;

/** A field no command made anything else: text. */
const TEXT = { kind: 'text', args: {} } as const;

function hasContent(d: FieldDraft): boolean {
  return d.command !== undefined || d.data !== undefined || d.fieldNumber !== undefined;
}

/** What running one command charges (replays included): a checkpoint every 1024 commands, a few milliseconds. */
const TOKEN_UNITS = CHECKPOINT_UNITS / 1024;

export interface InterpretContext {
  log?: DiagnosticLog;
  /** The request's work meter (decoded graphics, stored objects, the work of every command). */
  meter?: WorkMeter;
  /** Without a meter: called now and then while interpreting; throwing stops it (a cancelled or overdue render). */
  checkpoint?: (() => void) | undefined;
  /** The real-time clock's reading for ^FC fields; default the current time. */
  now?: Date;
}

/** Interprets a document into label plans (no drawing yet). */
export function interpret(bytes: Uint8Array, dpmm: number, context: InterpretContext = {}): DocumentPlan {
  return finish(interpretSteps(bytes, dpmm, context));
}

/** interpret() as steps: it may pause between commands when the meter's slice is spent. */
export function interpretSteps(bytes: Uint8Array, dpmm: number, context: InterpretContext = {}): Steps<DocumentPlan> {
  return new Interpreter(dpmm, context).run(bytes);
}
