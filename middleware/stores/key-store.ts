// The key store: StoredKey records under the SHA-256 of their key, on any Keyv backend (memory, Redis, PostgreSQL).

import type { Keyv } from 'keyv';
import {
  hashKey,
  KEY_ID_LENGTH,
  sameHash,
  toStoredKey,
  validateKeyRecord,
  type KeyRecord,
  type StoredKey,
} from '../keys/key-record.js';
import type { SeedMarker } from './seed-marker.js';

/** What may change on a stored key after it was created. */
export type KeyChanges = Partial<
  Pick<StoredKey, 'scope' | 'expiresAt' | 'revoked' | 'requestsPerSecond' | 'pagesPerDay' | 'organization'>
>;

export interface KeyStore {
  /** False while the backing store is connecting or unreachable: callers answer 503 instead of waiting. */
  isReady(): boolean;
  /**
   * Resolves once the store has checked its first connection (a seed marker read): until then it answers not ready
   * however soon the connection is up. Never rejects. Absent: nothing to check.
   */
  checked?(): Promise<void>;
  /** The key matching `plainKey` (revoked and expired ones included), or undefined when unknown. */
  find(plainKey: string): Promise<StoredKey | undefined>;
  /**
   * Validates and stores a key (replacing one with the same value); returns what was stored. With `ttlMs`
   * the record itself disappears from the store after that long (e.g. a development key in a shared Redis).
   */
  add(record: KeyRecord, options?: { ttlMs?: number }): Promise<StoredKey>;
  list(): Promise<StoredKey[]>;
  /** Looks a key up by id, hash (or a unique prefix of 8+ hex digits) or plain value. */
  get(ref: string): Promise<StoredKey | undefined>;
  update(ref: string, changes: KeyChanges): Promise<StoredKey | undefined>;
  revoke(ref: string): Promise<StoredKey | undefined>;
  /** Expires a key at `at` (default now). */
  expire(ref: string, at?: Date): Promise<StoredKey | undefined>;
  /** Deletes a key; where the store keeps tombstones, seeding does not add it again (see wasRemoved). */
  remove(ref: string): Promise<boolean>;
  /** True when the key with this hash was removed on purpose (and not added again since). */
  wasRemoved?(hash: string): Promise<boolean>;
  close(): Promise<void>;
  /** Records that a complete seeding is in the store (see seedKeys); stores that can lose their data check for it. */
  markSeeded?(): Promise<void>;
  /**
   * `listener` runs whenever the store finds the seeding it expects missing (its data lost, e.g. Redis restarted
   * without persistence); the store answers not ready until it is seeded again, e.g. by the listener.
   */
  onSeedMissing?(listener: () => void): void;
}

/** Applies `changes` (undefined deletes a field) to the record stored under `hash` in one step; undefined when none is. */
export type KeyPatch = (hash: string, changes: KeyChanges) => Promise<StoredKey | undefined>;
/**
 * How long `find` trusts a record it read: a key checked on every request is read (and parsed) from the store at most
 * this often. Changes made through this store apply at once; changes made elsewhere (zpl-keys, another instance)
 * within this time, so a revocation takes effect within a second everywhere.
 */
export const DEFAULT_FIND_CACHE_MS = 500;
/** Keys remembered at once; past it the oldest goes. */
const FIND_CACHE_ENTRIES = 1024;

const HEX_PREFIX = /^[0-9a-f]{8,64}$/;
const FULL_HASH = /^[0-9a-f]{64}$/;
const KEY_ID = new RegExp(`^[0-9a-f]{${KEY_ID_LENGTH}}$`);

/**
 * Beside each record, in the same Keyv namespace: `id:<id>` holds the key's hash, so a look-up by id is one read on any
 * backend, never a listing (ANONYMOUS_KEY_ID is looked up per request); `removed:<hash>` marks a key removed on purpose,
 * so seeding from the key file does not bring it back.
 */
const ID_ENTRY = 'id:';
const REMOVED_ENTRY = 'removed:';
/** Id entries written at once while indexing records of an older release. */
const INDEX_BATCH = 500;

/** A stored value that is a key record, not an index entry or a tombstone. */
function isKeyRecord(value: unknown): value is StoredKey {
  return typeof value === 'object' && value !== null && typeof (value as StoredKey).hash === 'string';
}

export class KeyvKeyStore implements KeyStore {
  readonly #keyv: Keyv<StoredKey>;
  readonly #ready: () => boolean;
  readonly #close: () => Promise<void>;
  readonly #whenReady: () => Promise<void>;
  readonly #marker: SeedMarker | undefined;
  readonly #patch: KeyPatch | undefined;
  /** Records `find` read lately, by hash, with when they were read (by #clock). */
  readonly #found = new Map<string, { key: StoredKey; at: number }>();
  /** Look-ups on their way to the store, by hash: a burst with one key asks the store once, not once per request. */
  readonly #finding = new Map<string, Promise<StoredKey | undefined>>();
  readonly #cacheMs: number;
  readonly #clock: () => number;
  /** Index entries and tombstones share the records' Keyv (and so its namespace and backend). */
  readonly #entries: Keyv<unknown>;
  /** Set once every record listed has its id entry (records written before the index existed get theirs then). */
  #indexed: Promise<void> | undefined;

  /**
   * `whenReady`: what key management (everything but find) waits for first, e.g. the first Redis connection;
   * `seedMarker`: how the store knows it lost its seeding (see seed-marker.ts);
   * `patch`: changes a record in one step in the backing store (without it: read, merge, write);
   * `findCacheMs`: how long `find` may answer from what it read (0: never), by `clock` (ms, default performance.now).
   */
  constructor(
    keyv: Keyv<StoredKey>,
    options: {
      isReady?: () => boolean;
      close?: () => Promise<void>;
      whenReady?: () => Promise<void>;
      seedMarker?: SeedMarker;
      patch?: KeyPatch;
      findCacheMs?: number;
      clock?: () => number;
    } = {},
  ) {
    this.#patch = options.patch;
    this.#keyv = keyv;
    this.#entries = keyv as Keyv<unknown>;
    this.#cacheMs = options.findCacheMs ?? DEFAULT_FIND_CACHE_MS;
    this.#clock = options.clock ?? (() => performance.now());
    this.#whenReady = options.whenReady ?? (() => Promise.resolve());
    this.#ready = options.isReady ?? (() => true);
    this.#close = options.close ?? (() => keyv.disconnect());
    this.#marker = options.seedMarker;
  }

  isReady(): boolean {
    return this.#ready() && !(this.#marker?.blocking() ?? false);
  }

  checked(): Promise<void> {
    return this.#marker?.checked?.() ?? Promise.resolve();
  }

  async find(plainKey: string): Promise<StoredKey | undefined> {
    const hash = hashKey(plainKey);
    const now = this.#clock();
    const seen = this.#found.get(hash);
    if (seen && now - seen.at < this.#cacheMs) return seen.key;
    const running = this.#finding.get(hash);
    if (running) return running;
    const lookup = this.#lookUp(hash, now);
    this.#finding.set(hash, lookup);
    const done = (): void => {
      if (this.#finding.get(hash) === lookup) this.#finding.delete(hash);
    };
    lookup.then(done, done);
    return lookup;
  }

  /** Forgets what find read of `hash` (cached or on its way): the next find reads the store again. */
  #forget(hash: string): void {
    this.#found.delete(hash);
    this.#finding.delete(hash);
  }

  async #lookUp(hash: string, now: number): Promise<StoredKey | undefined> {
    const stored = await this.#keyv.get(hash);
    if (stored !== undefined && sameHash(stored.hash, hash)) {
      this.#remember(hash, stored, now);
      return stored;
    }
    this.#found.delete(hash);
    // An unknown key may mean the store was emptied (e.g. Redis flushed): a 503, not a 401, until re-seeded.
    if (this.#marker && !(await this.#marker.confirm()))
      throw new Error('key store lost its data; waiting to be seeded again');
    return undefined;
  }

  #remember(hash: string, key: StoredKey, at: number): void {
    if (this.#cacheMs <= 0) return;
    this.#found.delete(hash);
    if (this.#found.size >= FIND_CACHE_ENTRIES) this.#found.delete(this.#found.keys().next().value!);
    this.#found.set(hash, { key, at });
  }

  async add(record: KeyRecord, options: { ttlMs?: number } = {}): Promise<StoredKey> {
    const stored = toStoredKey(validateKeyRecord(record));
    this.#forget(stored.hash);
    await this.#whenReady();
    await this.#keyv.set(stored.hash, stored, options.ttlMs);
    await this.#entries.set(ID_ENTRY + stored.id, stored.hash, options.ttlMs);
    await this.#entries.delete(REMOVED_ENTRY + stored.hash); // made again on purpose: seeding may keep it
    this.#forget(stored.hash); // a find that raced the write may have kept the old record
    return stored;
  }

  async list(): Promise<StoredKey[]> {
    const keys: StoredKey[] = [];
    if (!this.#keyv.iterator) throw new Error('this Keyv store cannot list its entries');
    await this.#whenReady();
    for await (const [, value] of this.#keyv.iterator(this.#keyv.namespace)) {
      if (isKeyRecord(value)) keys.push(value);
    }
    return keys.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async get(ref: string): Promise<StoredKey | undefined> {
    const hash = await this.#resolve(ref);
    return hash === undefined ? undefined : this.#keyv.get(hash);
  }

  async update(ref: string, changes: KeyChanges): Promise<StoredKey | undefined> {
    const hash = await this.#resolve(ref);
    // Atomically where the store can: a revocation made meanwhile by another process is never written over.
    if (this.#patch && hash !== undefined) {
      this.#forget(hash);
      return this.#patch(hash, changes);
    }
    const stored = hash === undefined ? undefined : await this.#keyv.get(hash);
    if (!stored) return undefined;
    this.#forget(stored.hash);
    const updated: StoredKey = { ...stored, ...changes };
    for (const field of Object.keys(updated) as (keyof StoredKey)[]) {
      if (updated[field] === undefined) delete updated[field];
    }
    await this.#keyv.set(stored.hash, updated);
    this.#forget(stored.hash);
    return updated;
  }

  revoke(ref: string): Promise<StoredKey | undefined> {
    return this.update(ref, { revoked: true });
  }

  expire(ref: string, at: Date = new Date()): Promise<StoredKey | undefined> {
    return this.update(ref, { expiresAt: at.toISOString() });
  }

  async remove(ref: string): Promise<boolean> {
    const hash = await this.#resolve(ref);
    if (hash === undefined) return false;
    const removed = await this.#keyv.delete(hash);
    this.#forget(hash);
    await this.#entries.delete(ID_ENTRY + hash.slice(0, KEY_ID_LENGTH));
    if (removed) await this.#entries.set(REMOVED_ENTRY + hash, new Date().toISOString());
    return removed;
  }

  /** True when the key with this hash was removed (and not created again since): seeding leaves it out. */
  async wasRemoved(hash: string): Promise<boolean> {
    await this.#whenReady();
    return (await this.#entries.get(REMOVED_ENTRY + hash.toLowerCase())) !== undefined;
  }

  close(): Promise<void> {
    return this.#close();
  }

  async markSeeded(): Promise<void> {
    await this.#marker?.mark();
  }

  onSeedMissing(listener: () => void): void {
    this.#marker?.onMissing(listener);
  }

  /** The hash a reference names: an id or hash prefix matching exactly one key, else the hash of a plain key. */
  async #resolve(ref: string): Promise<string | undefined> {
    const lower = ref.toLowerCase();
    // A whole hash needs no listing (seeding looks every key up this way).
    if (FULL_HASH.test(lower)) {
      if (await this.#keyv.has(lower)) return lower;
    } else if (KEY_ID.test(lower)) {
      const hash = await this.#byId(lower);
      if (hash !== undefined) return hash;
    } else if (HEX_PREFIX.test(lower)) {
      const matches = (await this.list()).filter((k) => k.hash.startsWith(lower));
      if (matches.length === 1) return matches[0]!.hash;
      if (matches.length > 1) {
        throw new Error(`key reference ${ref} is ambiguous; give at least ${KEY_ID_LENGTH} hex digits`);
      }
    }
    const hash = hashKey(ref);
    await this.#whenReady();
    return (await this.#keyv.has(hash)) ? hash : undefined;
  }

  /** The hash of the key with this id, from the id index: one read, whatever the store holds. */
  async #byId(id: string): Promise<string | undefined> {
    await this.#whenReady();
    const read = async (): Promise<string | undefined> => {
      const hash = await this.#entries.get(ID_ENTRY + id);
      return typeof hash === 'string' && (await this.#keyv.has(hash)) ? hash : undefined;
    };
    if (this.#indexed === undefined) {
      const hash = await read();
      if (hash !== undefined) return hash;
      // Once per store object (a process), never per request: records written before the index existed get their id
      // entries. Look-ups meanwhile wait for it (a request's deadline turns that into a 503, not a wrong 401).
      this.#indexed ??= this.#indexAll().catch((err: unknown) => {
        this.#indexed = undefined;
        throw err;
      });
    }
    await this.#indexed;
    return read();
  }

  async #indexAll(): Promise<void> {
    const keys = await this.list();
    for (let i = 0; i < keys.length; i += INDEX_BATCH) {
      await Promise.all(keys.slice(i, i + INDEX_BATCH).map((key) => this.#entries.set(ID_ENTRY + key.id, key.hash)));
    }
  }
}
