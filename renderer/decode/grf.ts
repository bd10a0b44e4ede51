// Graphic data as ^GF, ~DG and ~DY carry it: ASCII hex with Zebra's run-length compression,
// raw binary, or `:Z64:`/`:B64:` base64 payloads with a CRC. Decodes to a 1-bit bitmap.

import { inflateSync, inflateRawSync } from 'node:zlib';
import { RenderError } from '../errors.js';

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
  if (bytes > MAX_OBJECT_BYTES) {
    throw new RenderError(
      'too-large',
      `${what} is ${bytes} bytes; the maximum object size is ${MAX_OBJECT_BYTES} bytes`,
    );
  }
}

/** Bytes decodeGraphic allocates for a graphic of `totalBytes` in rows of `rowBytes` (claim them first). */
export function bitmapBytes(totalBytes: number, rowBytes: number): number {
  const stride = Math.max(1, rowBytes);
  return stride * Math.ceil(Math.max(0, totalBytes) / stride);
}

/**
 * Decodes graphic data of `totalBytes` bytes in rows of `rowBytes`. `binary` data (^GF B/C, ~DY B)
 * is taken byte for byte unless it is a base64 payload.
 */
/**
 * What a graphic whose data stops short of its declared size draws: the rows that arrived (downloads), or
 * nothing (^GF in the legacy service). Compressed :Z64:/:B64: data keeps the rows that arrived either way: the
 * guide treats a CRC mismatch as an aborted download that the printer "can" invalidate, which the legacy
 * service was not seen to do, so that case is left as it was.
 */
export type ShortData = 'blank-rest' | 'draw-nothing';

export function decodeGraphic(
  data: Uint8Array,
  totalBytes: number,
  rowBytes: number,
  binary: boolean,
  report?: DecodeReport,
  short: ShortData = 'blank-rest',
): Bitmap {
  checkObjectSize(totalBytes, 'Graphic');
  const stride = Math.max(1, rowBytes);
  const height = Math.ceil(Math.max(0, totalBytes) / stride);
  const bmp: Bitmap = { data: new Uint8Array(stride * height), stride, width: stride * 8, height };
  const lead = skipSpace(data, 0);
  if (isBase64Header(data, lead)) {
    const bytes = decodeBase64Payload(data, lead, report);
    copyBytes(bmp, bytes, totalBytes, data.length, report);
  } else if (binary) {
    copyBytes(bmp, data, totalBytes, data.length, report, short);
  } else {
    decodeAsciiHex(bmp, data, totalBytes, report, short);
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

/** `:Z64:<base64 of zlib data>:<crc>` or `:B64:<base64>:<crc>`; the CRC is CRC-16/XMODEM of the base64 text. */
export function decodeBase64Payload(d: Uint8Array, start: number, report?: DecodeReport): Uint8Array {
  const zlib = String.fromCharCode(d[start + 1]).toUpperCase() === 'Z';
  const bodyStart = start + 5;
  let bodyEnd = bodyStart;
  while (bodyEnd < d.length && d[bodyEnd] !== 0x3a) bodyEnd++;
  const body = d.subarray(bodyStart, bodyEnd);
  const text = stripSpace(body);
  if (bodyEnd < d.length) {
    const crcText = latin1(d.subarray(bodyEnd + 1)).trim();
    const expected = Number.parseInt(crcText, 16);
    const actual = crc16Xmodem(text);
    if (crcText !== '' && (!/^[0-9A-Fa-f]{1,4}$/.test(crcText) || expected !== actual)) {
      report?.(
        bodyEnd + 1,
        d.length - bodyEnd - 1,
        `CRC ${crcText} does not match the data (expected ${actual.toString(16).toUpperCase().padStart(4, '0')})`,
      );
    }
  }
  const raw = Buffer.from(latin1(text), 'base64');
  if (!zlib) return new Uint8Array(raw);
  try {
    return new Uint8Array(inflateSync(raw, { maxOutputLength: MAX_OBJECT_BYTES + 1 }));
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      checkObjectSize(MAX_OBJECT_BYTES + 1, 'Decompressed graphic');
    try {
      return new Uint8Array(inflateRawSync(raw, { maxOutputLength: MAX_OBJECT_BYTES + 1 }));
    } catch {
      report?.(bodyStart, body.length, 'Z64 data could not be decompressed');
      return new Uint8Array(0);
    }
  }
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0), as Zebra computes it over the base64 text. */
export function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
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
 */
function decodeAsciiHex(
  bmp: Bitmap,
  d: Uint8Array,
  totalBytes: number,
  report?: DecodeReport,
  short: ShortData = 'blank-rest',
): void {
  const rowNibbles = bmp.stride * 2;
  const totalNibbles = totalBytes * 2;
  const out = bmp.data;
  let pos = 0; // nibble index into the bitmap
  let count = 0;
  let overflowAt = -1;
  const put = (v: number, at: number): void => {
    if (pos >= totalNibbles) {
      if (overflowAt < 0) overflowAt = at;
      return;
    }
    if (v) out[pos >> 1] |= pos & 1 ? v : v << 4;
    pos++;
  };
  const endRow = (v: number, at: number): void => {
    const rest = rowNibbles - (pos % rowNibbles);
    // A fill at the very start of a row fills that whole row.
    for (let k = 0; k < rest; k++) put(v, at);
  };
  for (let i = 0; i < d.length; i++) {
    const c = d[i];
    if (c === 0x20 || c === 0x0d || c === 0x0a || c === 0x09) continue;
    const h = hexValue(c);
    if (h >= 0) {
      const n = count || 1;
      count = 0;
      for (let k = 0; k < n; k++) put(h, i);
      continue;
    }
    const r = repeatCount(c);
    if (r) {
      count += r;
      continue;
    }
    count = 0;
    if (c === 0x2c) endRow(0, i);
    else if (c === 0x21) endRow(15, i);
    else if (c === 0x3a) {
      // Repeat the previous row (from where this row stands, to its end).
      const rest = rowNibbles - (pos % rowNibbles);
      for (let k = 0; k < rest; k++) {
        const src = pos - rowNibbles;
        const v = src < 0 ? 0 : (out[src >> 1] >> (src & 1 ? 0 : 4)) & 15;
        put(v, i);
      }
    } else report?.(i, 1, `Invalid character ${JSON.stringify(String.fromCharCode(c))} in graphic data; ignored`);
  }
  if (overflowAt >= 0)
    report?.(
      overflowAt,
      d.length - overflowAt,
      `Graphic data is longer than the ${totalBytes} bytes declared; the rest is ignored`,
    );
  else if (pos < totalNibbles) reportShort(bmp, Math.floor(pos / 2), totalBytes, d.length, report, short);
}

function stripSpace(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  let k = 0;
  for (const c of b) if (c !== 0x20 && c !== 0x0d && c !== 0x0a && c !== 0x09) out[k++] = c;
  return out.subarray(0, k);
}

function latin1(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += String.fromCharCode(c);
  return s;
}
