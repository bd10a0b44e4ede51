// Reading one environment variable's value: what every settings reader shares, so each variable's error names it
// the same way (`ERROR: PORT must be ..., not ...`).

/** A decimal integer (no 0x10, 1e6, 1.0 or +5): Number() would take them all and mean something else. */
export function optionalNumber(env: NodeJS.ProcessEnv, name: string, valid: (n: number) => boolean, what: string): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || !valid(value)) throw new Error(`${name} must be ${what}, not ${env[name]}`);
  return value;
}
