// Reading one environment variable's value: what every settings reader shares, so each variable's error names it
// the same way (`ERROR: PORT must be ..., not ...`). Names are the table's (server/variables.ts).

import type { ServerEnv, ServerVariable } from './variables.js';

/** A decimal integer (no 0x10, 1e6, 1.0 or +5): Number() would take them all and mean something else. */
export function optionalNumber(
  env: ServerEnv,
  name: ServerVariable,
  valid: (n: number) => boolean,
  what: string,
): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || !valid(value)) throw new Error(`${name} must be ${what}, not ${env[name]}`);
  return value;
}

/** A URL with one of `protocols`, named by its variable when it is not one. */
export function optionalUrl(
  env: ServerEnv,
  name: ServerVariable,
  protocols: string[],
  what: string,
): string | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  return checkedUrl(text, name, protocols, what);
}

/** `text` when it is a URL with one of `protocols`; else an error naming `name` (a variable, or a flag of zpl-keys). */
export function checkedUrl(text: string, name: string, protocols: string[], what: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !protocols.includes(parsed.protocol) || parsed.hostname === '') {
    throw new Error(`${name} must be ${what}, not ${redactedText(text)}`);
  }
  return text;
}

/** A value shown in an error without what looks like a password (user:password@). */
function redactedText(text: string): string {
  return text.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
