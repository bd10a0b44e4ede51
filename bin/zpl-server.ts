#!/usr/bin/env node
// zpl-server: the standalone server (`npm start`, the container, `npx zpl-server` from the installed package).
// Its settings are environment variables (docs/configuration.md); the command line takes only --help and --version.

import { EXTRA_OUTPUTS, LOG_LEVELS, UPSTREAM_MODES } from '../index.js';
import { answeredHelpOrVersion, reportedUsageError, shown, UsageError } from './cli-args.js';

/** The variables the server reads, by topic, each with its default or its values (what --help prints). */
const VARIABLES: readonly { topic: string; variables: readonly (readonly [name: string, hint?: string])[] }[] = [
  {
    topic: 'where it listens',
    variables: [
      ['PORT', '3000'],
      ['HOST', '127.0.0.1'],
      ['OPS_PORT', 'ops routes on a port of their own'],
      ['READY_WHEN_SATURATED', '1/0'],
    ],
  },
  {
    topic:
      'keys and stores (at most one of REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS, DATABASE_URL; else memory)',
    variables: [
      ['API_KEYS_FILE', 'JSON key records; without it a dev key is printed'],
      ['REDIS_URL', 'redis://'],
      ['REDIS_CLUSTER_NODES', 'redis:// seeds'],
      ['REDIS_SENTINELS', 'host:port list'],
      ['REDIS_SENTINEL_MASTER', 'mymaster'],
      ['DATABASE_URL', 'postgres://'],
      ['STORE_NAMESPACE', 'zpl'],
      ['REDIS_NAMESPACE', "STORE_NAMESPACE's earlier name"],
    ],
  },
  {
    topic: 'the legacy service',
    variables: [
      ['UPSTREAM_MODE', `${UPSTREAM_MODES.join(', ')}; default off`],
      ['UPSTREAM_URL'],
      ['UPSTREAM_API_KEY'],
      ['UPSTREAM_TIMEOUT_MS', '10000'],
      ['UPSTREAM_MAX_BODY_BYTES', '8388608'],
      ['UPSTREAM_FORWARD_HEADERS'],
    ],
  },
  {
    topic: 'shadow mode',
    variables: [
      ['SHADOW_SAMPLE_RATE', '0.1'],
      ['SHADOW_STORE', 'redis, postgres, files'],
      ['SHADOW_DIR'],
      ['SHADOW_MAX_CASES', '1000'],
      ['SHADOW_MAX_BYTES', '67108864'],
    ],
  },
  {
    topic: 'limits and rendering',
    variables: [
      ['MAX_BODY_BYTES', '1048576'],
      ['MAX_LABELS', '50'],
      ['ORG_REQUESTS_PER_SECOND', '100'],
      ['RENDER_THREADS', 'one per core'],
      ['RENDER_TIMEOUT_MS', '10000'],
      ['PDF_MODE', 'vector, raster; default vector'],
      ['EXTRA_OUTPUTS', EXTRA_OUTPUTS.join(', ')],
    ],
  },
  {
    topic: 'clients',
    variables: [
      ['LEGACY_PATHS', '/compatibility/legacy/v1'],
      ['LEGACY_CLIENTS', '1/0'],
      ['ANONYMOUS_KEY_ID'],
      ['ALLOW_QUERY_KEY', '1/0'],
      ['LENIENT_PATHS', '1/0'],
      ['GRAPHICS_ENDPOINT', '1/0'],
      ['FONTS_ENDPOINT', '1/0'],
      ['CORS_ORIGINS'],
    ],
  },
  {
    topic: 'timeouts, shutdown and logs',
    variables: [
      ['HEADERS_TIMEOUT_MS', '10000'],
      ['REQUEST_TIMEOUT_MS', '30000'],
      ['SHUTDOWN_DELAY_MS', '5000'],
      ['SHUTDOWN_TIMEOUT_MS', '10000'],
      ['LOG_LEVEL', `${LOG_LEVELS.join(', ')}; default info`],
    ],
  },
];

const VARIABLE_NAMES = new Set(VARIABLES.flatMap((group) => group.variables.map(([name]) => name)));

/** Each topic's variables, `NAME (hint)`, two spaces apart, on lines of at most 116 characters. */
function variableLines(): string {
  return VARIABLES.map(({ topic, variables }) => {
    const lines = [''];
    for (const [name, hint] of variables) {
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
