// The standalone server's settings, from environment variables (docs/configuration.md).

import type { LevelWithSilent } from 'pino';
import {
  EXTRA_OUTPUTS,
  LOG_LEVELS,
  parseCorsOrigins,
  DEFAULT_STORE_NAMESPACE,
  STORE_NAMESPACE_PATTERN,
  UPSTREAM_MODES,
  type CorsOption,
  type ExtraOutput,
  type UpstreamMode,
} from '../middleware/index.js';
import type { PdfMode } from '../renderer/public-api.js';
import { optionalNumber, optionalUrl } from './env-values.js';
import { readFleetConfig, type FleetConfig } from './fleet-config.js';
import { readPrinterConfig, type PrinterConfig } from './printer-config.js';
import type { ServerEnv, ServerVariable } from './variables.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, type HttpTimeouts } from './http-server.js';

export interface ServerConfig {
  port: number;
  host: string;
  apiKeysFile?: string;
  upstream: { mode: UpstreamMode; url?: string; apiKey?: string; timeoutMs?: number; maxBodyBytes?: number };
  shadow: { sampleRate?: number; storeDir?: string };
  /** pino level of the JSON log lines on standard output. */
  logLevel: LevelWithSilent;
  /** Router limits; unset ones keep the router's defaults. */
  limits: { maxBodyBytes?: number; maxLabels?: number; organizationRequestsPerSecond?: number };
  /** The render pool: worker threads (0 renders on the event loop) and the time budget of one render. */
  render: { threads?: number; timeoutMs?: number };
  /** CORS for browser clients; unset is off. */
  cors?: CorsOption;
  /** Request headers sent upstream (UPSTREAM_FORWARD_HEADERS, comma-separated); unset: the router's default. */
  forwardHeaders?: string[];
  /** Slow clients: HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS. */
  timeouts: HttpTimeouts;
  /** How long requests in flight may run after SIGTERM/SIGINT before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** After SIGTERM: /readyz answers 503 and requests are still served this long before the listener closes. */
  shutdownDelayMs: number;
  /** OPS_PORT: the ops routes (/healthz, /readyz, /metrics, /openapi.json) on their own port, not the API port. */
  opsPort?: number;
  /** READY_WHEN_SATURATED: a saturated render pool does not make /readyz 503 (orchestrators that drop every busy replica). */
  readyWhenSaturated: boolean;
  /** STORE_NAMESPACE (alias REDIS_NAMESPACE): what every stored name is built from (default zpl); `zpl-keys --namespace` takes the same. */
  storeNamespace?: string;
  /** PDF_MODE: `vector` (default) or `raster`. */
  pdf?: PdfMode;
  /** PAGE_COMPOSITION: `apply` composes PDF sheets from X-Page-* (router option `pageComposition`); unset, `validate`. */
  pageComposition?: 'validate' | 'apply';
  /** Options for clients that cannot change (docs/legacy-clients.md). */
  clients: ClientOptions;
  /** Which store backend, and where shadow cases live (fleet-config.ts). */
  fleet: FleetConfig;
  /** PRINTER_PORT and the rest (printer-config.ts): the raw ZPL printer port; absent, none. */
  printer?: PrinterConfig;
}

export interface ClientOptions {
  /** Where the legacy router is mounted (LEGACY_PATHS, comma-separated; default /compatibility/legacy/v1). */
  legacyPaths: string[];
  /** ANONYMOUS_KEY_ID: the stored key serving requests without X-API-Key. */
  anonymousKey?: string;
  /** ALLOW_QUERY_KEY=1 (or LEGACY_CLIENTS=1): the key may come as ?key=. */
  allowQueryKey: boolean;
  /** LENIENT_PATHS=1: /labels/4x6// is every label. */
  lenientPaths: boolean;
  /** GRAPHICS_ENDPOINT=1: POST {path}/graphics converts images to ^GFA. */
  graphicsEndpoint: boolean;
  /** FONTS_ENDPOINT=1: POST {path}/fonts turns TrueType fonts into the ZPL that stores them. */
  fontsEndpoint: boolean;
  /** LEGACY_CLIENTS=1: /v1 beside the mount paths, lenient paths, POST /graphics, POST /fonts and `?key=`, in one switch. */
  legacyClients: boolean;
  /** EXTRA_OUTPUTS=json,zpl,epl,...: the legacy service's other outputs (router option `outputs`); unset, each is a 406. */
  outputs: ExtraOutput[];
}

/** What LEGACY_CLIENTS=1 adds to the mount paths. */
export const LEGACY_CLIENTS_PATH = '/v1';

const DEFAULT_LEGACY_PATH = '/compatibility/legacy/v1';

export function readClientOptions(env: ServerEnv = process.env): ClientOptions {
  const legacyPaths = (env.LEGACY_PATHS || DEFAULT_LEGACY_PATH)
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => (p.length > 1 ? p.replace(/\/+$/, '') : p));
  for (const path of legacyPaths) {
    if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path))
      throw new Error(`LEGACY_PATHS must be absolute URL paths like /v1, not ${path}`);
  }
  if (legacyPaths.length === 0) throw new Error('LEGACY_PATHS must name at least one path');
  // One switch for unchanged legacy clients; it never turns on key-less access (ANONYMOUS_KEY_ID stays explicit).
  const legacyClients = flag(env, 'LEGACY_CLIENTS');
  if (legacyClients) legacyPaths.push(LEGACY_CLIENTS_PATH);
  return {
    legacyPaths: [...new Set(legacyPaths)],
    ...(env.ANONYMOUS_KEY_ID ? { anonymousKey: env.ANONYMOUS_KEY_ID.trim() } : {}),
    allowQueryKey: legacyClients || flag(env, 'ALLOW_QUERY_KEY'),
    lenientPaths: legacyClients || flag(env, 'LENIENT_PATHS'),
    graphicsEndpoint: legacyClients || flag(env, 'GRAPHICS_ENDPOINT'),
    fontsEndpoint: legacyClients || flag(env, 'FONTS_ENDPOINT'),
    legacyClients,
    outputs: extraOutputs(env.EXTRA_OUTPUTS),
  };
}

/** EXTRA_OUTPUTS: comma-separated names of EXTRA_OUTPUTS (any case); anything else stops the server at start-up. */
function extraOutputs(text: string | undefined): ExtraOutput[] {
  const names = (text ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  for (const n of names)
    if (!(EXTRA_OUTPUTS as readonly string[]).includes(n))
      throw new Error(`EXTRA_OUTPUTS must list ${EXTRA_OUTPUTS.join(', ')}, not ${text}`);
  return EXTRA_OUTPUTS.filter((o) => names.includes(o));
}

/** `1`, `true`, `yes` or `on` turn an option on; unset, empty, `0`, `false`, `no`, `off` leave it off. */
function flag(env: ServerEnv, name: ServerVariable): boolean {
  const text = (env[name] ?? '').trim().toLowerCase();
  if (text === '' || ['0', 'false', 'no', 'off'].includes(text)) return false;
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  throw new Error(`${name} must be 1 or 0, not ${env[name]}`);
}

export function readServerConfig(env: ServerEnv = process.env): ServerConfig {
  const tcpPort = (n: number): boolean => n <= 65535;
  const port = optionalNumber(env, 'PORT', tcpPort, 'a TCP port (0 to 65535)') ?? 3000;
  const opsPort = optionalNumber(env, 'OPS_PORT', tcpPort, 'a TCP port (0 to 65535)');
  const upstreamUrl = optionalUrl(
    env,
    'UPSTREAM_URL',
    ['http:', 'https:'],
    "the legacy service's http(s) base URL, before /printers/...",
  );
  const storeNamespace = readStoreNamespace(env);
  const fleet = readFleetConfig(env);
  // A namespace the backend refuses (PostgreSQL: a `pg_` schema) stops the start here, not as an endless 503 starting.
  const namespaceProblem = fleet.store.backend.namespaceProblem?.(storeNamespace ?? DEFAULT_STORE_NAMESPACE);
  if (namespaceProblem !== undefined) throw new Error(`STORE_NAMESPACE: ${namespaceProblem}`);
  const upstreamMode = (env.UPSTREAM_MODE || 'off').toLowerCase() as UpstreamMode;
  if (!UPSTREAM_MODES.includes(upstreamMode)) {
    throw new Error(`UPSTREAM_MODE must be off, fallback, shadow or proxy, not ${env.UPSTREAM_MODE}`);
  }
  if (upstreamMode !== 'off' && !upstreamUrl) {
    throw new Error(
      `UPSTREAM_MODE=${upstreamMode} needs UPSTREAM_URL (the legacy service's base URL, before /printers/...)`,
    );
  }
  const timeoutMs = optionalNumber(env, 'UPSTREAM_TIMEOUT_MS', (n) => n > 0, 'a whole number of milliseconds above 0');
  const upstreamMaxBodyBytes = optionalNumber(
    env,
    'UPSTREAM_MAX_BODY_BYTES',
    (n) => n > 0,
    'a whole number of bytes above 0',
  );
  const sampleRate = optionalShare(env, 'SHADOW_SAMPLE_RATE');
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${env.LOG_LEVEL}`);
  }
  const whole = (n: number): boolean => n > 0;
  const wholeOrZero = (): boolean => true;
  const maxBodyBytes = optionalNumber(env, 'MAX_BODY_BYTES', whole, 'a whole number of bytes above 0');
  const maxLabels = optionalNumber(env, 'MAX_LABELS', whole, 'a whole number above 0');
  const organizationRequestsPerSecond = optionalNumber(
    env,
    'ORG_REQUESTS_PER_SECOND',
    wholeOrZero,
    'a whole number (0 turns the limit off)',
  );
  const renderThreads = optionalNumber(
    env,
    'RENDER_THREADS',
    wholeOrZero,
    'a whole number of threads (0 renders on the event loop)',
  );
  const renderTimeoutMs = optionalNumber(env, 'RENDER_TIMEOUT_MS', whole, 'a whole number of milliseconds above 0');
  const cors = parseCorsOrigins(env.CORS_ORIGINS);
  const headersTimeoutMs =
    optionalNumber(env, 'HEADERS_TIMEOUT_MS', whole, 'a whole number of milliseconds above 0') ??
    DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeoutMs =
    optionalNumber(env, 'REQUEST_TIMEOUT_MS', whole, 'a whole number of milliseconds above 0') ??
    Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be above REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  const shutdownTimeoutMs = optionalNumber(env, 'SHUTDOWN_TIMEOUT_MS', wholeOrZero, 'a whole number of milliseconds');
  const shutdownDelayMs = optionalNumber(env, 'SHUTDOWN_DELAY_MS', wholeOrZero, 'a whole number of milliseconds');
  const pdf = (env.PDF_MODE || 'vector').toLowerCase();
  if (pdf !== 'vector' && pdf !== 'raster') throw new Error(`PDF_MODE must be vector or raster, not ${env.PDF_MODE}`);
  const pageComposition = (env.PAGE_COMPOSITION ?? '').trim().toLowerCase() || undefined;
  const printer = readPrinterConfig(env);
  if (pageComposition !== undefined && pageComposition !== 'validate' && pageComposition !== 'apply') {
    throw new Error(`PAGE_COMPOSITION must be validate or apply, not ${env.PAGE_COMPOSITION}`);
  }
  return {
    pdf,
    ...(pageComposition !== undefined && { pageComposition }),
    port,
    host: env.HOST || '127.0.0.1',
    ...(env.API_KEYS_FILE ? { apiKeysFile: env.API_KEYS_FILE } : {}),
    ...(storeNamespace ? { storeNamespace } : {}),
    ...(opsPort !== undefined ? { opsPort } : {}),
    readyWhenSaturated: flag(env, 'READY_WHEN_SATURATED'),
    upstream: {
      mode: upstreamMode,
      ...(upstreamUrl ? { url: upstreamUrl } : {}),
      ...(env.UPSTREAM_API_KEY ? { apiKey: env.UPSTREAM_API_KEY } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(upstreamMaxBodyBytes !== undefined ? { maxBodyBytes: upstreamMaxBodyBytes } : {}),
    },
    shadow: {
      ...(sampleRate !== undefined ? { sampleRate } : {}),
      ...(env.SHADOW_DIR ? { storeDir: env.SHADOW_DIR } : {}),
    },
    logLevel: logLevel as LevelWithSilent,
    limits: {
      ...(maxBodyBytes !== undefined && { maxBodyBytes }),
      ...(maxLabels !== undefined && { maxLabels }),
      ...(organizationRequestsPerSecond !== undefined && { organizationRequestsPerSecond }),
    },
    render: {
      ...(renderThreads !== undefined && { threads: renderThreads }),
      ...(renderTimeoutMs !== undefined && { timeoutMs: renderTimeoutMs }),
    },
    ...(cors && { cors }),
    timeouts: { headersTimeoutMs, requestTimeoutMs },
    ...(env.UPSTREAM_FORWARD_HEADERS
      ? {
          forwardHeaders: env.UPSTREAM_FORWARD_HEADERS.split(',')
            .map((h) => h.trim())
            .filter(Boolean),
        }
      : {}),
    shutdownTimeoutMs: shutdownTimeoutMs ?? 10_000,
    shutdownDelayMs: shutdownDelayMs ?? DEFAULT_SHUTDOWN_DELAY_MS,
    clients: readClientOptions(env),
    fleet,
    ...(printer && { printer }),
  };
}

/** STORE_NAMESPACE, or REDIS_NAMESPACE (its earlier name); both set to different values is an error naming both. */
export function readStoreNamespace(env: ServerEnv = process.env): string | undefined {
  const given = (
    [
      ['STORE_NAMESPACE', env.STORE_NAMESPACE],
      ['REDIS_NAMESPACE', env.REDIS_NAMESPACE],
    ] as const
  )
    .map(([name, text]) => [name, (text ?? '').trim()] as const)
    .filter(([, value]) => value !== '');
  if (given.length === 0) return undefined;
  const [[name, value], other] = given as [readonly [ServerVariable, string], (readonly [string, string])?];
  if (other !== undefined && other[1] !== value) {
    throw new Error(
      `${name} (${value}) and ${other[0]} (${other[1]}) differ: set one (REDIS_NAMESPACE is STORE_NAMESPACE's earlier name)`,
    );
  }
  if (!STORE_NAMESPACE_PATTERN.test(value)) {
    throw new Error(`${name} must be 1 to 63 letters, digits, '.', '_', ':' or '-', not ${env[name]}`);
  }
  return value;
}

/** SIGTERM to closing the listener: long enough for a load balancer's health check to see /readyz fail. */
export const DEFAULT_SHUTDOWN_DELAY_MS = 5000;

/** A share between 0 and 1 in plain decimal notation (0, 1, 0.25). */
function optionalShare(env: ServerEnv, name: ServerVariable): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = /^\d+(?:\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 1)) throw new Error(`${name} must be a share between 0 and 1, not ${env[name]}`);
  return value;
}
