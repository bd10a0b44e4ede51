// ZPL laid out as the legacy service's formatter lays it out (X-Formatter: On): ^XA and ^XZ on lines of their own,
// each field (from its first command through ^FS) on one line, every other command on a line of its own (a ^FS
// closing no field stays on the line before it). Field data,
// binary payloads and the prefix characters in force are kept byte for byte, so the labels re-parse the same.

import { claimBytes, UNMETERED, type DecodeMeter } from '../decode/meter.js';
import { commandTable, opensField } from '../commands/index.js';
import { lex, type Token } from '../zpl/lexer.js';
import { latin1 } from '../zpl/params.js';

/** Commands that open a field: the field kinds' commands, and the field assembly and text commands. */
const FIELD_OPENERS = new Set(Object.keys(commandTable).filter((key) => opensField(commandTable[key]!)));

/** Commands whose parameter bytes are printed as they are, spaces included (data and comments). */
const VERBATIM = new Set(['^FD', '^FV', '^FX', '^FC', '^SN', '^SF', '^FH']);

export function layoutZpl(bytes: Uint8Array, meter?: DecodeMeter): Uint8Array {
  const lines: string[] = [];
  let line: string | undefined;
  const flush = (): void => {
    if (line !== undefined) lines.push(line);
    line = undefined;
  };
  // Lexed again and written out: both charged per token by the lexer, the lines claimed with the input's size and
  // the output at its own.
  meter?.claim(bytes.length, 'The laid-out ZPL');
  for (const tok of lex(bytes, meter)) {
    const key = tok.prefix + tok.name;
    const text = tok.stray ? latin1(tok.raw) : commandText(bytes, tok, key);
    if (tok.stray || key === '^XA' || key === '^XZ') {
      flush();
      lines.push(text);
    } else if (line !== undefined) {
      line += text;
      if (key === '^FS') flush();
    } else if (FIELD_OPENERS.has(key)) {
      line = text;
    } else if (key === '^FS' && lines.length > 0 && !/^\S?X[AZ]$/i.test(lines.at(-1)!)) {
      // A ^FS that closes no field stays with what it follows (`^FXcomment^FS`, a ^GF that swallowed its field).
      lines[lines.length - 1] += text;
    } else {
      lines.push(text);
    }
  }
  flush();
  const text = lines.join('\n');
  const out = claimBytes(meter ?? UNMETERED, text.length, 'The laid-out ZPL');
  Buffer.from(out.buffer, out.byteOffset, out.length).write(text, 'latin1');
  return out;
}

/** A command as the document writes it (its prefix character and letter case), line breaks left out. */
function commandText(bytes: Uint8Array, tok: Token, key: string): string {
  const head = latin1(bytes, tok.start, tok.paramStart).replace(/[\r\n]/g, '');
  if (isBinary(tok, key)) return head + latin1(bytes, tok.paramStart, tok.end);
  let params = latin1(tok.raw).replace(/[\r\n]/g, '');
  if (!VERBATIM.has(key)) params = params.replace(/[ \t]+$/, '');
  return head + params;
}

/** Binary payloads (^GF and ~DY in formats B and C, ~DB) may hold any byte: kept exactly. */
function isBinary(tok: Token, key: string): boolean {
  const format = (n: number): string =>
    latin1(tok.raw, 0, Math.min(tok.raw.length, 64))
      .split(String.fromCharCode(tok.delimiter))
      [n]?.trim()
      .toUpperCase() ?? '';
  if (key === '^GF') return format(0) === 'B' || format(0) === 'C';
  if (key === '~DY') return format(1) === 'B' || format(1) === 'C';
  return key === '~DB';
}
