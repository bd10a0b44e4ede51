// The two stores the router needs (keys, usage counters), in memory or sharing one Redis connection.

import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import { createMemoryKeyStore, KeyvKeyStore, type KeyStore } from './keys/key-store.js';
import type { StoredKey } from './keys/key-record.js';
import { StoreUnavailableError } from './deadline.js';
import { RedisSeedMarker } from './keys/seed-marker.js';
import { connectRedis, redactUrl, type RedisConnection, type RedisConnectionOptions } from './redis-connection.js';
import { RedisUsageStore } from './usage/redis-usage-store.js';
import { MemoryUsageStore, type UsageStore } from './usage/usage-store.js';

export interface Stores {
  keyStore: KeyStore;
  usageStore: UsageStore;
  /** Resolves once the stores can be used (at once in memory; Redis: its first connection, bounded by readyTimeoutMs). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Keys and limits in this process (the default): nothing shared between instances. */
export function createMemoryStores(): Stores {
  const keyStore = createMemoryKeyStore();
  const usageStore = new MemoryUsageStore();
  return { keyStore, usageStore, ready: Promise.resolve(), close: async () => { await usageStore.close(); } };
}

export interface RedisStoresOptions extends RedisConnectionOptions {
  /** Prefix of every Redis key this service writes (default `zpl`). */
  namespace?: string;
  /** How long `ready` (and key management calls made before the first connection) wait for Redis (default 10 s). */
  readyTimeoutMs?: number;
  /**
   * Not ready (503) until the keys are seeded (seedKeys writes a marker `<namespace>:seeded`), from the start.
   * Default false: only after a seeding has been seen does a missing marker count as lost data.
   */
  requireSeed?: boolean;
}

export const DEFAULT_REDIS_READY_TIMEOUT_MS = 10_000;

/** The first connection, or a clear error once `ms` have passed (the client goes on retrying either way). */
function firstConnection(connection: RedisConnection, url: string, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`Redis at ${redactUrl(url)} did not accept a connection within ${ms} ms`)), ms);
    timer.unref(); // waiting for Redis never keeps the process alive
  });
  const ready = Promise.race([connection.connected, timeout]).finally(() => clearTimeout(timer));
  ready.catch(() => {}); // awaiting it is optional: no unhandled rejection
  return ready;
}

/** Keys and limits in Redis, shared by every instance that uses the same URL and namespace. */
export function createRedisStores(options: RedisStoresOptions): Stores & { connection: RedisConnection } {
  const namespace = options.namespace ?? 'zpl';
  const connection = connectRedis(options);
  const ready = firstConnection(connection, options.url, options.readyTimeoutMs ?? DEFAULT_REDIS_READY_TIMEOUT_MS);
  const adapter = new KeyvRedis<StoredKey>(connection.client, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv<StoredKey>({ store: adapter, namespace: `${namespace}:keys`, useKeyPrefix: false, throwOnErrors: true });
  const seedMarker = new RedisSeedMarker(connection, `${namespace}:seeded`, {
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  // Key management waits for the first connection (`await keyStore.add()` right after start-up works);
  // request-time look-ups (find) never wait: the router answers 503 while Redis is not ready.
  const keyStore = new KeyvKeyStore(keyv, { isReady: connection.isReady, close: connection.close, whenReady: () => ready, seedMarker });
  const usageStore = new RedisUsageStore(connection, namespace);
  return { keyStore, usageStore, connection, ready, close: connection.close };
}
