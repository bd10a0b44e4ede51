// The two stores the router needs (keys, usage counters), in memory or sharing one Redis connection.

import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import { createMemoryKeyStore, KeyvKeyStore, type KeyStore } from './keys/key-store.js';
import type { StoredKey } from './keys/key-record.js';
import { RedisSeedMarker } from './keys/seed-marker.js';
import { connectRedis, type RedisConnection, type RedisConnectionOptions } from './redis-connection.js';
import { RedisUsageStore } from './usage/redis-usage-store.js';
import { MemoryUsageStore, type UsageStore } from './usage/usage-store.js';

export interface Stores {
  keyStore: KeyStore;
  usageStore: UsageStore;
  close(): Promise<void>;
}

/** Keys and limits in this process (the default): nothing shared between instances. */
export function createMemoryStores(): Stores {
  const keyStore = createMemoryKeyStore();
  const usageStore = new MemoryUsageStore();
  return { keyStore, usageStore, close: async () => { await usageStore.close(); } };
}

export interface RedisStoresOptions extends RedisConnectionOptions {
  /** Prefix of every Redis key this service writes (default `zpl`). */
  namespace?: string;
  /**
   * Not ready (503) until the keys are seeded (seedKeys writes a marker `<namespace>:seeded`), from the start.
   * Default false: only after a seeding has been seen does a missing marker count as lost data.
   */
  requireSeed?: boolean;
}

/** Keys and limits in Redis, shared by every instance that uses the same URL and namespace. */
export function createRedisStores(options: RedisStoresOptions): Stores & { connection: RedisConnection } {
  const namespace = options.namespace ?? 'zpl';
  const connection = connectRedis(options);
  const adapter = new KeyvRedis<StoredKey>(connection.client, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv<StoredKey>({ store: adapter, namespace: `${namespace}:keys`, useKeyPrefix: false, throwOnErrors: true });
  const seedMarker = new RedisSeedMarker(connection, `${namespace}:seeded`, {
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  const keyStore = new KeyvKeyStore(keyv, { isReady: connection.isReady, close: connection.close, seedMarker });
  const usageStore = new RedisUsageStore(connection, namespace);
  return { keyStore, usageStore, connection, close: connection.close };
}
