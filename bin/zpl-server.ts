#!/usr/bin/env node
// zpl-server: the standalone server (`npm start`, the container, `npx zpl-server` from the installed package).
// Its settings are environment variables (docs/configuration.md); the command line takes only --help and --version.

import { SERVER_VARIABLE_NAMES, SERVER_VARIABLES } from '../server/variables.js';
import { answeredHelpOrVersion, reportedUsageError, shown, UsageError } from './cli-args.js';

const VARIABLE_NAMES: ReadonlySet<string> = new Set(SERVER_VARIABLE_NAMES);

/** Each topic's variables, `NAME (hint)`, two spaces apart, on lines of at most 116 characters. */
function variableLines(): string {
  return SERVER_VARIABLES.map(({ topic, variables }) => {
    const lines = [''];
    for (const [name, hint] of variables as readonly (readonly [string, string?])[]) {
      const item = hint === undefined ? name : `${name} (${hint})`;
      const last = lines.length - 1;
      if (lines[last] !== '' && lines[last]!.length + 2 + item.length > 114) lines.push('');
      lines[lines.length - 1] += (lines[lines.length - 1] === '' ? '' : '  ') + item;
    }
    return `${topic}\n${lines.map((line) => `  ${line}`).join('\n')}`;
  }).join('\n');
}

const USAGE = `usage: zpl-server [--help | --version]

Serves the legacy label API at /compatibility/legacy/v1, the preview page at /, and /healthz, /readyz, /metrics and
/openapi.json. It prints "listening on http://HOST:PORT" once it takes requests and drains on SIGTERM or SIGINT.
Every setting is an environment variable; a bad value stops it with one line naming the variable
(docs/configuration.md says more):

${variableLines()}

options
  -h, --help   this text
  --version    the package version`;

/** The command line: nothing but --help or --version; an argument meant as a setting is pointed to its variable. */
function refuseArguments(argv: readonly string[]): void {
  const [arg] = argv;
  if (arg === undefined) return;
  const setting = /^--?([a-z][a-z0-9-]*)(?:=(.*))?$/i.exec(arg);
  const variable = setting?.[1]?.toUpperCase().replace(/-/g, '_');
  if (setting && variable !== undefined && VARIABLE_NAMES.has(variable)) {
    const value = setting[2] ?? (argv[1] !== undefined && !argv[1].startsWith('-') ? argv[1] : '...');
    throw new UsageError(
      `unknown option ${shown(arg)}: zpl-server's settings are environment variables, here ${variable}=${shown(value)}`,
    );
  }
  const what = arg.startsWith('-') ? 'unknown option' : 'unexpected argument';
  throw new UsageError(
    `${what} ${shown(arg)}: zpl-server takes only --help or --version; its settings are environment variables (zpl-server --help)`,
  );
}

const argv = process.argv.slice(2);
if (!answeredHelpOrVersion('zpl-server', argv, USAGE)) {
  try {
    refuseArguments(argv);
    // Loaded only now: --help and a refused command line start nothing (no render pool, no store connection).
    const { startServer } = await import('../server/server.js');
    startServer();
  } catch (err) {
    if (!reportedUsageError(err)) throw err;
  }
}
