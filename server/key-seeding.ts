// The standalone server's keys: seeded from API_KEYS_FILE (or the development key) once a shared store answers,
// and seeded again whenever it turns out to have lost them (restarted without persistence). Until then the
// key store answers 503, never 401 for a key that is in the file.

import { loadKeyFile, seedKeys, type Emit, type KeyRecord, type KeyStore } from '../middleware/index.js';

export interface KeySeeding {
  keyStore: KeyStore;
  /** The records read at start-up (the file's, or the printed development key). */
  records: readonly KeyRecord[];
  /** Re-read on every re-seeding, so keys added to the file since start-up are seeded too. */
  apiKeysFile?: string;
  /** Where seedings and failures are reported (`key_seeding` events). */
  emit: Emit;
  /** The store's name in the seeding line (`API keys stored in Redis: 2`). */
  storeLabel: string;
  /**
   * A key whose record leaves the store at its `expiresAt` (the development key in a shared Redis), so that
   * keys of past starts do not pile up; written before the seeding is marked complete.
   */
  expiring?: KeyRecord;
}

/** Stores `record` so that Redis drops it at its expiry; nothing once that has passed. */
async function addExpiring(keyStore: KeyStore, record: KeyRecord): Promise<number> {
  const ttlMs = Date.parse(record.expiresAt!) - Date.now();
  if (!(ttlMs > 0)) return 0;
  await keyStore.add(record, { ttlMs });
  return 1;
}

/** Time between attempts of a first seeding that failed (Redis went away again meanwhile). */
const RETRY_MS = 500;

/**
 * Seeds now (when `connected` resolves) and every time the store reports its seeding missing; one at a time.
 * Resolves once the first seeding has succeeded (it is retried until it does).
 */
export function keepKeysSeeded(
  { keyStore, records, apiKeysFile, emit, expiring, storeLabel }: KeySeeding,
  connected: Promise<void>,
): Promise<void> {
  const failed = (message: string): void => emit({ type: 'key_seeding', outcome: 'failed', message });
  let queue = Promise.resolve();
  // The first seeding covers a store found empty at the first connection; it is not a loss.
  let startingUp = true;
  let firstSeeded: () => void = () => {};
  const seededOnce = new Promise<void>((resolve) => {
    firstSeeded = resolve;
  });
  const seed = (again: boolean): void => {
    queue = queue
      .then(async () => {
        const current = await currentRecords(records, apiKeysFile, (message) =>
          emit({ type: 'notice', level: 'warn', message }),
        );
        const keys =
          (expiring ? await addExpiring(keyStore, expiring) : 0) + (await seedKeys(keyStore, current)).length;
        if (again) {
          const message = `seeded ${keys} API key${keys === 1 ? '' : 's'} again (the key store had lost them)`;
          emit({ type: 'key_seeding', outcome: 'seeded_again', message, keys });
        } else {
          emit({ type: 'key_seeding', outcome: 'seeded', message: `API keys stored in ${storeLabel}: ${keys}`, keys });
          startingUp = false;
          firstSeeded();
        }
      })
      .catch((err: unknown) => {
        failed(`seeding API keys failed: ${(err as Error).message}`);
        if (!again) setTimeout(() => seed(false), RETRY_MS).unref();
      });
  };
  keyStore.onSeedMissing?.(() => {
    if (!startingUp) seed(true);
  });
  void connected.then(() => seed(false));
  return seededOnce;
}

async function currentRecords(
  records: readonly KeyRecord[],
  apiKeysFile: string | undefined,
  warn: (message: string) => void,
): Promise<readonly KeyRecord[]> {
  if (apiKeysFile === undefined) return records;
  try {
    return await loadKeyFile(apiKeysFile);
  } catch (err) {
    warn(`${(err as Error).message}; seeding the keys read at start-up`);
    return records;
  }
}
