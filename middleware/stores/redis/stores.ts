// The two stores the router needs (keys, usage counters), in memory or sharing one Redis connection, opened as
// every backend opens them (OpenedStores: stores/opened-stores.ts), their names built by storeNames.

import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import { createMemoryKeyStore, KeyvKeyStore, type KeyPatch, type KeyStore } from '../key-store.js';
import type { StoredKey } from '../../keys/key-record.js';
import { StoreUnavailableError } from '../deadline.js';
import { RedisSeedMarker } from '../seed-marker.js';
import { connectRedis, type RedisConnection, type RedisConnectionOptions } from './connection.js';
import type { OpenedStores } from '../opened-stores.js';
import { storeNames } from '../store-names.js';
import { RedisShadowStore } from './shadow-store.js';
import type { ShadowCaseStore, ShadowRetention } from '../shadow-store.js';
import { RedisUsageStore } from './usage-store.js';
import { MemoryUsageStore } from '../usage-store.js';

export type { Stores, OpenedStores } from '../opened-stores.js';

/** Keys and limits in this process (the default): nothing shared between instances. */
export function createMemoryStores(): OpenedStores {
  const keyStore = createMemoryKeyStore();
  const usageStore = new MemoryUsageStore();
  return {
    keyStore,
    usageStore,
    ready: Promise.resolve(),
    connected: Promise.resolve(),
    isReady: () => true,
    description: 'memory',
    close: async () => {
      await usageStore.close();
    },
  };
}

export interface RedisStoresOptions extends RedisConnectionOptions {
  /** Namespace of every Redis key this service writes (default `zpl`; see storeNames). */
  namespace?: string;
  /**
   * How long `ready`, and each key management call made while Redis has never answered, wait for it (default
   * 10 s). A call made once Redis has answered, however late, goes ahead.
   */
  readyTimeoutMs?: number;
  /**
   * Not ready (503) until the keys are seeded (seedKeys writes a marker `<namespace>:seeded`), from the start.
   * Default false: only after a seeding has been seen does a missing marker count as lost data.
   */
  requireSeed?: boolean;
}

export const DEFAULT_REDIS_READY_TIMEOUT_MS = 10_000;

/**
 * The first connection, or a clear error once `ms` have passed (the client goes on retrying either way). Each call
 * waits anew: a Redis that comes up after one wait has given up is used by the next.
 */
function firstConnection(connection: RedisConnection, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`${connection.description} did not accept a connection within ${ms} ms`)),
      ms,
    );
    timer.unref(); // waiting for Redis never keeps the process alive
  });
  const ready = Promise.race([connection.connected, timeout]).finally(() => clearTimeout(timer));
  ready.catch(() => {}); // awaiting it is optional: no unhandled rejection
  return ready;
}

/** What key management waits for: nothing once Redis has answered, else a first connection within `ms`. */
function whenConnected(connection: RedisConnection, ms: number): () => Promise<void> {
  let answered = false;
  void connection.connected.then(() => {
    answered = true;
  });
  return () => (answered ? Promise.resolve() : firstConnection(connection, ms));
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
function redisKeyPatch(
  connection: RedisConnection,
  keyRecord: (hash: string) => string,
  keyv: Keyv<StoredKey>,
): KeyPatch {
  return async (hash, changes) => {
    // Keyv's own serializer: what it escapes (a string starting with ':') reads back as written.
    const set = JSON.parse(await keyv.serialize!({ value: changes })) as { value: Record<string, unknown> };
    const json = JSON.stringify({
      ...Object.fromEntries(Object.keys(changes).map((field) => [field, null])),
      ...set.value,
    });
    const out = await connection.client.eval(PATCH_KEY, { keys: [keyRecord(hash)], arguments: [json] });
    return out === null || out === undefined ? undefined : (await keyv.deserialize!<StoredKey>(String(out)))?.value;
  };
}

/** Redis stores: the connection they share is there for scripts and tests of your own; the shadow store is always offered. */
export interface RedisStores extends OpenedStores {
  connection: RedisConnection;
  openShadowStore(caps?: ShadowRetention): ShadowCaseStore;
}

/**
 * Keys and limits in Redis, shared by every instance that uses the same Redis and namespace: one node (`url`), a
 * Redis Cluster (`clusterNodes`) or a master behind Sentinels (`sentinels`, `sentinelMaster`); exactly one of them.
 */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  const connection = connectRedis(options);
  const names = storeNames(options.namespace, { hashTags: connection.hashTags });
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_REDIS_READY_TIMEOUT_MS;
  const ready = firstConnection(connection, readyTimeoutMs);
  const adapter = new KeyvRedis<StoredKey>(connection.client, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv<StoredKey>({ store: adapter, namespace: names.keys, useKeyPrefix: false, throwOnErrors: true });
  const seedMarker = new RedisSeedMarker(connection, names.seeded, {
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  // Key management waits for the first connection (`await keyStore.add()` right after start-up works);
  // request-time look-ups (find) never wait: the router answers 503 while Redis is not ready.
  const patch = redisKeyPatch(connection, names.keyRecord, keyv);
  const whenReady = whenConnected(connection, readyTimeoutMs);
  const keyStore: KeyStore = new KeyvKeyStore(keyv, {
    isReady: connection.isReady,
    close: connection.close,
    whenReady,
    seedMarker,
    patch,
  });
  const usageStore = new RedisUsageStore(connection, names.namespace);
  return {
    keyStore,
    usageStore,
    connection,
    ready,
    close: connection.close,
    connected: connection.connected,
    isReady: connection.isReady,
    description: connection.description,
    openShadowStore: (caps = {}) => new RedisShadowStore(connection, { ...caps, namespace: names.namespace }),
  };
}
