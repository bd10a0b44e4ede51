// The X-Warnings header: linter diagnostics as `{byteIndex}|{byteSize}|{command}|{param}|{message}`, pipe-joined.
// Capped per message and as a whole, so an object name of 100 KB cannot make a header that HTTP clients
// refuse (Node's own client accepts 16 KB of headers in all): records that do not fit are left out whole.

import type { Diagnostic } from '../../renderer/index.js';

export const MAX_WARNINGS = 20;
/** Longest message in a record; longer ones end in `...`. */
export const MAX_WARNING_MESSAGE_LENGTH = 256;
/** Longest whole header value (bytes; the value is ASCII). */
export const MAX_WARNINGS_HEADER_BYTES = 8 * 1024;
const MAX_COMMAND_LENGTH = 16;
const ELLIPSIS = '...';

/** Header values must be visible ASCII; anything else (and the separator itself) becomes a space or `?`. */
function headerSafe(text: string): string {
  return text.replace(/[\r\n\t|]/g, ' ').replace(/[^\x20-\x7e]/g, '?');
}

/** ASCII text cut to `max` characters, marked with an ellipsis when cut. */
function shortened(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - ELLIPSIS.length) + ELLIPSIS;
}

function formatRecord(d: Diagnostic): string {
  const command = shortened(headerSafe(d.command), MAX_COMMAND_LENGTH);
  const message = shortened(headerSafe(d.message), MAX_WARNING_MESSAGE_LENGTH);
  return [d.byteIndex, d.byteSize, command, d.param === 0 ? '' : d.param, message].join('|');
}

export function formatWarnings(diagnostics: readonly Diagnostic[]): string {
  let header = '';
  for (const d of diagnostics.slice(0, MAX_WARNINGS)) {
    const record = formatRecord(d);
    const next = header === '' ? record : `${header}|${record}`;
    if (next.length > MAX_WARNINGS_HEADER_BYTES) break;
    header = next;
  }
  return header;
}
