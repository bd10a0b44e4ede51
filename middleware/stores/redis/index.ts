// `zpl-legacy-compat/stores/redis`: the Redis backend alone (one node, a Cluster or Sentinels): keys, usage
// counters and shadow cases on one connection. Loads no pg and no renderer.

export { createRedisStores } from './stores.js';
export type { RedisStores, RedisStoresOptions } from './stores.js';
export { parseSentinel } from './connection.js';
export type { RedisConnection, RedisConnectionOptions, RedisTarget } from './connection.js';
export { RedisShadowStore } from './shadow-store.js';
export type { RedisShadowStoreOptions } from './shadow-store.js';
export type { RedisPrinterFeed, RedisPrinterFeedOptions } from './printer-feed.js';
