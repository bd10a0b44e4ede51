// The standalone server's settings, from environment variables (see README "Environment variables").

import { isUpstreamMode, type UpstreamMode } from '../middleware/upstream/options.js';
import type { PdfMode } from '../renderer/api.js';

export interface ServerConfig {
  port: number;
  host: string;
  apiKeysFile?: string;
  redisUrl?: string;
  upstream: { mode: UpstreamMode; url?: string; apiKey?: string; timeoutMs?: number };
  shadow: { sampleRate?: number; storeDir?: string };
  /** PDF_MODE: `vector` (default) or `raster`. */
  pdf?: PdfMode;
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
    },
    shadow: {
      ...(sampleRate !== undefined ? { sampleRate } : {}),
      ...(env.SHADOW_DIR ? { storeDir: env.SHADOW_DIR } : {}),
    },
  };
}

function optionalNumber(env: NodeJS.ProcessEnv, name: string, valid: (n: number) => boolean, what: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${name} must be ${what}, not ${text}`);
  return value;
}
