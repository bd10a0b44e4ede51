// The Redis backend: keys (Keyv + @keyv/redis), usage counters (Lua scripts), shadow cases and the printer feed on one connection
// (a single node, a Cluster or a master behind Sentinels), opened as every backend opens them (OpenedStores), their
// names built by storeNames.

import { storesAnswer, type OpenedStores } from '../opened-stores.js';
import type { ShadowCaseStore, ShadowRetention } from '../shadow-store.js';
import type { PrinterFeedLimits } from '../printer-feed.js';
import { storeNames } from '../store-names.js';
import { connectRedis, firstConnection, type RedisConnection, type RedisConnectionOptions } from './connection.js';
import { openRedisKeyStore } from './key-store.js';
import { RedisShadowStore } from './shadow-store.js';
import { RedisPrinterFeed } from './printer-feed.js';
import { RedisUsageStore } from './usage-store.js';

export type { Stores, OpenedStores } from '../opened-stores.js';

export interface RedisStoresOptions extends RedisConnectionOptions {
  /** Namespace of every Redis key this service writes (default `zpl`; see storeNames). */
  namespace?: string;
  /**
   * How long `ready`, and each key management call made while Redis has never answered, wait for it (default
   * 10 s). A call made once Redis has answered, however late, goes ahead.
   */
  readyTimeoutMs?: number;
  /**
   * Not ready (503) until the keys are seeded (seedKeys writes a marker `<namespace>:seeded`), from the start.
   * Default false: only after a seeding has been seen does a missing marker count as lost data.
   */
  requireSeed?: boolean;
}

export const DEFAULT_REDIS_READY_TIMEOUT_MS = 10_000;

/** Redis stores: the connection they share is there for scripts and tests of your own; the shadow store is always offered. */
export interface RedisStores extends OpenedStores {
  connection: RedisConnection;
  openShadowStore(caps?: ShadowRetention): ShadowCaseStore;
  openPrinterFeed(limits?: Partial<PrinterFeedLimits>, clock?: () => number): RedisPrinterFeed;
  printerFeed: RedisPrinterFeed;
}

/**
 * Keys and limits in Redis, shared by every instance that uses the same Redis and namespace: one node (`url`), a
 * Redis Cluster (`clusterNodes`) or a master behind Sentinels (`sentinels`, `sentinelMaster`); exactly one of them.
 */
export function createRedisStores(options: RedisStoresOptions): RedisStores {
  const connection = connectRedis(options);
  const names = storeNames(options.namespace, { hashTags: connection.hashTags });
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_REDIS_READY_TIMEOUT_MS;
  const keyStore = openRedisKeyStore(connection, names, {
    readyTimeoutMs,
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  // Ready once the key store has checked the first connection too: a request right after it is not a 503.
  const connected = storesAnswer(connection.connected, keyStore);
  const ready = firstConnection(connection, readyTimeoutMs, connected);
  const usageStore = new RedisUsageStore(connection, names.namespace, { ...(options.log && { log: options.log }) });
  const feeds: RedisPrinterFeed[] = [];
  const openPrinterFeed = (limits?: Partial<PrinterFeedLimits>, clock?: () => number): RedisPrinterFeed => {
    const feed = new RedisPrinterFeed(connection, {
      names: names.printerFeed,
      ...(limits && { limits }),
      ...(clock && { clock }),
      ...(options.log && { log: options.log }),
    });
    feeds.push(feed);
    return feed;
  };
  return {
    keyStore,
    usageStore,
    connection,
    ready,
    close: async () => {
      for (const feed of feeds.splice(0)) await feed.close();
      await usageStore.close(); // applies the corrections it can, then closes the connection the stores share
    },
    connected,
    isReady: connection.isReady,
    description: connection.description,
    openShadowStore: (caps = {}) => new RedisShadowStore(connection, { ...caps, namespace: names.namespace }),
    openPrinterFeed,
    printerFeed: openPrinterFeed(),
  };
}
