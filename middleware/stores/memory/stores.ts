// The memory backend: keys and usage counters in this process, opened as every backend opens them (OpenedStores).
// Nothing is shared between instances and nothing outlives the process; shadow cases go to SHADOW_DIR, if anywhere.

import type { OpenedStores } from '../opened-stores.js';
import { createMemoryKeyStore } from './key-store.js';
import { MemoryUsageStore } from './usage-store.js';

/** Keys and limits in this process (the default): nothing shared between instances. */
export function createMemoryStores(): OpenedStores {
  const keyStore = createMemoryKeyStore();
  const usageStore = new MemoryUsageStore();
  return {
    keyStore,
    usageStore,
    ready: Promise.resolve(),
    connected: Promise.resolve(),
    isReady: () => true,
    description: 'memory',
    close: async () => {
      await usageStore.close();
    },
  };
}
