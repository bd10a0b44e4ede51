// The X-Warnings header: linter diagnostics as `{byteIndex}|{byteSize}|{command}|{param}|{message}`, pipe-joined.
// Capped per message and as a whole, so an object name of 100 KB cannot make a header that HTTP clients
// refuse (Node's own client accepts 16 KB of headers in all): records that do not fit are left out whole.

import type { Diagnostic, DiagnosticsOmitted } from '../../renderer/index.js';

export const MAX_WARNINGS = 20;
/** Commands named one by one in X-Warnings-Omitted-Commands; the rest are counted together under `*`. */
export const MAX_OMITTED_COMMANDS = 10;
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
  return shownWarnings(diagnostics).header;
}

/** The X-Warnings value and how many of the diagnostics it shows: the first ones, as many as fit. */
function shownWarnings(diagnostics: readonly Diagnostic[]): { header: string; shown: number } {
  let header = '';
  let shown = 0;
  for (const d of diagnostics.slice(0, MAX_WARNINGS)) {
    const record = formatRecord(d);
    const next = header === '' ? record : `${header}|${record}`;
    if (next.length > MAX_WARNINGS_HEADER_BYTES) break;
    header = next;
    shown++;
  }
  return { header, shown };
}

/** The linter's answer headers: X-Warnings, and what it leaves out (X-Warnings-Omitted, by command). */
export interface WarningHeaders {
  'X-Warnings'?: string;
  'X-Warnings-Omitted'?: number;
  'X-Warnings-Omitted-Commands'?: string;
}

/**
 * X-Warnings of the diagnostics listed (in order), and with the linter on, how many are not in it: the listed ones
 * past the records it shows, plus those the renderer counted without keeping (`counted`).
 */
export function warningHeaders(
  listed: readonly Diagnostic[],
  counted: DiagnosticsOmitted | undefined,
  linter: boolean,
): WarningHeaders {
  if (listed.length === 0 && counted === undefined) return {};
  const { header, shown } = shownWarnings(listed);
  const headers: WarningHeaders = header === '' ? {} : { 'X-Warnings': header };
  if (!linter || (shown === listed.length && counted === undefined)) return headers;
  const byCommand = new Map<string, number>();
  for (let i = shown; i < listed.length; i++) {
    const command = listed[i]!.command;
    byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
  }
  for (const [command, n] of Object.entries(counted?.byCommand ?? {})) {
    byCommand.set(command, (byCommand.get(command) ?? 0) + n);
  }
  headers['X-Warnings-Omitted'] = listed.length - shown + (counted?.total ?? 0);
  headers['X-Warnings-Omitted-Commands'] = commandCounts(byCommand);
  return headers;
}

/** `{command}|{count}` pairs, most first (ties in the order met), past MAX_OMITTED_COMMANDS folded into `*`. */
function commandCounts(byCommand: ReadonlyMap<string, number>): string {
  const ranked = [...byCommand].sort((a, b) => b[1] - a[1]);
  const named = ranked.slice(0, MAX_OMITTED_COMMANDS);
  const rest = ranked.slice(MAX_OMITTED_COMMANDS).reduce((sum, [, n]) => sum + n, 0);
  if (rest > 0) {
    const other = named.find(([command]) => command === '*');
    if (other) other[1] += rest;
    else named.push(['*', rest]);
  }
  return named.map(([command, n]) => `${shortened(headerSafe(command), MAX_COMMAND_LENGTH)}|${n}`).join('|');
}
