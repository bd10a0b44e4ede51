// The standalone server's keys: seeded from API_KEYS_FILE (or the development key) once Redis answers, and
// seeded again whenever Redis turns out to have lost them (restarted without persistence). Until then the
// key store answers 503, never 401 for a key that is in the file.

import { loadKeyFile, seedKeys, type KeyRecord, type KeyStore } from '../middleware/index.js';

export interface KeySeeding {
  keyStore: KeyStore;
  /** The records read at start-up (the file's, or the printed development key). */
  records: readonly KeyRecord[];
  /** Re-read on every re-seeding, so keys added to the file since start-up are seeded too. */
  apiKeysFile?: string;
  log: (message: string) => void;
}

/** Seeds now (when `connected` resolves) and every time the store reports its seeding missing; one at a time. */
export function keepKeysSeeded({ keyStore, records, apiKeysFile, log }: KeySeeding, connected: Promise<void>): void {
  let queue = Promise.resolve();
  // The first seeding covers a store found empty at the first connection; it is not a loss.
  let startingUp = true;
  const seed = (again: boolean): void => {
    queue = queue.then(async () => {
      const current = await currentRecords(records, apiKeysFile, log);
      await seedKeys(keyStore, current);
      if (again) log(`seeded ${current.length} API key${current.length === 1 ? '' : 's'} again (the key store had lost them)`);
    }).catch((err: unknown) => log(`seeding API keys failed: ${(err as Error).message}`))
      .finally(() => {
        if (!again) startingUp = false;
      });
  };
  keyStore.onSeedMissing?.(() => {
    if (!startingUp) seed(true);
  });
  void connected.then(() => seed(false));
}

async function currentRecords(records: readonly KeyRecord[], apiKeysFile: string | undefined, log: (message: string) => void): Promise<readonly KeyRecord[]> {
  if (apiKeysFile === undefined) return records;
  try {
    return await loadKeyFile(apiKeysFile);
  } catch (err) {
    log(`${(err as Error).message}; seeding the keys read at start-up`);
    return records;
  }
}
