// One Redis client for keys and counters, set up to fail fast: no offline queue (a command while
// disconnected fails at once), a short connect timeout, and endless reconnects so service resumes by itself.

import { createClient, type RedisClientType } from '@keyv/redis';

export interface RedisConnectionOptions {
  url: string;
  /** Give up on one connection attempt after this long (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Longest wait between reconnect attempts (default 1000 ms; attempts start at 50 ms). */
  maxReconnectDelayMs?: number;
  /** Told once per outage, and once on recovery. */
  log?: (message: string) => void;
}

export type RedisClient = RedisClientType<{}, {}, {}, 2, {}>;

export interface RedisConnection {
  readonly client: RedisClient;
  isReady(): boolean;
  /** Resolves once the first connection is up (it never rejects; it keeps retrying). */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

/** A URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid Redis URL>';
  }
}

export function connectRedis(options: RedisConnectionOptions): RedisConnection {
  const log = options.log ?? (() => {});
  const maxDelay = options.maxReconnectDelayMs ?? 1000;
  const client: RedisClient = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 1000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, maxDelay),
    },
  });
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log(`Redis at ${redactUrl(options.url)} unavailable: ${err.message}`);
  });
  client.on('ready', () => {
    if (down) log(`Redis at ${redactUrl(options.url)} available again`);
    down = false;
  });
  const connected = client.connect().then(
    () => undefined,
    () => undefined,
  );
  let closing: Promise<void> | undefined;
  return {
    client,
    isReady: () => client.isReady,
    connected,
    close: () => {
      closing ??= (async () => {
        try {
          if (client.isOpen) client.destroy();
        } catch {
          // already closed
        }
      })();
      return closing;
    },
  };
}
