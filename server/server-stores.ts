// The standalone server's stores: in memory, or in Redis (REDIS_URL, REDIS_NAMESPACE), seeded from
// API_KEYS_FILE or the development key. `seeded` resolves once the keys are in the store (in Redis: once it
// answers, however late it comes up), which is when the server says it is listening.

import {
  createMemoryStores,
  createRedisStores,
  FileShadowStore,
  generateKey,
  loadKeyFile,
  RedisShadowStore,
  seedKeys,
  type EventSink,
  type KeyRecord,
  type RedisConnection,
  type ServiceEvent,
  type ShadowCaseStore,
  type Stores,
} from '../middleware/index.js';
import type { ServerConfig } from './config.js';
import { keepKeysSeeded } from './key-seeding.js';

/** The development key's record lives this long in a shared Redis: it outlives the process, so it must expire. */
const DEV_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A random all-scope key for a start without API_KEYS_FILE; in Redis it expires (record and all) after DEV_KEY_TTL_MS. */
export function developmentKey(inRedis: boolean): KeyRecord {
  const record: KeyRecord = { key: generateKey('zpl_dev_'), scope: 'all' };
  if (inRedis) record.expiresAt = new Date(Date.now() + DEV_KEY_TTL_MS).toISOString();
  return record;
}

/** The stores, and when they hold the keys of API_KEYS_FILE and the development key (if any). */
export async function openStores(config: ServerConfig, events: EventSink, devKey: KeyRecord | undefined): Promise<{ stores: Stores; seeded: Promise<void> }> {
  const records = config.apiKeysFile ? await loadKeyFile(config.apiKeysFile) : [];
  if (!config.fleet.redis) {
    const stores = createMemoryStores();
    await seedKeys(stores.keyStore, devKey ? [...records, devKey] : records);
    return { stores, seeded: Promise.resolve() };
  }
  const redis = createRedisStores({
    ...config.fleet.redis,
    ...(config.redisNamespace && { namespace: config.redisNamespace }),
    log: (message) => events.emit(redisStoreEvent(message)),
    requireSeed: true,
  });
  // Keys are seeded once Redis answers, and again if it loses them; until then requests get 503, not a hang.
  const seeded = keepKeysSeeded({
    keyStore: redis.keyStore, records, emit: events.emit,
    ...(config.apiKeysFile && { apiKeysFile: config.apiKeysFile }),
    ...(devKey && { expiring: devKey }),
  }, redis.connection.connected);
  return { stores: redis, seeded };
}

/** The Redis stores' log lines as events: connection state, or the key store finding its seeding gone. */
function redisStoreEvent(message: string): ServiceEvent {
  if (/^key store lost its data/.test(message)) return { type: 'key_seeding', outcome: 'lost', message };
  return { type: 'store_state', ready: / available again$/.test(message), message };
}

/**
 * ANONYMOUS_KEY_ID must name a stored key. Keys in this process cannot change later, so a miss is a start-up
 * error; in Redis, `zpl-keys` may add the key later: a warning.
 */
export async function checkAnonymousKey(config: ServerConfig, stores: Stores, note: (message: string, level: 'warn') => void): Promise<void> {
  const id = config.clients.anonymousKey;
  if (id === undefined) return;
  let found: boolean;
  try {
    found = (await stores.keyStore.get(id)) !== undefined;
  } catch (err) {
    // Redis went away again since the seeding: the look-up is retried per request anyway.
    note(`ANONYMOUS_KEY_ID ${id} could not be checked: ${(err as Error).message}`, 'warn');
    return;
  }
  if (found) return;
  const message = `ANONYMOUS_KEY_ID ${id} matches no key (ids as \`npx zpl-keys list\` prints them)`;
  if (!config.fleet.redis) throw new Error(message);
  note(`${message}; requests without X-API-Key get 401 until a key with that id is added`, 'warn');
}

/** Where shadow mode keeps its cases: the Redis every replica shares, or SHADOW_DIR (SHADOW_STORE, fleet-config.ts). */
export function openShadowStore(config: ServerConfig, stores: Stores): ShadowCaseStore | undefined {
  if (config.upstream.mode !== 'shadow') return undefined;
  const { shadowStore, shadowMaxCases, shadowMaxBytes } = config.fleet;
  const caps = { ...(shadowMaxCases !== undefined && { maxCases: shadowMaxCases }), ...(shadowMaxBytes !== undefined && { maxBytes: shadowMaxBytes }) };
  if (shadowStore === 'redis' && 'connection' in stores) return new RedisShadowStore(stores.connection as RedisConnection, caps);
  return config.shadow.storeDir === undefined ? undefined : new FileShadowStore(config.shadow.storeDir, caps);
}
