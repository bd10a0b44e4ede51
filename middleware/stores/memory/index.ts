// `zpl-legacy-compat/stores/memory`: the memory backend alone, keys and usage counters in this process. Loads no
// Redis client, no pg and no renderer.

export { createMemoryStores } from './stores.js';
export { MemoryUsageStore } from './usage-store.js';
