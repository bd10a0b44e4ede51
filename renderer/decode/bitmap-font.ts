// The glyph data of a ~DB bitmap font: `#xxxx.h.w.x.y.i.data` per character (ZPL II guide), where xxxx is the
// character code in hex, h x w the bitmap's rows and dots, (x, y) its offset from the pen at the cell's top, i the
// pen's advance and data the rows as ASCII hex, each row padded to whole bytes.

import type { Bitmap, DecodeReport } from './grf.js';
import { claimBytes, type DecodeMeter } from './meter.js';

export interface BitmapGlyph {
  bits: Bitmap;
  /** Dots from the pen to the bitmap's left column (may be negative). */
  x: number;
  /** Dots from the cell's top to the bitmap's top row (may be negative). */
  y: number;
  /** Typesetting motion: the pen's advance, inter-character gap included. */
  advance: number;
}

export interface BitmapFont {
  /** Identifies this download in glyph-cache keys (two requests may store different fonts under one name). */
  readonly id: string;
  /** Cell height and width in dots (the units of ^A magnification). */
  cellHeight: number;
  cellWidth: number;
  /** Dots from the cell's top to the baseline. */
  baseline: number;
  /** Advance of a space and of characters the font lacks. */
  space: number;
  glyphs: ReadonlyMap<number, BitmapGlyph>;
}

export interface BitmapFontHeader {
  cellHeight: number;
  cellWidth: number;
  baseline: number;
  space: number;
  /** Characters the header declares (the guide: must match those sent). */
  charCount?: number;
}

let nextId = 0;

const HASH = 0x23;
const DOT = 0x2e;

/** A hex digit's value, -1 for anything else. The letter O counts as zero: the guide's own ~DB example writes `OOFF`. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l === 0x6f) return 0;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** A decimal field of a glyph header; NaN when it is not a whole number (`signed`: offsets may be negative). */
function wholeNumber(s: string, signed = false): number {
  return (signed ? /^\s*-?\d{1,5}\s*$/ : /^\s*\d{1,5}\s*$/).test(s) ? Number(s) : NaN;
}

const MALFORMED = 'Bitmap font character is not #code.height.width.x.y.advance.data; skipped';

/** Largest glyph side accepted: the guide's cell limit. */
const MAX_SIDE = 32000;

/**
 * Reads every glyph of `data` (the bytes after the header's copyright). Each bitmap's bytes are claimed from `meter`
 * (for `what`) before it is allocated, and each glyph's bytes and bitmap are charged; a malformed glyph is reported
 * and skipped, never thrown.
 */
export function decodeBitmapFont(
  header: BitmapFontHeader,
  data: Uint8Array,
  report: DecodeReport,
  meter: DecodeMeter,
  what = 'Bitmap font',
): BitmapFont {
  const glyphs = new Map<number, BitmapGlyph>();
  let i = data.indexOf(HASH);
  while (i >= 0) {
    const start = i;
    const next = data.indexOf(HASH, i + 1);
    const end = next < 0 ? data.length : next;
    // Six dot-separated fields, then the hex rows.
    const fields: string[] = [];
    let k = i + 1,
      a = k;
    while (k < end && fields.length < 6) {
      if (data[k] === DOT) {
        fields.push(Buffer.from(data.subarray(a, k)).toString('latin1'));
        a = k + 1;
      }
      k++;
    }
    i = next;
    meter.charge(end - start);
    if (fields.length < 6) {
      report(start, end - start, MALFORMED);
      continue;
    }
    const code = fields.length === 6 && /^\s*[0-9A-Fa-f]{1,4}\s*$/.test(fields[0]) ? parseInt(fields[0], 16) : NaN;
    const [h, w, advance] = [fields[1], fields[2], fields[5]].map((f) => wholeNumber(f ?? ''));
    const [x, y] = [fields[3], fields[4]].map((f) => wholeNumber(f ?? '', true));
    if (
      !(code >= 0) ||
      ![h, w, advance].every((v) => v >= 0) ||
      !Number.isFinite(x) ||
      !Number.isFinite(y) ||
      h > MAX_SIDE ||
      w > MAX_SIDE
    ) {
      report(start, end - start, MALFORMED);
      continue;
    }
    const stride = Math.ceil(w / 8);
    const out = claimBytes(meter, stride * h, what);
    meter.charge(stride * h + h);
    let nibble = 0;
    for (let p = k; p < end && nibble < out.length * 2; p++) {
      const v = hexValue(data[p]);
      if (v < 0) continue; // line breaks and spaces between rows
      out[nibble >> 1] |= nibble & 1 ? v : v << 4;
      nibble++;
    }
    if (nibble < out.length * 2)
      report(
        start,
        end - start,
        `Bitmap font character ${fields[0].trim()} has ${nibble >> 1} of ${out.length} bytes; the rest is blank`,
      );
    // Bits past the glyph's width in the last byte of a row are not ink.
    if (w % 8) for (let r = 0; r < h; r++) out[r * stride + stride - 1] &= 0xff << (8 - (w % 8));
    glyphs.set(code, { bits: { data: out, stride, width: w, height: h }, x, y, advance });
  }
  if (header.charCount !== undefined && header.charCount !== glyphs.size) {
    report(0, data.length, `Bitmap font declares ${header.charCount} characters; ${glyphs.size} were read`);
  }
  return {
    id: `db#${nextId++}`,
    cellHeight: header.cellHeight,
    cellWidth: header.cellWidth,
    baseline: header.baseline,
    space: header.space,
    glyphs,
  };
}
