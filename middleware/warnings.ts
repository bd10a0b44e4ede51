// The X-Warnings header: linter diagnostics as `{byteIndex}|{byteSize}|{command}|{param}|{message}`, pipe-joined.

import type { Diagnostic } from '../renderer/index.js';

export const MAX_WARNINGS = 20;

/** Header values must be visible ASCII; anything else (and the separator itself) becomes a space or `?`. */
function headerSafe(text: string): string {
  return text.replace(/[\r\n\t|]/g, ' ').replace(/[^\x20-\x7e]/g, '?');
}

export function formatWarnings(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .slice(0, MAX_WARNINGS)
    .map((d) =>
      [d.byteIndex, d.byteSize, headerSafe(d.command), d.param === 0 ? '' : d.param, headerSafe(d.message)].join('|'),
    )
    .join('|');
}
