// The memory backend: keys, usage counters and the printer feed in this process, opened as every backend opens them (OpenedStores).
// Nothing is shared between instances and nothing outlives the process; shadow cases go to SHADOW_DIR, if anywhere.

import { storesAnswer, type OpenedStores } from '../opened-stores.js';
import { createMemoryKeyStore } from './key-store.js';
import { createMemoryPrinterFeed } from './printer-feed.js';
import { MemoryUsageStore } from './usage-store.js';
import type { PrinterFeed } from '../printer-feed.js';

/** Keys and limits in this process (the default): nothing shared between instances. */
export function createMemoryStores(): OpenedStores {
  const keyStore = createMemoryKeyStore();
  const usageStore = new MemoryUsageStore();
  const feeds: PrinterFeed[] = [];
  const openPrinterFeed: OpenedStores['openPrinterFeed'] = (limits, clock) => {
    const feed = createMemoryPrinterFeed(limits, clock);
    feeds.push(feed);
    return feed;
  };
  const answering = storesAnswer(Promise.resolve(), keyStore);
  return {
    keyStore,
    usageStore,
    ready: answering,
    connected: answering,
    isReady: () => true,
    description: 'memory',
    openPrinterFeed,
    printerFeed: openPrinterFeed(),
    close: async () => {
      for (const feed of feeds.splice(0)) await feed.close();
      await usageStore.close();
    },
  };
}
