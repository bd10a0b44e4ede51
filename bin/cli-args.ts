// The command lines of zpl-server, zpl-render and zpl-keys: flags read from one table per CLI, `--help` and
// `--version`, and every mistake answered in one line that names the flag and what it takes (exit status 2).

import { readFileSync } from 'node:fs';

/** A mistake in the command line: the CLI prints one `ERROR: ...` line and exits with status 2. */
export class UsageError extends Error {}

/** The exit status of a command line that cannot be run as given. */
export const USAGE_EXIT = 2;

/** One flag of a CLI: a switch when it has no `takes`, else a flag with a value. */
export interface FlagSpec {
  /** What its value is, as the usage and the errors say it (`6, 8, 12 or 24`, `a positive whole number`). */
  takes?: string;
  /** Its one-letter form (`o` for `-o`). */
  short?: string;
}

export interface CommandLine {
  /** Each flag given, by long name: its value, or true for a switch (given twice, the last one counts). */
  flags: Map<string, string | true>;
  positionals: string[];
}

/** A value as an error line shows it: on one line, quoted when it is empty or holds spaces or control characters. */
export function shown(value: string): string {
  return value === '' || /[\s\p{Cc}"]/u.test(value) ? JSON.stringify(value) : value;
}

/** `a, b or c`: values as a flag's `takes` lists them. */
export function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** `--rps takes a positive whole number, not -3`. */
export function badValue(flag: string, takes: string, value: string): UsageError {
  return new UsageError(`${flag} takes ${takes}, not ${shown(value)}`);
}

/** An argument that is an option rather than a value: `--x`, `-x` (a lone `-` and negative numbers are values). */
const looksLikeOption = (arg: string): boolean => /^--[^-]|^-[A-Za-z]/.test(arg);

/**
 * Reads `argv` against `specs` (long names without `--`). `--name value`, `--name=value` and `-o value` are read;
 * `--` ends the flags. An unknown flag, a value missing or given to a switch is a UsageError naming the flag.
 */
export function parseCommandLine(
  program: string,
  argv: readonly string[],
  specs: Record<string, FlagSpec>,
): CommandLine {
  const byShort = new Map(Object.entries(specs).flatMap(([name, spec]) => (spec.short ? [[spec.short, name]] : [])));
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    const long = /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg);
    const name = long ? long[1]! : byShort.get(arg.slice(1));
    const spec = name === undefined ? undefined : specs[name];
    if (name === undefined || spec === undefined || (long === null && arg.length !== 2)) {
      throw new UsageError(`unknown option ${shown(arg)} (${program} --help lists the options)`);
    }
    const flag = long ? `--${name}` : arg;
    const inline = long?.[2];
    if (spec.takes === undefined) {
      if (inline !== undefined) throw new UsageError(`${flag} is a switch and takes no value, not ${shown(inline)}`);
      flags.set(name, true);
      continue;
    }
    if (inline !== undefined) {
      flags.set(name, inline);
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined || looksLikeOption(next)) throw new UsageError(`${flag} needs a value: ${spec.takes}`);
    flags.set(name, next);
    i++;
  }
  return { flags, positionals };
}

/** The package's version, from the package.json two folders above dist/bin. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * `--help` (`-h`) prints `usage` and `--version` prints the version, both to standard output with exit status 0,
 * before anything else is read or started; true when one of them was answered. Flags after `--` are not asked.
 */
export function answeredHelpOrVersion(program: string, argv: readonly string[], usage: string): boolean {
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (options.includes('--help') || options.includes('-h')) {
    process.stdout.write(`${usage.trimEnd()}\n`);
    return true;
  }
  if (options.includes('--version')) {
    process.stdout.write(`${program} ${packageVersion()}\n`);
    return true;
  }
  return false;
}

/** Prints a UsageError as its one line and sets exit status 2; true when `err` was one. */
export function reportedUsageError(err: unknown): boolean {
  if (!(err instanceof UsageError)) return false;
  process.stderr.write(`ERROR: ${err.message}\n`);
  process.exitCode = USAGE_EXIT;
  return true;
}
