// `zpl-legacy-compat/stores/postgres`: the PostgreSQL backend alone: keys, usage counters and shadow cases in the
// namespace's schema. Loads no Redis client and no renderer.

export { createPostgresStores } from './stores.js';
export type { PostgresStores, PostgresStoresOptions } from './stores.js';
export { PostgresShadowStore } from './shadow-store.js';
export { postgresNamespaceProblem } from './names.js';
export type { PostgresPrinterFeed, PostgresPrinterFeedOptions } from './printer-feed.js';
