// The standalone server's stores, opened through the backend table (store-backends.ts: memory, Redis, PostgreSQL)
// under STORE_NAMESPACE, seeded from API_KEYS_FILE or the development key. `seeded` resolves once the keys are in
// the store (a shared store: once it answers, however late it comes up), which is when the server says it is listening.

import {
  FileShadowStore,
  generateKey,
  loadKeyFile,
  seedKeys,
  type EventSink,
  type KeyRecord,
  type OpenedStores,
  type ServiceEvent,
  type ShadowCaseStore,
} from '../middleware/index.js';
import type { ServerConfig } from './config.js';
import { keepKeysSeeded } from './key-seeding.js';
import { openSelectedStore } from './store-backends.js';

/** The development key's record lives this long in a shared store: it outlives the process, so it must expire. */
const DEV_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A random all-scope key for a start without API_KEYS_FILE; in a shared store it expires (record and all) after DEV_KEY_TTL_MS. */
export function developmentKey(shared: boolean): KeyRecord {
  const record: KeyRecord = { key: generateKey('zpl_dev_'), scope: 'all' };
  if (shared) record.expiresAt = new Date(Date.now() + DEV_KEY_TTL_MS).toISOString();
  return record;
}

/** The stores, and when they hold the keys of API_KEYS_FILE and the development key (if any). */
export async function openStores(
  config: ServerConfig,
  events: EventSink,
  devKey: KeyRecord | undefined,
): Promise<{ stores: OpenedStores; seeded: Promise<void> }> {
  const records = config.apiKeysFile ? await loadKeyFile(config.apiKeysFile) : [];
  const { backend } = config.fleet.store;
  const stores = openSelectedStore(config.fleet.store, {
    ...(config.storeNamespace && { namespace: config.storeNamespace }),
    log: (message) => events.emit(storeEvent(message)),
    requireSeed: backend.shared,
  });
  if (!backend.shared) {
    await seedKeys(stores.keyStore, devKey ? [...records, devKey] : records);
    return { stores, seeded: Promise.resolve() };
  }
  // Keys are seeded once the store answers, and again if it loses them; until then requests get 503, not a hang.
  const seeded = keepKeysSeeded(
    {
      keyStore: stores.keyStore,
      records,
      emit: events.emit,
      storeLabel: backend.label,
      ...(config.apiKeysFile && { apiKeysFile: config.apiKeysFile }),
      ...(devKey && { expiring: devKey }),
    },
    stores.connected,
  );
  return { stores, seeded };
}

/** The stores' log lines as events: connection state, or the key store finding its seeding gone. */
function storeEvent(message: string): ServiceEvent {
  if (/^key store lost its data/.test(message)) return { type: 'key_seeding', outcome: 'lost', message };
  return { type: 'store_state', ready: / available again$/.test(message), message };
}

/**
 * ANONYMOUS_KEY_ID must name a stored key. Keys in this process cannot change later, so a miss is a start-up
 * error; in a shared store, `zpl-keys` may add the key later: a warning.
 */
export async function checkAnonymousKey(
  config: ServerConfig,
  stores: OpenedStores,
  note: (message: string, level: 'warn') => void,
): Promise<void> {
  const id = config.clients.anonymousKey;
  if (id === undefined) return;
  let found: boolean;
  try {
    found = (await stores.keyStore.get(id)) !== undefined;
  } catch (err) {
    // The store went away again since the seeding: the look-up is retried per request anyway.
    note(`ANONYMOUS_KEY_ID ${id} could not be checked: ${(err as Error).message}`, 'warn');
    return;
  }
  if (found) return;
  const message = `ANONYMOUS_KEY_ID ${id} matches no key (ids as \`npx zpl-keys list\` prints them)`;
  if (!config.fleet.store.backend.shared) throw new Error(message);
  note(`${message}; requests without X-API-Key get 401 until a key with that id is added`, 'warn');
}

/** Where shadow mode keeps its cases: the store every replica shares, or SHADOW_DIR (SHADOW_STORE, fleet-config.ts). */
export function openShadowStore(config: ServerConfig, stores: OpenedStores): ShadowCaseStore | undefined {
  if (config.upstream.mode !== 'shadow') return undefined;
  const { shadowStore, shadowMaxCases, shadowMaxBytes } = config.fleet;
  const caps = {
    ...(shadowMaxCases !== undefined && { maxCases: shadowMaxCases }),
    ...(shadowMaxBytes !== undefined && { maxBytes: shadowMaxBytes }),
  };
  if (shadowStore === 'store' && stores.openShadowStore) return stores.openShadowStore(caps);
  return config.shadow.storeDir === undefined ? undefined : new FileShadowStore(config.shadow.storeDir, caps);
}
