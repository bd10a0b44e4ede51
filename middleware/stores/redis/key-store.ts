// Keys in Redis: KeyvKeyStore over Keyv with @keyv/redis on the shared connection, changes made in one Lua script,
// and the seed marker as a Redis key beside the records.

import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import type { StoredKey } from '../../keys/key-record.js';
import { KeyvKeyStore, type KeyPatch, type KeyStore } from '../key-store.js';
import { StoreSeedMarker } from '../seed-marker.js';
import type { StoreNames } from '../store-names.js';
import { firstConnection, type RedisConnection } from './connection.js';

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

export interface RedisKeyStoreOptions {
  /** How long a key management call made while Redis has never answered waits for it. */
  readyTimeoutMs: number;
  requireSeed?: boolean;
  log?: (message: string) => void;
}

/** The key store on `connection`, its records and seed marker named by `names`. */
export function openRedisKeyStore(
  connection: RedisConnection,
  names: StoreNames,
  options: RedisKeyStoreOptions,
): KeyStore {
  const adapter = new KeyvRedis<StoredKey>(connection.client, { throwOnErrors: true, throwOnConnectError: true });
  const keyv = new Keyv<StoredKey>({ store: adapter, namespace: names.keys, useKeyPrefix: false, throwOnErrors: true });
  const seedMarker = new StoreSeedMarker(connection, names.seeded, {
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  // Key management waits for the first connection (`await keyStore.add()` right after start-up works);
  // request-time look-ups (find) never wait: the router answers 503 while Redis is not ready.
  return new KeyvKeyStore(keyv, {
    isReady: connection.isReady,
    close: connection.close,
    whenReady: whenConnected(connection, options.readyTimeoutMs),
    seedMarker,
    patch: redisKeyPatch(connection, names.keyRecord, keyv),
  });
}
