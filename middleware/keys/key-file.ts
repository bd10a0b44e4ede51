// API_KEYS_FILE: a JSON array of key records (see contract.md), used to seed a key store.

import { randomBytes } from 'node:crypto';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { withFileLock } from './file-lock.js';
import { hashKey, KEY_ID_LENGTH, validateKeyRecord, type KeyRecord } from './key-record.js';

/** The fields a key record may have (contract.md); anything else is a misspelling, never silently ignored. */
const RECORD_FIELDS = new Set([
  'key',
  'scope',
  'expiresAt',
  'revoked',
  'requestsPerSecond',
  'pagesPerDay',
  'organization',
]);

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
      const unknown =
        typeof entry === 'object' && entry !== null ? Object.keys(entry).filter((f) => !RECORD_FIELDS.has(f)) : [];
      if (unknown.length > 0) {
        throw new TypeError(
          `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')} (fields: ${[...RECORD_FIELDS].join(', ')})`,
        );
      }
      record = validateKeyRecord(entry);
    } catch (err) {
      throw new Error(`key file ${path}, record ${i}: ${(err as Error).message}`);
    }
    // Named by id, never by the key: the message goes to logs.
    const earlier = firstOf.get(record.key);
    if (earlier !== undefined) {
      throw new Error(
        `key file ${path}, record ${i}: the same key as record ${earlier} (id ${hashKey(record.key).slice(0, KEY_ID_LENGTH)}); keep one`,
      );
    }
    firstOf.set(record.key, i);
    return record;
  });
}

/**
 * Changes the key file: read, changed in place by `change`, and (if it changed) written to a temporary file renamed over it, all under the
 * file's lock, so concurrent writers lose no record and a reader never sees half a file. The file holds plain keys:
 * it is written readable by its owner only (mode 600), and keeps its owner and group where the writer may set them
 * (root editing a file that a container's user reads).
 */
export async function changeKeyFile<T>(path: string, change: (records: KeyRecord[]) => T | Promise<T>): Promise<T> {
  return withFileLock(path, async () => {
    const records = await loadKeyFile(path);
    const before = JSON.stringify(records);
    const result = await change(records);
    if (JSON.stringify(records) !== before) await writeWhole(path, `${JSON.stringify(records, null, 2)}\n`);
    return result;
  });
}

/** Writes `text` to a temporary file beside `path` (mode 600, flushed to disk) and renames it over `path`. */
async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const owner = await stat(path).catch(() => undefined);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    // Only root may give a file away: anyone else's file stays theirs, as before.
    if (owner) await handle.chown(owner.uid, owner.gid).catch(() => {});
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (err) {
    await unlink(temporary).catch(() => {});
    throw err;
  }
}
