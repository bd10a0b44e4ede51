// The two stores the router needs (keys, usage counters), in memory or sharing one Redis connection.

import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import { createMemoryKeyStore, KeyvKeyStore, type KeyPatch, type KeyStore } from './keys/key-store.js';
import type { StoredKey } from './keys/key-record.js';
import { StoreUnavailableError } from './deadline.js';
import { RedisSeedMarker } from './keys/seed-marker.js';
import { connectRedis, type RedisConnection, type RedisConnectionOptions } from './redis-connection.js';
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
function firstConnection(connection: RedisConnection, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`${connection.description} did not accept a connection within ${ms} ms`)), ms);
    timer.unref(); // waiting for Redis never keeps the process alive
  });
  const ready = Promise.race([connection.connected, timeout]).finally(() => clearTimeout(timer));
  ready.catch(() => {}); // awaiting it is optional: no unhandled rejection
  return ready;
}

/** Merges a JSON object of changes (null deletes) into a Keyv record `{"value": {...}, "expires": ...}`, keeping its TTL. */
const PATCH_KEY = `
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local doc = cjson.decode(raw)
for field, value in pairs(cjson.decode(ARGV[1])) do
  if value == cjson.null then doc.value[field] = nil else doc.value[field] = value end
end
local out = cjson.encode(doc)
redis.call('SET', KEYS[1], out, 'KEEPTTL')
return out`;

/** KeyStore.update in one script: a revocation and a re-seeding on two instances never undo each other. */
function redisKeyPatch(connection: RedisConnection, keysNamespace: string, keyv: Keyv<StoredKey>): KeyPatch {
  return async (hash, changes) => {
    // Keyv's own serializer: what it escapes (a string starting with ':') reads back as written.
    const set = JSON.parse(await keyv.serialize!({ value: changes })) as { value: Record<string, unknown> };
    const json = JSON.stringify({ ...Object.fromEntries(Object.keys(changes).map((field) => [field, null])), ...set.value });
    const out = await connection.client.eval(PATCH_KEY, { keys: [`${keysNamespace}::${hash}`], arguments: [json] });
    return out === null || out === undefined ? undefined : (await keyv.deserialize!<StoredKey>(String(out)))?.value;
  };
}

/**
 * Where the key records and the seed marker live. In a cluster they share one slot (the hash tag `{namespace}`), so
 * a master lost with its data takes the marker with the keys, and the store knows to be seeded again; a single node
 * or Sentinel keeps the names of earlier releases (no tags), so keys and revocations made there survive an upgrade.
 */
export function keyStoreNames(namespace: string, hashTags: boolean): { keys: string; seeded: string } {
  const base = hashTags ? `{${namespace}}` : namespace;
  return { keys: `${base}:keys`, seeded: `${base}:seeded` };
}

/**
 * Keys and limits in Redis, shared by every instance that uses the same Redis and namespace: one node (`url`), a
 * Redis Cluster (`clusterNodes`) or a master behind Sentinels (`sentinels`, `sentinelMaster`); exactly one of them.
 */
export function createRedisStores(options: RedisStoresOptions): Stores & { connection: RedisConnection } {
  const namespace = options.namespace ?? 'zpl';
  const connection = connectRedis(options);
  const ready = firstConnection(connection, options.readyTimeoutMs ?? DEFAULT_REDIS_READY_TIMEOUT_MS);
  const names = keyStoreNames(namespace, connection.hashTags);
  const adapter = new KeyvRedis<StoredKey>(connection.client, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv<StoredKey>({ store: adapter, namespace: names.keys, useKeyPrefix: false, throwOnErrors: true });
  const seedMarker = new RedisSeedMarker(connection, names.seeded, {
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  // Key management waits for the first connection (`await keyStore.add()` right after start-up works);
  // request-time look-ups (find) never wait: the router answers 503 while Redis is not ready.
  const patch = redisKeyPatch(connection, names.keys, keyv);
  const keyStore = new KeyvKeyStore(keyv, { isReady: connection.isReady, close: connection.close, whenReady: () => ready, seedMarker, patch });
  const usageStore = new RedisUsageStore(connection, namespace);
  return { keyStore, usageStore, connection, ready, close: connection.close };
}
