// `zpl-legacy-compat/stores/memory`: the memory backend alone, keys, usage counters and the printer feed in this
// process. Loads no Redis client, no pg and no renderer.

export { createMemoryStores } from './stores.js';
export { MemoryUsageStore } from './usage-store.js';
export { createMemoryPrinterFeed } from './printer-feed.js';
