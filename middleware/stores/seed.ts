// Seeding a key store from key records (API_KEYS_FILE). The file can add keys and tighten them, never loosen
// a key the store already holds: a revocation or an earlier expiry made with zpl-keys survives every restart,
// and so does a removal (the store's tombstone).

import { hashKey, validateKeyRecord, type KeyRecord, type KeyScope, type StoredKey } from '../keys/key-record.js';
import type { KeyChanges, KeyStore } from './key-store.js';

/** Fields the file decides for a stored key: they grant nothing a key did not have. */
const FILE_FIELDS = ['requestsPerSecond', 'pagesPerDay', 'organization'] as const;

/** The narrower of two scopes; of two different single formats, the stored one. */
function narrowerScope(stored: KeyScope, file: KeyScope): KeyScope {
  return stored === 'all' ? file : stored;
}

/** The earlier of two expiry instants (ISO 8601); none is the latest of all. */
function earlierExpiry(stored: string | undefined, file: string | undefined): string | undefined {
  if (stored === undefined) return file;
  if (file === undefined) return stored;
  return Date.parse(file) < Date.parse(stored) ? file : stored;
}

/** What seeding `file` changes on `stored`: limits as the file says, security fields only ever tighter. */
export function seedChanges(stored: StoredKey, file: KeyRecord): KeyChanges {
  const changes: KeyChanges = {};
  for (const field of FILE_FIELDS) {
    if (stored[field] !== file[field]) Object.assign(changes, { [field]: file[field] });
  }
  if (file.revoked === true && !stored.revoked) changes.revoked = true;
  const expiresAt = earlierExpiry(stored.expiresAt, file.expiresAt);
  if (expiresAt !== stored.expiresAt) changes.expiresAt = expiresAt;
  const scope = narrowerScope(stored.scope, file.scope);
  if (scope !== stored.scope) changes.scope = scope;
  return changes;
}

async function seedKey(store: KeyStore, record: KeyRecord): Promise<StoredKey | undefined> {
  const file = validateKeyRecord(record);
  const hash = hashKey(file.key);
  const stored = await store.get(hash);
  if (!stored) {
    // Removed with zpl-keys: the file does not bring it back (its record stays in the file until someone edits it).
    if (await store.wasRemoved?.(hash)) return undefined;
    return store.add(file);
  }
  const changes = seedChanges(stored, file);
  // Only the changed fields are written, so a revocation made meanwhile is not overwritten either.
  if (Object.keys(changes).length === 0) return stored;
  return (await store.update(stored.hash, changes)) ?? stored;
}

/**
 * Seeds every record (e.g. from API_KEYS_FILE) but those removed from the store on purpose, then marks the store as
 * seeded (see KeyStore.markSeeded). Returns the keys now stored.
 */
export async function seedKeys(store: KeyStore, records: readonly KeyRecord[]): Promise<StoredKey[]> {
  const stored: StoredKey[] = [];
  for (const record of records) {
    const key = await seedKey(store, record);
    if (key) stored.push(key);
  }
  await store.markSeeded?.();
  return stored;
}
