// The standalone server's settings, from environment variables (see README "Environment variables").

export interface ServerConfig {
  port: number;
  host: string;
  apiKeysFile?: string;
  redisUrl?: string;
  upstream: { url?: string; mode: string; apiKey?: string };
}

export function readServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a TCP port, not ${env.PORT}`);
  const upstreamMode = (env.UPSTREAM_MODE ?? 'off').toLowerCase();
  if (!['off', 'fallback', 'shadow', 'proxy'].includes(upstreamMode)) {
    throw new Error(`UPSTREAM_MODE must be off, fallback, shadow or proxy, not ${env.UPSTREAM_MODE}`);
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    ...(env.API_KEYS_FILE ? { apiKeysFile: env.API_KEYS_FILE } : {}),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    upstream: {
      mode: upstreamMode,
      ...(env.UPSTREAM_URL ? { url: env.UPSTREAM_URL } : {}),
      ...(env.UPSTREAM_API_KEY ? { apiKey: env.UPSTREAM_API_KEY } : {}),
    },
  };
}
