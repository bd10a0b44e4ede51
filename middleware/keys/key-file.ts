// API_KEYS_FILE: a JSON array of key records (see contract.md), used to seed a key store.

import { readFile, writeFile } from 'node:fs/promises';
import { validateKeyRecord, type KeyRecord } from './key-record.js';

export async function loadKeyFile(path: string): Promise<KeyRecord[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read key file ${path}: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`key file ${path} must hold a JSON array of key records`);
  return parsed.map((entry, i) => {
    try {
      return validateKeyRecord(entry);
    } catch (err) {
      throw new Error(`key file ${path}, record ${i}: ${(err as Error).message}`);
    }
  });
}

export async function saveKeyFile(path: string, records: readonly KeyRecord[]): Promise<void> {
  await writeFile(path, `${JSON.stringify(records, null, 2)}\n`, { mode: 0o600 });
}
