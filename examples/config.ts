// The standalone server's settings, from environment variables (see README "Environment variables").

import type { LevelWithSilent } from 'pino';
import { parseCorsOrigins, type CorsOption } from '../middleware/cors.js';
import { LOG_LEVELS } from '../middleware/events/log-events.js';
import { isUpstreamMode, type UpstreamMode } from '../middleware/upstream/options.js';
import type { PdfMode } from '../renderer/api.js';
import { readFleetConfig, type FleetConfig } from './fleet-config.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, type HttpTimeouts } from './http-server.js';

export interface ServerConfig {
  port: number;
  host: string;
  apiKeysFile?: string;
  redisUrl?: string;
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
  /** PDF_MODE: `vector` (default) or `raster`. */
  pdf?: PdfMode;
  /** Options for clients that cannot change (README "Pointing an existing client at this service"). */
  clients: ClientOptions;
  /** Which Redis, and where shadow cases live (fleet-config.ts). */
  fleet: FleetConfig;
}

export interface ClientOptions {
  /** Where the legacy router is mounted (LEGACY_PATHS, comma-separated; default /compatibility/legacy/v1). */
  legacyPaths: string[];
  /** ANONYMOUS_KEY_ID: the stored key serving requests without X-API-Key. */
  anonymousKey?: string;
  /** ALLOW_QUERY_KEY=1: the key may come as ?key=. */
  allowQueryKey: boolean;
  /** LENIENT_PATHS=1: /labels/4x6// is every label. */
  lenientPaths: boolean;
  /** GRAPHICS_ENDPOINT=1: POST {path}/graphics converts images to ^GFA. */
  graphicsEndpoint: boolean;
}

const DEFAULT_LEGACY_PATH = '/compatibility/legacy/v1';

export function readClientOptions(env: NodeJS.ProcessEnv = process.env): ClientOptions {
  const legacyPaths = (env.LEGACY_PATHS || DEFAULT_LEGACY_PATH).split(',').map((p) => p.trim()).filter((p) => p !== '')
    .map((p) => (p.length > 1 ? p.replace(/\/+$/, '') : p));
  for (const path of legacyPaths) {
    if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path)) throw new Error(`LEGACY_PATHS must be absolute URL paths like /v1, not ${path}`);
  }
  if (legacyPaths.length === 0) throw new Error('LEGACY_PATHS must name at least one path');
  return {
    legacyPaths: [...new Set(legacyPaths)],
    ...(env.ANONYMOUS_KEY_ID ? { anonymousKey: env.ANONYMOUS_KEY_ID.trim() } : {}),
    allowQueryKey: flag(env, 'ALLOW_QUERY_KEY'),
    lenientPaths: flag(env, 'LENIENT_PATHS'),
    graphicsEndpoint: flag(env, 'GRAPHICS_ENDPOINT'),
  };
}

/** `1`, `true`, `yes` or `on` turn an option on; unset, empty, `0`, `false`, `no`, `off` leave it off. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const text = (env[name] ?? '').trim().toLowerCase();
  if (text === '' || ['0', 'false', 'no', 'off'].includes(text)) return false;
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  throw new Error(`${name} must be 1 or 0, not ${env[name]}`);
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port, not ${env.PORT}`);
  const upstreamMode = (env.UPSTREAM_MODE || 'off').toLowerCase();
  if (!isUpstreamMode(upstreamMode)) {
    throw new Error(`UPSTREAM_MODE must be off, fallback, shadow or proxy, not ${env.UPSTREAM_MODE}`);
  }
  if (upstreamMode !== 'off' && !env.UPSTREAM_URL) {
    throw new Error(`UPSTREAM_MODE=${upstreamMode} needs UPSTREAM_URL (the legacy service's base URL, before /printers/...)`);
  }
  const timeoutMs = optionalNumber(env, 'UPSTREAM_TIMEOUT_MS', (n) => Number.isInteger(n) && n > 0, 'a whole number of milliseconds above 0');
  const upstreamMaxBodyBytes = optionalNumber(env, 'UPSTREAM_MAX_BODY_BYTES', (n) => Number.isInteger(n) && n > 0, 'a whole number of bytes above 0');
  const sampleRate = optionalNumber(env, 'SHADOW_SAMPLE_RATE', (n) => n >= 0 && n <= 1, 'a share between 0 and 1');
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${env.LOG_LEVEL}`);
  }
  const whole = (n: number): boolean => Number.isInteger(n) && n > 0;
  const wholeOrZero = (n: number): boolean => Number.isInteger(n) && n >= 0;
  const maxBodyBytes = optionalNumber(env, 'MAX_BODY_BYTES', whole, 'a whole number of bytes above 0');
  const maxLabels = optionalNumber(env, 'MAX_LABELS', whole, 'a whole number above 0');
  const organizationRequestsPerSecond = optionalNumber(env, 'ORG_REQUESTS_PER_SECOND', wholeOrZero, 'a whole number (0 turns the limit off)');
  const renderThreads = optionalNumber(env, 'RENDER_THREADS', wholeOrZero, 'a whole number of threads (0 renders on the event loop)');
  const renderTimeoutMs = optionalNumber(env, 'RENDER_TIMEOUT_MS', whole, 'a whole number of milliseconds above 0');
  const cors = parseCorsOrigins(env.CORS_ORIGINS);
  const headersTimeoutMs = optionalNumber(env, 'HEADERS_TIMEOUT_MS', whole, 'a whole number of milliseconds above 0')
    ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeoutMs = optionalNumber(env, 'REQUEST_TIMEOUT_MS', whole, 'a whole number of milliseconds above 0')
    ?? Math.max(DEFAULT_REQUEST_TIMEOUT_MS, headersTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be above REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const shutdownTimeoutMs = optionalNumber(env, 'SHUTDOWN_TIMEOUT_MS', (n) => Number.isInteger(n) && n >= 0, 'a whole number of milliseconds');
  const pdf = (env.PDF_MODE || 'vector').toLowerCase();
  if (pdf !== 'vector' && pdf !== 'raster') throw new Error(`PDF_MODE must be vector or raster, not ${env.PDF_MODE}`);
  return {
    pdf,
    port,
    host: env.HOST || '127.0.0.1',
    ...(env.API_KEYS_FILE ? { apiKeysFile: env.API_KEYS_FILE } : {}),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    upstream: {
      mode: upstreamMode,
      ...(env.UPSTREAM_URL ? { url: env.UPSTREAM_URL } : {}),
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
    ...(env.UPSTREAM_FORWARD_HEADERS ? { forwardHeaders: env.UPSTREAM_FORWARD_HEADERS.split(',').map((h) => h.trim()).filter(Boolean) } : {}),
    shutdownTimeoutMs: shutdownTimeoutMs ?? 10_000,
    clients: readClientOptions(env),
    fleet: readFleetConfig(env),
  };
}

function optionalNumber(env: NodeJS.ProcessEnv, name: string, valid: (n: number) => boolean, what: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${name} must be ${what}, not ${text}`);
  return value;
}
