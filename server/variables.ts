// Every environment variable the standalone server reads, by topic, each with the hint `zpl-server --help` prints
// after it: the one list --help prints (bin/zpl-server.ts), the settings readers are typed by (ServerEnv: a variable
// read that is not here does not compile) and docs/configuration.md's table is checked against, row for row.

import { EXTRA_OUTPUTS, LOG_LEVELS, UPSTREAM_MODES } from '../middleware/index.js';

/** One topic of --help: its variables, each `[name, hint]` (a default, the values, or what it is). */
interface VariableTopic {
  topic: string;
  variables: readonly (readonly [name: string, hint?: string])[];
}

export const SERVER_VARIABLES = [
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
      ['PAGE_COMPOSITION', 'validate, apply; default validate'],
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
    topic: 'the printer port (raw ZPL on TCP, docs/printer-port.md)',
    variables: [
      ['PRINTER_PORT', 'e.g. 9100; unset, no printer port'],
      ['PRINTER_HOST', '127.0.0.1'],
      ['PRINTER_ALLOW', 'addresses and CIDRs; unset, any'],
      ['PRINTER_IDLE_MS', '30000'],
      ['PRINTER_DPMM', '6, 8, 12, 24; default 8'],
      ['PRINTER_SIZE', '4x6 (inches)'],
      ['PRINTER_FORWARD', 'tcp://host:port of a real printer'],
      ['PRINTER_WEBHOOK', "http(s) URL each job's summary is POSTed to"],
      ['PRINTER_MAX_CONNECTIONS', '32'],
      ['PRINTER_MAX_JOB_BYTES', '8388608'],
      ['PRINTER_MAX_CONNECTION_BYTES', '67108864'],
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
] as const satisfies readonly VariableTopic[];

/** A variable the server reads. */
export type ServerVariable = (typeof SERVER_VARIABLES)[number]['variables'][number][0];

/** The environment as the settings readers see it: the listed variables only (process.env is one). */
export type ServerEnv = { readonly [V in ServerVariable]?: string | undefined };

/** Every variable, in the table's order. */
export const SERVER_VARIABLE_NAMES: readonly ServerVariable[] = SERVER_VARIABLES.flatMap((group) =>
  group.variables.map(([name]) => name),
);
