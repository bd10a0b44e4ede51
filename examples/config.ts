// The standalone server's settings, from environment variables (see README "Environment variables").

import { isUpstreamMode, type UpstreamMode } from '../middleware/upstream/options.js';

export interface ServerConfig {
  port: number;
  host: string;
  apiKeysFile?: string;
  redisUrl?: string;
  upstream: { mode: UpstreamMode; url?: string; apiKey?: string; timeoutMs?: number };
  shadow: { sampleRate?: number; storeDir?: string };
  /** Options for clients that cannot change (README "Pointing an existing client at this service"). */
  clients: ClientOptions;
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
  const sampleRate = optionalNumber(env, 'SHADOW_SAMPLE_RATE', (n) => n >= 0 && n <= 1, 'a share between 0 and 1');
  return {
    port,
    host: env.HOST || '127.0.0.1',
    ...(env.API_KEYS_FILE ? { apiKeysFile: env.API_KEYS_FILE } : {}),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    upstream: {
      mode: upstreamMode,
      ...(env.UPSTREAM_URL ? { url: env.UPSTREAM_URL } : {}),
      ...(env.UPSTREAM_API_KEY ? { apiKey: env.UPSTREAM_API_KEY } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    },
    shadow: {
      ...(sampleRate !== undefined ? { sampleRate } : {}),
      ...(env.SHADOW_DIR ? { storeDir: env.SHADOW_DIR } : {}),
    },
    clients: readClientOptions(env),
  };
}

function optionalNumber(env: NodeJS.ProcessEnv, name: string, valid: (n: number) => boolean, what: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${name} must be ${what}, not ${text}`);
  return value;
}
