// The standalone server's keys: seeded from API_KEYS_FILE (or the development key) once Redis answers, and
// seeded again whenever Redis turns out to have lost them (restarted without persistence). Until then the
// key store answers 503, never 401 for a key that is in the file.

import { loadKeyFile, seedKeys, type Emit, type KeyRecord, type KeyStore } from '../middleware/index.js';

export interface KeySeeding {
  keyStore: KeyStore;
  /** The records read at start-up (the file's, or the printed development key). */
  records: readonly KeyRecord[];
  /** Re-read on every re-seeding, so keys added to the file since start-up are seeded too. */
  apiKeysFile?: string;
  /** Where re-seedings and failures are reported (`key_seeding` events). */
  emit: Emit;
}

/** Seeds now (when `connected` resolves) and every time the store reports its seeding missing; one at a time. */
export function keepKeysSeeded({ keyStore, records, apiKeysFile, emit }: KeySeeding, connected: Promise<void>): void {
  const failed = (message: string): void => emit({ type: 'key_seeding', outcome: 'failed', message });
  let queue = Promise.resolve();
  // The first seeding covers a store found empty at the first connection; it is not a loss.
  let startingUp = true;
  const seed = (again: boolean): void => {
    queue = queue.then(async () => {
      const current = await currentRecords(records, apiKeysFile, (message) => emit({ type: 'notice', level: 'warn', message }));
      await seedKeys(keyStore, current);
      if (again) {
        const message = `seeded ${current.length} API key${current.length === 1 ? '' : 's'} again (the key store had lost them)`;
        emit({ type: 'key_seeding', outcome: 'seeded_again', message, keys: current.length });
      }
    }).catch((err: unknown) => failed(`seeding API keys failed: ${(err as Error).message}`))
      .finally(() => {
        if (!again) startingUp = false;
      });
  };
  keyStore.onSeedMissing?.(() => {
    if (!startingUp) seed(true);
  });
  void connected.then(() => seed(false));
}

async function currentRecords(records: readonly KeyRecord[], apiKeysFile: string | undefined, warn: (message: string) => void): Promise<readonly KeyRecord[]> {
  if (apiKeysFile === undefined) return records;
  try {
    return await loadKeyFile(apiKeysFile);
  } catch (err) {
    warn(`${(err as Error).message}; seeding the keys read at start-up`);
    return records;
  }
}
