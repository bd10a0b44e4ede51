// Keys in this process: the Keyv key store on a Map (the memory backend's, and the default).

import { Keyv } from 'keyv';
import type { StoredKey } from '../../keys/key-record.js';
import { KeyvKeyStore, type KeyStore } from '../key-store.js';

/** An in-memory key store (one process; the default). */
export function createMemoryKeyStore(): KeyStore {
  return new KeyvKeyStore(new Keyv<StoredKey>({ store: new Map(), namespace: 'zpl-keys', throwOnErrors: true }));
}
