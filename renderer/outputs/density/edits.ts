// Byte edits of a ZPL document: where a command's parameters stand (the lexer's offsets), the replacements that
// rewrite them, and the document with every edit made. Everything not edited is kept as sent.

import { claimBytes, UNMETERED, type DecodeMeter } from '../../decode/meter.js';
import type { Token } from '../../zpl/lexer.js';
import { latin1 } from '../../zpl/params.js';

/** One parameter as written: raw indices [a, b) of the token's parameter bytes. */
export interface Part {
  text: string;
  a: number;
  b: number;
}

/** A replacement of document bytes [start, end) (an insertion when they are equal). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Parameters at the delimiter, as raw index ranges (at most `maxParts`, the last one taking the rest). */
export function splitParts(tok: Token, skip: number, maxParts = Infinity): Part[] {
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

/** Document offset of a part's first byte (or where it would be, when empty). */
export function partStart(tok: Token, part: Part): number {
  if (part.a < tok.raw.length) return tok.offsets[part.a]!;
  return tok.raw.length ? tok.offsets[tok.raw.length - 1]! + 1 : tok.paramStart;
}

/** Document offset just past a part's last byte. */
export function partEnd(tok: Token, part: Part): number {
  return part.b > part.a ? tok.offsets[part.b - 1]! + 1 : partStart(tok, part);
}

/** Replaces the trimmed value of a part, keeping the spaces around it. */
export function replacePart(tok: Token, part: Part, text: string): Edit {
  let a = part.a,
    b = part.b;
  while (a < b && tok.raw[a]! <= 0x20) a++;
  while (b > a && tok.raw[b - 1]! <= 0x20) b--;
  return { start: tok.offsets[a]!, end: tok.offsets[b - 1]! + 1, text };
}

/** The token's prefix character as the document writes it (after ^CC/^CT it may be another one). */
export function prefixOf(bytes: Uint8Array, tok: Token, fallback: string): string {
  return tok.start < bytes.length ? String.fromCharCode(bytes[tok.start]!) : fallback;
}

/** End of a payload without the line breaks and spaces before the next command (kept as sent). */
export function dataEnd(bytes: Uint8Array, tok: Token): number {
  let end = tok.end;
  while (end > tok.paramStart && isSpace(bytes[end - 1]!)) end--;
  return end;
}

/** A part that is a whole number, as written (no sign, no spaces inside). */
export function intOf(part: Part | undefined): number | undefined {
  const t = part?.text.trim() ?? '';
  return /^\d+$/.test(t) ? Number(t) : undefined;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

/**
 * The document with every edit made, in order (edits never overlap: each rewrites its own parameter), written once
 * into bytes claimed on `meter`.
 */
export function applyEdits(bytes: Uint8Array, edits: Edit[], meter: DecodeMeter = UNMETERED): Uint8Array {
  const sorted = edits.sort((x, y) => x.start - y.start || x.end - y.end);
  let size = 0,
    at = 0;
  for (const e of sorted) {
    size += bytes.subarray(at, e.start).length + e.text.length;
    at = e.end;
  }
  size += bytes.subarray(at).length;
  const out = claimBytes(meter, size, 'The converted ZPL');
  const text = Buffer.from(out.buffer, out.byteOffset, out.length);
  let o = 0;
  at = 0;
  for (const e of sorted) {
    const kept = bytes.subarray(at, e.start);
    out.set(kept, o);
    o += kept.length;
    o += text.write(e.text, o, 'latin1');
    at = e.end;
  }
  out.set(bytes.subarray(at), o);
  return out;
}
