// API_KEYS_FILE: a JSON array of key records (see contract.md), used to seed a key store.

import { readFile, writeFile } from 'node:fs/promises';
import { hashKey, KEY_ID_LENGTH, validateKeyRecord, type KeyRecord } from './key-record.js';

/** The fields a key record may have (contract.md); anything else is a misspelling, never silently ignored. */
const RECORD_FIELDS = new Set(['key', 'scope', 'expiresAt', 'revoked', 'requestsPerSecond', 'pagesPerDay', 'organization']);

export async function loadKeyFile(path: string): Promise<KeyRecord[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read key file ${path}: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`key file ${path} must hold a JSON array of key records`);
  const firstOf = new Map<string, number>();
  return parsed.map((entry, i) => {
    let record: KeyRecord;
    try {
      const unknown = typeof entry === 'object' && entry !== null ? Object.keys(entry).filter((f) => !RECORD_FIELDS.has(f)) : [];
      if (unknown.length > 0) {
        throw new TypeError(`unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')} (fields: ${[...RECORD_FIELDS].join(', ')})`);
      }
      record = validateKeyRecord(entry);
    } catch (err) {
      throw new Error(`key file ${path}, record ${i}: ${(err as Error).message}`);
    }
    // Named by id, never by the key: the message goes to logs.
    const earlier = firstOf.get(record.key);
    if (earlier !== undefined) {
      throw new Error(`key file ${path}, record ${i}: the same key as record ${earlier} (id ${hashKey(record.key).slice(0, KEY_ID_LENGTH)}); keep one`);
    }
    firstOf.set(record.key, i);
    return record;
  });
}

export async function saveKeyFile(path: string, records: readonly KeyRecord[]): Promise<void> {
  await writeFile(path, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 });
}
