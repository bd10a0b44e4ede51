// A ZPL document rewritten for another print density (the legacy service's X-Target-Dpmm): every number the parameter
// table marks as dots is scaled, module widths are scaled and kept whole, ^GF and ~DG bitmaps are resampled. Only the
// bytes of the values that change are rewritten (the lexer's offsets say where they stand); everything else is kept
// as sent. What cannot be converted faithfully is reported as a diagnostic, never changed silently; with
// X-Lossy-Fields: bitmap such a field is written as a ^GF picture of its source drawing instead (field-bitmap.ts).

import { deflateSync } from 'node:zlib';
import type { Dpmm } from '../api.js';
import { defaultQrMagnification } from '../barcodes/matrix/qr.js';
import type { CommandDef } from '../commands/context.js';
import { FIELD_PARAMS } from '../commands/field-kinds.js';
import { commandTable } from '../commands/index.js';
import { payloadAfter } from '../commands/payload.js';
import { decodeGraphic, crc16Xmodem } from '../decode/grf.js';
import { decodeMeter, type DecodeMeter } from '../decode/meter.js';
import type { Diagnostic } from '../diagnostics.js';
import { deviceFonts, deviceMagnification } from '../fonts/device-fonts.js';
import { font0Baseline } from '../fonts/font0.js';
import type { DocumentPlan } from '../interpreter.js';
import { dotsPerInch, labelDots } from '../layout/dots.js';
import { printShift } from '../layout/layout.js';
import type { Bits, Field } from '../model.js';
import { lex, type Token } from '../zpl/lexer.js';
import { latin1, parseFloatLoose } from '../zpl/params.js';
import type { PlacedBits } from './field-bitmap.js';

export interface DensityConversion {
  bytes: Uint8Array;
  /** What could not be converted faithfully, at its place in the source document (the linter's format). */
  warnings: Diagnostic[];
}

/** One parameter as written: raw indices [a, b) of the token's parameter bytes. */
interface Part {
  text: string;
  a: number;
  b: number;
}

/** A replacement of document bytes [start, end) (an insertion when they are equal). */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Barcode commands: a document that has one gets the ^BY defaults written out, so they scale too. */
const BARCODE_KINDS = new Set(Object.keys(FIELD_PARAMS).filter((k) => k.startsWith('B')));

/** The printer's ^BY and ^CF at power-up (the interpreter starts from the same values). */
const BY_DEFAULTS = { moduleWidth: 2, ratio: 3, height: 10 };
const CF_DEFAULTS = { name: 'A', height: 9, width: 5 };

/** The label size in inches, when known: a box that ends on its edge at one density ends on it at the other. */
export interface LabelSize {
  widthIn: number;
  heightIn: number;
}

/**
 * Symbols whose readers sample a fixed grid from the symbol's edges: never drawn as bitmaps, where modules come out
 * 4 and 5 dots wide in turn (a Data Matrix scaled to 6 dpmm so stopped reading; QR codes, located by their finder
 * and alignment patterns, read).
 */
const GRID_SYMBOLS = new Set(['BX', 'BO', 'BD']);

/** Barcode commands whose symbol size does not come from ^BY's module width (each has its own parameter). */
const OWN_MODULE = new Set(['BQ', 'BX', 'BD', 'BO', 'BR', 'BT']);

/**
 * Commands that belong to the field they stand in (the rest inside a field, ^BY, ^FW, ^CF, ^CI..., set what later
 * fields use): a field drawn as a bitmap loses these and keeps those.
 */
function isFieldLocal(tok: Token): boolean {
  if (tok.prefix !== '^') return false;
  if (tok.name.startsWith('B')) return tok.name !== 'BY';
  return ['FO', 'FT', 'FD', 'FV', 'FS', 'FH', 'FR', 'FB', 'TB', 'FP', 'FX', 'FN', 'SN', 'SF', 'FC', 'FM', 'A'].includes(
    tok.name,
  );
}

/** What converting may ask of its caller: memory for resampled bitmaps (claimed before allocating), a checkpoint. */
export interface ConversionHooks {
  claim?: (bytes: number, what: string) => void;
  checkpoint?: () => void;
  /**
   * X-Lossy-Fields: bitmap. A field's drawing at the source density scaled to the target (label dots, ^PW's shift
   * included): given, fields with no whole-dot form are written as ^GF graphics of it instead of rounded.
   */
  fieldBitmap?: (field: Field) => PlacedBits | undefined;
}

export function convertDensity(
  bytes: Uint8Array,
  from: Dpmm,
  to: Dpmm,
  plan: DocumentPlan,
  label?: LabelSize,
  hooks: ConversionHooks = {},
): DensityConversion {
  if (from === to) return { bytes, warnings: [] };
  return new Converter(bytes, from, to, label, hooks).run(lex(bytes), plan);
}

class Converter {
  readonly edits: Edit[] = [];
  readonly warnings: Diagnostic[] = [];
  /** Dots: by dots per inch, as label sizes (in inches) become dots, so what reaches an edge stays on the label. */
  readonly scale: number;
  /** Module widths: by the nominal densities (a 2-dot bar at 8 dpmm is exactly 3 dots at 12, not 2.995). */
  readonly moduleScale: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly from: Dpmm,
    readonly to: Dpmm,
    readonly label: LabelSize | undefined,
    readonly hooks: ConversionHooks,
  ) {
    this.scale = dotsPerInch(to) / dotsPerInch(from);
    this.moduleScale = to / from;
    this.meter = decodeMeter(hooks.claim, hooks.checkpoint);
  }

  /** What decoding the source graphics spends: their bitmaps claimed, their work checked. */
  private readonly meter: DecodeMeter;

  /** Byte offsets of what was rounded for a field (a module width, a font's cells): the fields holding them are lossy. */
  private readonly lossyAt: number[] = [];
  /** Why the ^BY module width in force is not whole at the target, when it is not. */
  private moduleLoss: string | undefined;
  /** Label home and shifts as written at the target, at each ^FO and ^FT (a field drawn as a bitmap restores them). */
  private readonly placing = new Map<number, { home: { x: number; y: number }; shiftLeft: number; shiftTop: number }>();
  private shifts = { left: 0, top: 0 };

  run(tokens: Token[], plan: DocumentPlan): DensityConversion {
    this.textFields = plan.labels.flatMap((l) => l.fields).filter((f) => f.kind === 'text');
    const units = tokens.find((t) => t.prefix === '^' && t.name === 'MU' && !isPlainDots(t));
    if (units) {
      this.warn(
        units.start,
        units.end - units.start,
        '^MU',
        0,
        `Units other than dots: the document is not converted to ${this.to} dpmm`,
      );
      return { bytes: this.bytes, warnings: this.warnings };
    }
    const firstBarcode = tokens.findIndex((t) => t.prefix === '^' && BARCODE_KINDS.has(t.name));
    const firstModule = tokens.findIndex(
      (t) => t.prefix === '^' && t.name === 'BY' && (splitParts(t, 0)[0]?.text.trim() ?? '') !== '',
    );
    const barcodes = firstBarcode >= 0 ? { defaultModule: firstModule < 0 || firstBarcode < firstModule } : undefined;
    let defaultsWritten = false;
    for (const tok of tokens) {
      if (tok.stray) continue;
      const key = tok.prefix + tok.name;
      if (key === '^XA' && !defaultsWritten) {
        defaultsWritten = true;
        this.writeDefaults(tok, barcodes);
        continue;
      }
      if (key === '^FS') this.origin = undefined;
      if (
        tok.prefix === '^' &&
        BARCODE_KINDS.has(tok.name) &&
        !OWN_MODULE.has(tok.name) &&
        this.moduleLoss !== undefined
      )
        this.lossyAt.push(tok.start);
      const def = commandTable[key];
      if (!def) {
        this.warn(tok.start, tok.end - tok.start, key, 0, `Unknown command ${key}: its parameters are not converted`);
        continue;
      }
      if (key === '^GF') this.resampleGraphicField(tok);
      else if (key === '~DG') this.resampleDownload(tok);
      else if (key === '~DY' && isGrf(tok)) this.resampleObject(tok);
      else if (key === '~DY' || key === '~DU' || key === '~DT' || key === '~DB') this.warnObject(tok, key);
      else this.scaleParams(tok, key, def);
    }
    this.checkFonts(plan);
    if (this.hooks.fieldBitmap) this.drawLossyAsBitmaps(tokens, plan, this.hooks.fieldBitmap);
    return { bytes: this.apply(), warnings: this.warnings.sort((x, y) => x.byteIndex - y.byteIndex) };
  }

  warn(byteIndex: number, byteSize: number, command: string, param: number, message: string): void {
    this.warnings.push({ byteIndex, byteSize, command, param, message });
  }

  /**
   * ^CF (and ^BY, when there are barcodes) as the printer starts, scaled, right after the first ^XA: fields that lean
   * on the power-up defaults scale too.
   */
  private writeDefaults(xa: Token, barcodes: { defaultModule: boolean } | undefined): void {
    const prefix = prefixOf(this.bytes, xa, '^');
    const font = this.deviceFontSize(CF_DEFAULTS.name, CF_DEFAULTS.height, CF_DEFAULTS.width);
    let text = `${prefix}CF${CF_DEFAULTS.name},${font.height},${font.width}`;
    if (barcodes) {
      const module = this.module(BY_DEFAULTS.moduleWidth);
      if (module.lossy)
        this.moduleLoss = this.moduleMessage(BY_DEFAULTS.moduleWidth, module.value, 'Default module width');
      if (module.lossy && barcodes.defaultModule)
        this.warn(xa.start, xa.paramStart - xa.start, '^BY', 1, this.moduleLoss!);
      text += `${prefix}BY${module.value},${BY_DEFAULTS.ratio},${Math.max(1, Math.round(BY_DEFAULTS.height * this.scale))}`;
    }
    this.edits.push({ start: xa.paramStart, end: xa.paramStart, text });
  }

  /** ^CF in force, as written in the source (^A without a height takes ^CF's). */
  private defaultFont = { ...CF_DEFAULTS };

  /**
   * The size written for a device font the source asks at `height` x `width` dots (0: follows the other, or one
   * cell when both are): the magnification it prints at, scaled and kept whole (half a cell rounds down: a field
   * never grows past its place), written as whole cells so the printer picks exactly that magnification.
   */
  private deviceFontSize(name: string, height: number, width: number): { height: number; width: number } {
    const font = deviceFonts[name]!;
    const { mx, my } = deviceMagnification(font, height, width);
    const pick = (m: number): number => Math.max(1, Math.round(m * this.scale - 1e-9));
    const both = height <= 0 && width <= 0;
    return {
      height: height > 0 || both ? pick(my) * font.cellHeight : 0,
      width: width > 0 || both ? pick(mx) * font.width : 0,
    };
  }

  /** ^A and ^CF in a device font: the size rewritten by magnification (deviceFontSize), never by plain scaling. */
  private sizeDeviceFont(tok: Token, key: string): boolean {
    const font = key === '^A';
    const parts = splitParts(tok, font ? 1 : 0);
    const name = font
      ? tok.raw.length
        ? String.fromCharCode(tok.raw[0]!).toUpperCase()
        : ''
      : (parts[0]?.text.trim().toUpperCase().slice(0, 1) ?? '');
    const number = (k: number): number | undefined => {
      const t = parts[k]?.text.trim() ?? '';
      return t === '' ? undefined : parseFloatLoose(t);
    };
    const h = number(1),
      w = number(2);
    if (!font) {
      // ^CF: a font without a size keeps the size in force; the source's is remembered for the ^A that lean on it.
      const d = this.defaultFont;
      this.defaultFont = { name: name || d.name, height: h ?? d.height, width: w ?? (h !== undefined ? 0 : d.width) };
      if (h === undefined && w === undefined) return true;
    }
    if (!deviceFonts[name]) return false;
    const height = h ?? (font && name === this.defaultFont.name ? this.defaultFont.height : 0);
    const size = this.deviceFontSize(name, height, w ?? 0);
    const delimiter = String.fromCharCode(tok.delimiter);
    const start = font ? tok.paramStart + 1 : parts[0] ? this.endOf(tok, parts[0]) : tok.paramStart;
    const end = parts.length ? this.endOf(tok, parts.at(-1)!) : start;
    const lead = font ? [parts[0]?.text ?? ''] : [''];
    const written = [...lead, String(size.height), String(size.width), ...parts.slice(3).map((p) => p.text)].join(
      delimiter,
    );
    this.edits.push({ start, end, text: written });
    return true;
  }

  /**
   * A module width scaled and kept whole (at least 1); `lossy` when the exact value is not whole. Half a module
   * rounds down (the symbol never grows past its place), up for a QR code (`halfUp`): carrier labels print a text
   * line across theirs, and it takes fewer of the larger modules (two such codes read at 12 dpmm only so).
   */
  private module(v: number, halfUp = false): { value: number; lossy: boolean } {
    const exact = v * this.moduleScale;
    const value = Math.max(1, Math.round(exact + (halfUp ? 1e-9 : -1e-9)));
    return { value, lossy: Math.abs(value - exact) > 1e-9 };
  }

  private moduleMessage(v: number, written: number, what: string): string {
    const exact = v * this.moduleScale;
    const change = Math.round((written / exact - 1) * 100);
    return `${what} ${v} is ${formatNumber(exact)} dots at ${this.to} dpmm; written ${written}, the symbol is ${Math.abs(change)}% ${change > 0 ? 'larger' : 'smaller'}`;
  }

  /** Every dots and module value of a split (or font) command, rewritten where it changes. */
  private scaleParams(tok: Token, key: string, def: CommandDef): void {
    const specs = def.params ?? [];
    const syntax = def.syntax ?? 'split';
    if (syntax === 'raw' || syntax === 'text' || !specs.some((s) => s.measure === 'dots' || s.measure === 'module'))
      return;
    if ((key === '^A' || key === '^CF') && this.sizeDeviceFont(tok, key)) return;
    // ^A: the font letter is the first parameter, written without a delimiter after it.
    const skip = syntax === 'font' ? 1 : 0;
    const parts = splitParts(tok, skip);
    const written: Record<string, { from: number; to: number }> = {};
    specs.forEach((spec, i) => {
      const part = parts[i - skip];
      if (spec.measure !== 'dots' && spec.measure !== 'module') return;
      if (!part || part.text.trim() === '') {
        if (key === '^BQ' && spec.name === 'magnification') this.fillQrMagnification(tok, parts, i, skip);
        return;
      }
      const value = parseFloatLoose(part.text.trim().replace(/^[^\d+\-.]+/, ''));
      if (value === undefined) return;
      let next: number;
      if (spec.measure === 'module') {
        const m = this.module(value, key === '^BQ');
        next = m.value;
        const message = this.moduleMessage(
          value,
          next,
          spec.name === 'moduleWidth' ? 'Module width' : `${spec.name[0]!.toUpperCase()}${spec.name.slice(1)}`,
        );
        if (m.lossy) {
          this.warn(this.at(tok, part), part.b - part.a, key, i + 1, message);
          this.lossyAt.push(this.at(tok, part));
        }
        if (key === '^BY') this.moduleLoss = m.lossy || next > (spec.max ?? Infinity) ? message : undefined;
      } else {
        next =
          this.edgeKept(key, spec.name, value) ??
          this.baselineKept(tok, key, spec.name, value) ??
          Math.round(value * this.scale);
        if (value > 0 && next === 0) next = 1;
      }
      const max = spec.max ?? Infinity,
        min = spec.min ?? -Infinity;
      if (next > max || next < min) {
        const clamped = Math.min(max, Math.max(min, next));
        const message = `${formatNumber(value)} becomes ${next} at ${this.to} dpmm, outside ${min}..${max}; written ${clamped}`;
        this.warn(this.at(tok, part), part.b - part.a, key, i + 1, message);
        if (spec.measure === 'module') this.lossyAt.push(this.at(tok, part));
        if (key === '^BY' && spec.measure === 'module') this.moduleLoss = message;
        next = clamped;
      }
      if (next !== value || part.text.trim() !== String(value)) this.replacePart(tok, part, String(next));
      written[spec.name] = { from: value, to: next };
    });
    this.follow(key, written, tok);
  }

  /** Label home and the last ^FO, as the source writes them and as they are written (for edgeKept). */
  private home = { from: { x: 0, y: 0 }, to: { x: 0, y: 0 } };
  private origin: { from: { x: number; y: number }; to: { x: number; y: number } } | undefined;

  private follow(key: string, written: Record<string, { from: number; to: number }>, tok: Token): void {
    const at = (name: string) => written[name] ?? { from: 0, to: 0 };
    if (key === '^LH') this.home = { from: { x: at('x').from, y: at('y').from }, to: { x: at('x').to, y: at('y').to } };
    if (key === '^LS') this.shifts.left = at('shift').to;
    if (key === '^LT') this.shifts.top = at('top').to;
    if (key === '^FO' || key === '^FT')
      this.placing.set(tok.start, {
        home: { ...this.home.to },
        shiftLeft: this.shifts.left,
        shiftTop: this.shifts.top,
      });
    if (key === '^FT') this.origin = undefined;
    if (key === '^FO') {
      const h = this.home;
      this.origin = {
        from: { x: h.from.x + at('x').from, y: h.from.y + at('y').from },
        to: { x: h.to.x + at('x').to, y: h.to.y + at('y').to },
      };
    }
  }

  /**
   * A box's width or height from its ^FO origin: its far edge scaled, less the origin as written, so a box that ends on
   * the label's edge still does (two roundings would put it a dot past).
   */
  private edgeKept(key: string, name: string, value: number): number | undefined {
    if (key !== '^GB' || !this.origin || (name !== 'width' && name !== 'height')) return undefined;
    const axis = name === 'width' ? 'x' : 'y';
    const far = this.origin.from[axis] + value;
    let scaled = Math.round(far * this.scale);
    // Label sizes become dots rounded down at each density: an edge on the label's stays on it.
    const inches = this.label && (axis === 'x' ? this.label.widthIn : this.label.heightIn);
    if (inches !== undefined && far <= labelDots(inches, this.from))
      scaled = Math.min(scaled, labelDots(inches, this.to));
    return scaled - this.origin.to[axis];
  }

  /** The document's text fields (a ^FO is matched to the field it starts). */
  private textFields: Field[] = [];

  /**
   * A font 0 line's ^FO coordinate across its lines: the printer puts the baseline on a whole row below the cell top,
   * floor(0.75 x height), at each density, so the top scaled would move the ink by that rounding (2 dots at 8 -> 24 for
   * a 25-dot font). The baseline is kept instead: where it lies in the source, scaled, less the target's row.
   */
  private baselineKept(tok: Token, key: string, name: string, value: number): number | undefined {
    if (key !== '^FO' || (name !== 'x' && name !== 'y')) return undefined;
    const field = this.textFields.find((f) => f.at <= tok.start && tok.start < f.end);
    if (field?.origin !== 'FO' || field.textBlock || field.direction || field.font.path || field.font.name !== '0')
      return undefined;
    const o = field.font.orientation;
    // The axis across the line: y for N and I, x for R and B; R and I measure from the cell's far side.
    if ((name === 'y') !== (o === 'N' || o === 'I')) return undefined;
    if ((o === 'R' || o === 'I') && field.block) return undefined;
    const h = field.font.height,
      ht = Math.max(1, Math.round(h * this.scale));
    const from = o === 'N' || o === 'B' ? font0Baseline(h) : h - font0Baseline(h);
    const to = o === 'N' || o === 'B' ? font0Baseline(ht) : ht - font0Baseline(ht);
    const home = this.home.from[name],
      homeTo = this.home.to[name];
    return Math.round((home + value + from) * this.scale) - to - homeTo;
  }

  /** ^BQ without a magnification draws with the density's default: written out when the scaled one is another. */
  private fillQrMagnification(tok: Token, parts: Part[], i: number, skip: number): void {
    const source = defaultQrMagnification(this.from);
    const m = this.module(source, true);
    if (m.lossy) {
      this.warn(
        tok.start,
        tok.end - tok.start,
        '^BQ',
        i + 1,
        this.moduleMessage(source, m.value, 'Default magnification'),
      );
      this.lossyAt.push(tok.start);
    }
    if (m.value === defaultQrMagnification(this.to)) return;
    const k = i - skip;
    const part = parts[k];
    if (part) {
      this.edits.push({ start: this.at(tok, part), end: this.at(tok, part), text: String(m.value) });
      return;
    }
    const delimiter = String.fromCharCode(tok.delimiter);
    const end = parts.length ? this.endOf(tok, parts.at(-1)!) : tok.paramStart + skip;
    this.edits.push({ start: end, end, text: delimiter.repeat(parts.length ? k - parts.length + 1 : k) + m.value });
  }

  /** Document offset of a part's first byte (or where it would be, when empty). */
  private at(tok: Token, part: Part): number {
    if (part.a < tok.raw.length) return tok.offsets[part.a]!;
    return tok.raw.length ? tok.offsets[tok.raw.length - 1]! + 1 : tok.paramStart;
  }

  private endOf(tok: Token, part: Part): number {
    return part.b > part.a ? tok.offsets[part.b - 1]! + 1 : this.at(tok, part);
  }

  /** Replaces the trimmed value of a part, keeping the spaces around it. */
  private replacePart(tok: Token, part: Part, text: string): void {
    let a = part.a,
      b = part.b;
    while (a < b && tok.raw[a]! <= 0x20) a++;
    while (b > a && tok.raw[b - 1]! <= 0x20) b--;
    this.edits.push({ start: tok.offsets[a]!, end: tok.offsets[b - 1]! + 1, text });
  }

  /** ^GFa,b,c,d,data: the bitmap resampled, written as Z64 (ASCII), the byte counts and row width with it. */
  private resampleGraphicField(tok: Token): void {
    const parts = splitParts(tok, 0, 5);
    const format = parts[0]?.text.trim().toUpperCase() || 'A';
    const total = intOf(parts[2]) ?? intOf(parts[1]);
    const rowBytes = intOf(parts[3]);
    if (total === undefined || rowBytes === undefined || rowBytes < 1) {
      this.warn(
        tok.start,
        tok.end - tok.start,
        '^GF',
        0,
        `Graphic without a byte count or row width: not resampled to ${this.to} dpmm`,
      );
      return;
    }
    const data = payloadAfter(tok, 4);
    const spec = { totalBytes: total, rowBytes, binary: format === 'B' || format === 'C', what: '^GF graphic' };
    const bits = decodeGraphic(data.bytes, spec, this.meter);
    const out = encodeBits(this.resampled(bits, '^GF'));
    const binary = format === 'B' || format === 'C';
    this.edits.push({
      start: tok.paramStart,
      end: binary ? tok.end : this.dataEnd(tok),
      text: `A,${out.total},${out.total},${out.rowBytes},${out.data}`,
    });
  }

  /** ~DGname,t,w,data: the stored graphic resampled (^XG and ^IM draw it at the new density). */
  private resampleDownload(tok: Token): void {
    const parts = splitParts(tok, 0, 4);
    const total = intOf(parts[1]);
    const rowBytes = intOf(parts[2]);
    if (!parts[0] || total === undefined || rowBytes === undefined || rowBytes < 1) {
      this.warn(
        tok.start,
        tok.end - tok.start,
        '~DG',
        0,
        `Graphic without a byte count or row width: not resampled to ${this.to} dpmm`,
      );
      return;
    }
    const spec = { totalBytes: total, rowBytes, binary: false, what: '~DG graphic' };
    const bits = decodeGraphic(payloadAfter(tok, 3).bytes, spec, this.meter);
    const out = encodeBits(this.resampled(bits, '~DG'));
    const name = latin1(tok.raw, parts[0].a, parts[0].b);
    this.edits.push({
      start: tok.paramStart,
      end: this.dataEnd(tok),
      text: `${name},${out.total},${out.rowBytes},${out.data}`,
    });
  }

  /** ~DYname,f,G,t,w,data: a stored GRF graphic resampled like ~DG (other object types are kept, and reported). */
  private resampleObject(tok: Token): void {
    const parts = splitParts(tok, 0, 6);
    const format = parts[1]?.text.trim().toUpperCase() || 'A';
    const total = intOf(parts[3]);
    const rowBytes = intOf(parts[4]);
    if (!parts[0] || total === undefined || rowBytes === undefined || rowBytes < 1) {
      this.warn(
        tok.start,
        tok.end - tok.start,
        '~DY',
        0,
        `Graphic without a byte count or row width: not resampled to ${this.to} dpmm`,
      );
      return;
    }
    const binary = format === 'B' || format === 'C';
    const bits = decodeGraphic(
      payloadAfter(tok, 5).bytes,
      { totalBytes: total, rowBytes, binary, what: '~DY graphic' },
      this.meter,
    );
    const out = encodeBits(this.resampled(bits, '~DY'));
    const name = latin1(tok.raw, parts[0].a, parts[0].b);
    const extension = latin1(tok.raw, parts[2]!.a, parts[2]!.b);
    this.edits.push({
      start: tok.paramStart,
      end: binary ? tok.end : this.dataEnd(tok),
      text: `${name},A,${extension},${out.total},${out.rowBytes},${out.data}`,
    });
  }

  /** A bitmap at the target density, its bytes claimed first (a logo grows 16 times from 6 to 24 dpmm). */
  private resampled(bits: Bits, what: string): Bits {
    const width = Math.max(1, Math.round(bits.width * this.scale)),
      height = Math.max(1, Math.round(bits.height * this.scale));
    this.hooks.claim?.(Math.ceil(width / 8) * height * 2, `${what} resampled to ${width}x${height} dots`);
    this.hooks.checkpoint?.();
    return resample(bits, this.scale);
  }

  /** End of a payload without the line breaks and spaces before the next command (kept as sent). */
  private dataEnd(tok: Token): number {
    let end = tok.end;
    while (end > tok.paramStart && isSpace(this.bytes[end - 1]!)) end--;
    return end;
  }

  private warnObject(tok: Token, key: string): void {
    this.warn(
      tok.start,
      tok.end - tok.start,
      key,
      0,
      `Stored object kept as sent: images and fonts in it are not resampled to ${this.to} dpmm`,
    );
  }

  /**
   * Device fonts (A-H, GS) grow by whole multiples of their cell: a text field whose scaled size is not one prints at
   * another size, and says so.
   */
  private checkFonts(plan: DocumentPlan): void {
    const seen = new Set<number>();
    for (const label of plan.labels) {
      for (const field of label.fields) {
        if (field.kind !== 'text' || field.data === undefined || seen.has(field.at)) continue;
        const font = deviceFonts[field.font.name];
        if (!font || field.font.path) continue;
        seen.add(field.at);
        const { mx, my } = deviceMagnification(font, field.font.height, field.font.width);
        const wantY = my * font.cellHeight * this.scale,
          wantX = mx * font.width * this.scale;
        const written = this.deviceFontSize(field.font.name, field.font.height, field.font.width);
        const got = deviceMagnification(font, written.height, written.width);
        const gotY = got.my * font.cellHeight,
          gotX = got.mx * font.width;
        if (Math.abs(gotY - wantY) < 0.5 && Math.abs(gotX - wantX) < 0.5) continue;
        this.lossyAt.push(field.at);
        this.warn(
          field.at,
          0,
          '^A',
          0,
          `Font ${field.font.name} (cell ${font.cellHeight}x${font.width} dots) grows by whole cells: ` +
            `${formatNumber(wantY)}x${formatNumber(wantX)} dots at ${this.to} dpmm print as ${gotY}x${gotX}`,
        );
      }
    }
  }

  /**
   * Every lossy field that can stand as a picture written as ^GF of its source drawing, scaled: its own commands
   * removed, those that set what later fields use kept, ^LH zeroed around it (the bitmap's place is on the label).
   */
  private drawLossyAsBitmaps(
    tokens: Token[],
    plan: DocumentPlan,
    fieldBitmap: (field: Field) => PlacedBits | undefined,
  ): void {
    const uses = new Map<number, number>();
    for (const f of plan.labels.flatMap((l) => l.fields)) uses.set(f.at, (uses.get(f.at) ?? 0) + 1);
    const done = new Set<number>();
    for (const label of plan.labels) {
      for (const field of label.fields) {
        if (done.has(field.at) || !this.lossyAt.some((p) => field.at <= p && p < field.end)) continue;
        done.add(field.at);
        const why = this.pictureless(field, uses.get(field.at) ?? 0);
        if (why) {
          this.warn(field.at, 0, '', 0, `Field not drawn as a bitmap (X-Lossy-Fields): ${why}`);
          continue;
        }
        const own = tokens.filter((t) => !t.stray && t.start >= field.at && t.start < field.end);
        const origin = own.find((t) => t.prefix === '^' && (t.name === 'FO' || t.name === 'FT'));
        const placing = origin && this.placing.get(origin.start);
        const shown = this.label && placing && fieldBitmap(field);
        if (!shown || !origin || !placing) continue;
        const local = own.filter(isFieldLocal);
        const removed = (p: number): boolean => local.some((t) => t.start <= p && p < t.end);
        for (let i = this.edits.length - 1; i >= 0; i--) if (removed(this.edits[i]!.start)) this.edits.splice(i, 1);
        for (const t of local) this.edits.push({ start: t.start, end: t.end, text: '' });
        const p = prefixOf(this.bytes, origin, '^'),
          d = String.fromCharCode(origin.delimiter);
        const out = encodeBits(shown.bits);
        const printShift = this.printShift(label.printWidth);
        const x = shown.x - printShift + placing.shiftLeft,
          y = shown.y - placing.shiftTop;
        this.edits.push({
          start: field.at,
          end: field.at,
          text:
            `${p}LH0${d}0${p}FO${x}${d}${y}${d}0${p}GFA${d}${out.total}${d}${out.total}${d}${out.rowBytes}${d}${out.data}${p}FS` +
            `${p}LH${placing.home.x}${d}${placing.home.y}\n`,
        });
        const reasons = this.warnings.filter((w) => field.at <= w.byteIndex && w.byteIndex < field.end);
        for (const w of reasons) this.warnings.splice(this.warnings.indexOf(w), 1);
        const reason = reasons[0]?.message ?? this.moduleLoss ?? 'its sizes are not whole dots';
        this.warn(
          field.at,
          field.end - field.at,
          field.kind === 'text' ? '^A' : `^${field.kind}`,
          0,
          `Drawn as a ${shown.bits.width}x${shown.bits.height}-dot ^GF graphic of its ${this.from} dpmm drawing (X-Lossy-Fields: bitmap): ${reason}`,
        );
      }
    }
  }

  /** Why a field cannot become a picture of itself: its data changes per copy or per recall, or it inverts ink. */
  private pictureless(field: Field, uses: number): string | undefined {
    if (GRID_SYMBOLS.has(field.kind)) return 'its reader needs whole, equal modules (rounded instead)';
    if (field.reverse) return 'it prints in reverse (^FR, ^LR) over what lies under it';
    if (field.serial) return 'its data changes on every copy (^SN, ^SF)';
    if (field.fieldNumber !== undefined || uses > 1) return 'it is a field of a stored format, filled at each recall';
    if (field.continues || field.origins) return 'it has no origin of its own (^FT without coordinates, ^FM)';
    return undefined;
  }

  /** Columns a ^PW narrower than the label moves fields right by at the target, ^PW as scaleParams writes it. */
  private printShift(printWidth: number | undefined): number {
    if (printWidth === undefined || !this.label) return 0;
    return printShift({ printWidth: Math.round(printWidth * this.scale) }, labelDots(this.label.widthIn, this.to));
  }

  /** The document with every edit made, in order (edits never overlap: each rewrites its own parameter). */
  private apply(): Uint8Array {
    const edits = this.edits.sort((x, y) => x.start - y.start || x.end - y.end);
    const chunks: Buffer[] = [];
    let at = 0;
    for (const e of edits) {
      chunks.push(Buffer.from(this.bytes.subarray(at, e.start)), Buffer.from(e.text, 'latin1'));
      at = e.end;
    }
    chunks.push(Buffer.from(this.bytes.subarray(at)));
    return new Uint8Array(Buffer.concat(chunks));
  }
}

/** `^MUD` without a conversion pair (or ^MU alone): dots, the only units this converter rescales. */
function isPlainDots(tok: Token): boolean {
  const parts = splitParts(tok, 0).map((p) => p.text.trim().toUpperCase());
  return (parts[0] ?? '') === '' || (parts[0] === 'D' && !parts[1] && !parts[2]);
}

/** The token's prefix character as the document writes it (after ^CC/^CT it may be another one). */
function prefixOf(bytes: Uint8Array, tok: Token, fallback: string): string {
  return tok.start < bytes.length ? String.fromCharCode(bytes[tok.start]!) : fallback;
}

/** Parameters at the delimiter, as raw index ranges (at most `maxParts`, the last one taking the rest). */
function splitParts(tok: Token, skip: number, maxParts = Infinity): Part[] {
  const out: Part[] = [];
  const raw = tok.raw;
  let a = skip;
  for (let k = skip; k <= raw.length; k++) {
    if (k === raw.length || (raw[k] === tok.delimiter && out.length < maxParts - 1)) {
      out.push({ text: latin1(raw, a, k), a, b: k });
      a = k + 1;
    }
  }
  if (out.length === 1 && out[0]!.b === out[0]!.a) return [];
  return out;
}

/** ~DY of a GRF graphic (extension G): a bitmap, resampled; PNG, fonts and other files are not. */
function isGrf(tok: Token): boolean {
  return (splitParts(tok, 0, 4)[2]?.text.trim().toUpperCase() ?? 'G') === 'G';
}

function intOf(part: Part | undefined): number | undefined {
  const t = part?.text.trim() ?? '';
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function formatNumber(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/**
 * A 1-bit image at `scale` times its size: each new pixel is ink when ink covers at least half of the area it
 * stands for in the source (a box filter; enlarging, that is the source pixel under its centre).
 */
export function resample(src: Bits, scale: number): Bits {
  const width = Math.max(1, Math.round(src.width * scale));
  const height = Math.max(1, Math.round(src.height * scale));
  const stride = Math.ceil(width / 8);
  const data = new Uint8Array(stride * height);
  const ink = (x: number, y: number): number => (src.data[y * src.stride + (x >> 3)]! >> (7 - (x & 7))) & 1;
  const sx = src.width / width,
    sy = src.height / height;
  for (let ty = 0; ty < height; ty++) {
    const y0 = ty * sy,
      y1 = y0 + sy;
    for (let tx = 0; tx < width; tx++) {
      const x0 = tx * sx,
        x1 = x0 + sx;
      let covered = 0;
      for (let y = Math.floor(y0); y < Math.min(src.height, Math.ceil(y1)); y++) {
        const h = Math.min(y1, y + 1) - Math.max(y0, y);
        for (let x = Math.floor(x0); x < Math.min(src.width, Math.ceil(x1)); x++) {
          if (ink(x, y)) covered += h * (Math.min(x1, x + 1) - Math.max(x0, x));
        }
      }
      if (covered * 2 >= sx * sy) data[ty * stride + (tx >> 3)]! |= 0x80 >> (tx & 7);
    }
  }
  return { data, stride, width, height };
}

/** A bitmap as ^GF/~DG data: `:Z64:` zlib and base64 with its CRC, the byte count and row width it declares. */
function encodeBits(bits: Bits): { data: string; total: number; rowBytes: number } {
  const base64 = deflateSync(bits.data).toString('base64');
  const crc = crc16Xmodem(Buffer.from(base64, 'latin1')).toString(16).toUpperCase().padStart(4, '0');
  return { data: `:Z64:${base64}:${crc}`, total: bits.data.length, rowBytes: bits.stride };
}
