// API key records: what an operator configures (KeyRecord, with the plain key) and what is stored
// (StoredKey: the SHA-256 of the key, never the key itself).

import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyScope = 'all' | 'pdf' | 'png';
export const KEY_SCOPES: readonly KeyScope[] = ['all', 'pdf', 'png'];

/** A key as written in API_KEYS_FILE or passed to KeyStore.add. Only `key` and `scope` are required. */
export interface KeyRecord {
  key: string;
  scope: KeyScope;
  /** ISO 8601; the key is expired from this instant on. */
  expiresAt?: string;
  revoked?: boolean;
  requestsPerSecond?: number;
  pagesPerDay?: number;
  organization?: string;
}

/** A key as the store holds it. `id` (a prefix of the hash) names it in listings and admin commands. */
export interface StoredKey extends Omit<KeyRecord, 'key'> {
  id: string;
  hash: string;
  revoked: boolean;
  createdAt: string;
}

export const KEY_ID_LENGTH = 16;

/** SHA-256 of the key as hex, with one-shot `hash()`: every request hashes its key, and a Hash object costs three times as much. */
export function hashKey(plainKey: string): string {
  return hash('sha256', plainKey, 'hex');
}

/** Compares two hex digests without leaking where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A fresh random key, e.g. `zpl_live_4f9c...` (32 random bytes). */
export function generateKey(prefix = 'zpl_live_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function isExpired(key: Pick<StoredKey, 'expiresAt'>, now: Date): boolean {
  return key.expiresAt !== undefined && Date.parse(key.expiresAt) <= now.getTime();
}

/** Checks a record from a file, CLI or caller; throws a TypeError naming the first bad field. */
export function validateKeyRecord(input: unknown): KeyRecord {
  if (typeof input !== 'object' || input === null) throw new TypeError('key record must be an object');
  const r = input as Record<string, unknown>;
  if (typeof r.key !== 'string' || r.key.length === 0) throw new TypeError('key record needs a non-empty "key"');
  if (!KEY_SCOPES.includes(r.scope as KeyScope)) throw new TypeError('"scope" must be "all", "pdf" or "png"');
  if (r.expiresAt !== undefined && (typeof r.expiresAt !== 'string' || Number.isNaN(Date.parse(r.expiresAt)))) {
    throw new TypeError('"expiresAt" must be an ISO 8601 date');
  }
  if (r.revoked !== undefined && typeof r.revoked !== 'boolean') throw new TypeError('"revoked" must be a boolean');
  for (const field of ['requestsPerSecond', 'pagesPerDay'] as const) {
    const v = r[field];
    if (v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v) && v > 0)) {
      throw new TypeError(`"${field}" must be a positive integer`);
    }
  }
  if (r.organization !== undefined && typeof r.organization !== 'string') {
    throw new TypeError('"organization" must be a string');
  }
  const record: KeyRecord = { key: r.key, scope: r.scope as KeyScope };
  if (r.expiresAt !== undefined) record.expiresAt = new Date(r.expiresAt as string).toISOString();
  if (r.revoked !== undefined) record.revoked = r.revoked as boolean;
  if (typeof r.requestsPerSecond === 'number') record.requestsPerSecond = r.requestsPerSecond;
  if (typeof r.pagesPerDay === 'number') record.pagesPerDay = r.pagesPerDay;
  if (r.organization !== undefined && r.organization !== '') record.organization = r.organization as string;
  return record;
}

export function toStoredKey(record: KeyRecord, now = new Date()): StoredKey {
  const { key, ...rest } = record;
  const hash = hashKey(key);
  return {
    ...rest,
    id: hash.slice(0, KEY_ID_LENGTH),
    hash,
    revoked: record.revoked ?? false,
    createdAt: now.toISOString(),
  };
}
