// Graphic data as ^GF, ~DG and ~DY carry it: ASCII hex with Zebra's run-length compression,
// raw binary, or `:Z64:`/`:B64:` base64 payloads with a CRC. Decodes to a 1-bit bitmap.

import { inflateSync, inflateRawSync } from 'node:zlib';
import { RenderError } from '../errors.js';
import { claimBytes, type DecodeMeter } from './meter.js';

/** 1-bit rows, MSB first; set bits are ink. */
export interface Bitmap {
  data: Uint8Array;
  stride: number;
  width: number;
  height: number;
}

/** Whether a pixel is ink: its luminance, composited on white by its alpha (0..255), is below half (PNG and BMP images). */
export function darkOnWhite(r: number, g: number, b: number, a: number): boolean {
  const lum = 0.299 * r + 0.587 * g + 0.114 * b;
  return (lum * a + 255 * (255 - a)) / 255 < 128;
}

/** A problem found while decoding, at `at` (index into the data bytes) spanning `size` bytes. */
export type DecodeReport = (at: number, size: number, message: string) => void;

/** The legacy service refuses stored objects and graphic fields above 2 MB. */
export const MAX_OBJECT_BYTES = 2 * 1024 * 1024;

/** Checks a declared or actual object size against the object budget. */
export function checkObjectSize(bytes: number, what: string): void {
  if (bytes > MAX_OBJECT_BYTES) throw objectTooLarge(bytes, what);
}

function objectTooLarge(bytes: number, what: string): RenderError {
  return new RenderError(
    'too-large',
    `${what} is ${bytes} bytes; the maximum object size is ${MAX_OBJECT_BYTES} bytes`,
  );
}

/** Bytes decodeGraphic allocates for a graphic of `totalBytes` in rows of `rowBytes` (claim them first). */
export function bitmapBytes(totalBytes: number, rowBytes: number): number {
  const stride = Math.max(1, rowBytes);
  return stride * Math.ceil(Math.max(0, totalBytes) / stride);
}

/**
 * What a graphic whose data stops short of its declared size draws: the rows that arrived (downloads), or
 * nothing (^GF in the legacy service). Compressed :Z64:/:B64: data keeps the rows that arrived either way: the
 * guide treats a CRC mismatch as an aborted download that the printer "can" invalidate, which the legacy
 * service was not seen to do, so that case is left as it was.
 */
export type ShortData = 'blank-rest' | 'draw-nothing';

/** A graphic's header as its command declares it. */
export interface GraphicSpec {
  /** Bytes of the bitmap, and bytes a row (both as declared: they size the bitmap, never the data). */
  totalBytes: number;
  rowBytes: number;
  /** ^GF B/C, ~DY B: bytes taken one for one unless they are a base64 payload. */
  binary: boolean;
  /** What data short of its declared size draws (default `blank-rest`). */
  short?: ShortData;
  /** Names the graphic where the budget refuses it (`Graphic`, `Object R:LOGO.GRF`). */
  what: string;
}

/** Input bytes plus output nibbles between two charges of the meter while expanding ASCII hex. */
const HEX_CHUNK = 4096;

/**
 * Decodes graphic data into a bitmap of the declared size: the bitmap is claimed from `meter` before it is made,
 * and no run-length code or compressed stream writes (or spends work) past it.
 */
export function decodeGraphic(data: Uint8Array, spec: GraphicSpec, meter: DecodeMeter, report?: DecodeReport): Bitmap {
  const { totalBytes, rowBytes, binary, short = 'blank-rest', what } = spec;
  checkObjectSize(totalBytes, 'Graphic');
  const stride = Math.max(1, rowBytes);
  const height = Math.ceil(Math.max(0, totalBytes) / stride);
  const bmp: Bitmap = { data: claimBytes(meter, stride * height, what), stride, width: stride * 8, height };
  const lead = skipSpace(data, 0);
  if (isBase64Header(data, lead)) {
    const bytes = decodeBase64Payload(data, lead, { declared: totalBytes, what }, meter, report);
    copyBytes(bmp, bytes, totalBytes, data.length, report);
  } else if (binary) {
    meter.charge(data.length);
    copyBytes(bmp, data, totalBytes, data.length, report, short);
  } else {
    decodeAsciiHex(bmp, data, totalBytes, meter, report, short);
  }
  return bmp;
}

/** The diagnostic for data short of its declared size, after clearing the bitmap when nothing is drawn. */
function reportShort(
  bmp: Bitmap,
  got: number,
  totalBytes: number,
  span: number,
  report: DecodeReport | undefined,
  short: ShortData,
): void {
  if (short === 'draw-nothing') bmp.data.fill(0);
  report?.(
    0,
    span,
    `Graphic data has ${got} of ${totalBytes} bytes; ${short === 'draw-nothing' ? 'nothing drawn' : 'the rest is blank'}`,
  );
}

function copyBytes(
  bmp: Bitmap,
  bytes: Uint8Array,
  totalBytes: number,
  span: number,
  report?: DecodeReport,
  short: ShortData = 'blank-rest',
): void {
  bmp.data.set(bytes.subarray(0, Math.min(bytes.length, bmp.data.length)));
  if (bytes.length < totalBytes) reportShort(bmp, bytes.length, totalBytes, span, report, short);
  else if (bytes.length > totalBytes)
    report?.(
      0,
      span,
      `Graphic data has ${bytes.length} bytes, more than the ${totalBytes} declared; the rest is ignored`,
    );
}

function skipSpace(d: Uint8Array, i: number): number {
  while (i < d.length && (d[i] === 0x20 || d[i] === 0x0d || d[i] === 0x0a || d[i] === 0x09)) i++;
  return i;
}

function isBase64Header(d: Uint8Array, i: number): boolean {
  if (i + 5 > d.length || d[i] !== 0x3a || d[i + 4] !== 0x3a) return false;
  const tag = String.fromCharCode(d[i + 1], d[i + 2], d[i + 3]).toUpperCase();
  return tag === 'Z64' || tag === 'B64';
}

/** What a base64 payload is said to hold: its size once decoded, and a name for the budget's refusals. */
export interface PayloadSpec {
  declared: number;
  what: string;
}

/**
 * `:Z64:<base64 of zlib data>:<crc>` or `:B64:<base64>:<crc>`; the CRC is CRC-16/XMODEM of the base64 text.
 * Compressed data is inflated to one byte past its declared size; only data that runs past it is inflated again,
 * to the object limit, that bigger buffer claimed first (a report then says how long the data was).
 */
export function decodeBase64Payload(
  d: Uint8Array,
  start: number,
  spec: PayloadSpec,
  meter: DecodeMeter,
  report?: DecodeReport,
): Uint8Array {
  const zlib = String.fromCharCode(d[start + 1]).toUpperCase() === 'Z';
  const bodyStart = start + 5;
  let bodyEnd = bodyStart;
  while (bodyEnd < d.length && d[bodyEnd] !== 0x3a) bodyEnd++;
  const body = d.subarray(bodyStart, bodyEnd);
  meter.charge(d.length - start);
  if (bodyEnd < d.length) {
    const crcText = latin1(d.subarray(bodyEnd + 1)).trim();
    const expected = Number.parseInt(crcText, 16);
    const actual = crc16Xmodem(body, true);
    if (crcText !== '' && (!/^[0-9A-Fa-f]{1,4}$/.test(crcText) || expected !== actual)) {
      report?.(
        bodyEnd + 1,
        d.length - bodyEnd - 1,
        `CRC ${crcText} does not match the data (expected ${actual.toString(16).toUpperCase().padStart(4, '0')})`,
      );
    }
  }
  // Read in place, no copy without the white space: Node's base64 decoder skips it (its documented behaviour).
  const raw = Buffer.from(latin1(body), 'base64');
  // The decoded bytes as they came: a view, not a second copy.
  if (!zlib) return new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
  const bytes = inflateBounded(raw, spec, meter);
  if (bytes) return bytes;
  report?.(bodyStart, body.length, 'Z64 data could not be decompressed');
  return new Uint8Array(0);
}

type Inflate = (raw: Buffer, options: { maxOutputLength: number }) => Buffer;

/** zlib data, or failing that raw deflate data, inflated within the declared size (see decodeBase64Payload). */
function inflateBounded(raw: Buffer, { declared, what }: PayloadSpec, meter: DecodeMeter): Uint8Array | undefined {
  const fits = Math.min(Math.max(0, declared), MAX_OBJECT_BYTES) + 1;
  for (const inflate of [inflateSync, inflateRawSync] as Inflate[]) {
    let out = inflateWithin(inflate, raw, fits);
    if (out === 'too-large' && fits <= MAX_OBJECT_BYTES) {
      meter.claim(MAX_OBJECT_BYTES + 1, `${what} (data past its declared ${declared} bytes)`);
      out = inflateWithin(inflate, raw, MAX_OBJECT_BYTES + 1);
    }
    if (out === 'too-large') throw objectTooLarge(MAX_OBJECT_BYTES + 1, 'Decompressed graphic');
    if (out === 'unreadable') continue;
    meter.charge(out.length);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  return undefined;
}

function inflateWithin(inflate: Inflate, raw: Buffer, limit: number): Buffer | 'too-large' | 'unreadable' {
  try {
    return inflate(raw, { maxOutputLength: limit });
  } catch (e) {
    return (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'unreadable';
  }
}

/**
 * CRC-16/XMODEM (polynomial 0x1021, initial 0), as Zebra computes it over the base64 text; `skipSpace` leaves out
 * the spaces, tabs and line breaks between its lines (the text read where it lies).
 */
export function crc16Xmodem(bytes: Uint8Array, skipSpace = false): number {
  let crc = 0;
  for (const b of bytes) {
    if (skipSpace && (b === 0x20 || b === 0x0d || b === 0x0a || b === 0x09)) continue;
    crc ^= b << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Run-length counts: G..Y are 1..19, g..z are 20..400 in steps of 20; they add up before a hex digit. */
function repeatCount(c: number): number {
  if (c >= 0x47 && c <= 0x59) return c - 0x46;
  if (c >= 0x67 && c <= 0x7a) return (c - 0x66) * 20;
  return 0;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * ASCII hex with compression: a repeat count before a digit repeats it; `,` ends the row with zeros,
 * `!` ends it with ones, `:` repeats the previous row. Rows are `stride` bytes (2 x stride digits).
 * Every code writes at most what is left of the declared size: past it a code costs one step, not its expansion.
 */
function decodeAsciiHex(
  bmp: Bitmap,
  d: Uint8Array,
  totalBytes: number,
  meter: DecodeMeter,
  report?: DecodeReport,
  short: ShortData = 'blank-rest',
): void {
  const rowNibbles = bmp.stride * 2;
  const totalNibbles = totalBytes * 2;
  const out = bmp.data;
  let pos = 0; // nibble index into the bitmap
  let count = 0;
  let overflowAt = -1;
  let charged = 0; // input bytes read plus nibbles written, as charged so far
  for (let i = 0; i < d.length; i++) {
    if (i + pos - charged >= HEX_CHUNK) {
      meter.charge(i + pos - charged);
      charged = i + pos;
    }
    const c = d[i]!;
    if (c === 0x20 || c === 0x0d || c === 0x0a || c === 0x09) continue;
    const h = hexValue(c);
    if (h >= 0 && count === 0 && pos < totalNibbles) {
      // One digit, the common case.
      if (h) out[pos >> 1]! |= pos & 1 ? h : h << 4;
      pos++;
      continue;
    }
    let n: number; // nibbles this code writes
    let v = 0; // their value; -1 repeats the row above
    if (h >= 0) {
      n = count || 1;
      v = h;
    } else {
      const r = repeatCount(c);
      if (r) {
        count += r;
        continue;
      }
      // `,` `!` `:` run to the end of the row; at the very start of a row they fill that whole row.
      n = rowNibbles - (pos % rowNibbles);
      if (c === 0x21) v = 15;
      else if (c === 0x3a) v = -1;
      else if (c !== 0x2c) {
        count = 0;
        report?.(i, 1, `Invalid character ${JSON.stringify(String.fromCharCode(c))} in graphic data; ignored`);
        continue;
      }
    }
    count = 0;
    if (n > totalNibbles - pos) {
      if (overflowAt < 0) overflowAt = i;
      n = totalNibbles - pos;
    }
    pos = v < 0 ? repeatRow(out, pos, n, rowNibbles) : fillNibbles(out, pos, n, v);
  }
  meter.charge(d.length + pos - charged);
  if (overflowAt >= 0)
    report?.(
      overflowAt,
      d.length - overflowAt,
      `Graphic data is longer than the ${totalBytes} bytes declared; the rest is ignored`,
    );
  else if (pos < totalNibbles) reportShort(bmp, Math.floor(pos / 2), totalBytes, d.length, report, short);
}

/** Writes nibble `v` `n` times from nibble `pos`; returns the position after them. */
function fillNibbles(out: Uint8Array, pos: number, n: number, v: number): number {
  const end = pos + n;
  if (v) for (; pos < end; pos++) out[pos >> 1]! |= pos & 1 ? v : v << 4;
  return end;
}

/** Copies `n` nibbles from the row above (zeros above the first row); returns the position after them. */
function repeatRow(out: Uint8Array, pos: number, n: number, rowNibbles: number): number {
  for (const end = pos + n; pos < end; pos++) {
    const src = pos - rowNibbles;
    const v = src < 0 ? 0 : (out[src >> 1]! >> (src & 1 ? 0 : 4)) & 15;
    if (v) out[pos >> 1]! |= pos & 1 ? v : v << 4;
  }
  return pos;
}

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');
}
