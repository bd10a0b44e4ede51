// The key, usage, shadow and printer feed contracts (test/helpers/*-contract.ts) on every backend: memory (files for shadow
// cases), Redis single node, Redis Cluster, Redis Sentinel and PostgreSQL. A backend that is not there is skipped,
// saying so.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisStores, FileShadowStore, RedisShadowStore, type RedisStoresOptions } from '../index.js';
import { createMemoryKeyStore } from '../middleware/stores/memory/key-store.js';
import { MemoryUsageStore } from '../middleware/stores/memory/usage-store.js';
import { storeNames } from '../middleware/stores/store-names.js';
import { createPostgresStores, type PostgresStores } from '../middleware/stores/postgres/stores.js';
import { PostgresShadowStore } from '../middleware/stores/postgres/shadow-store.js';
import { POSTGRES_TABLES } from '../middleware/stores/postgres/names.js';
import { keyStoreContract } from './helpers/key-store-contract.js';
import { usageStoreContract } from './helpers/usage-store-contract.js';
import { shadowStoreContract } from './helpers/shadow-store-contract.js';
import { printerFeedContract } from './helpers/printer-feed-contract.js';
import { createMemoryPrinterFeed } from '../middleware/stores/memory/printer-feed.js';
import { REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';
import { sharedTopology, type Topology } from './helpers/redis-fleet.js';
import { DATABASE_URL, dropSchema, requirePostgres, sql } from './helpers/postgres.js';

// Memory: one process; shadow cases in files on one machine.
keyStoreContract('memory', async () => {
  const store = createMemoryKeyStore();
  return { store, raw: async () => JSON.stringify(await store.list()) };
});
usageStoreContract(
  'memory',
  async (now) => {
    const store = new MemoryUsageStore(now);
    return { store, close: () => store.close() };
  },
  { injectedClock: true },
);
shadowStoreContract('files', async (options) => {
  const dir = await mkdtemp(join(tmpdir(), 'zpl-shadow-contract-'));
  return { store: new FileShadowStore(dir, options), close: () => rm(dir, { recursive: true, force: true }) };
});
printerFeedContract('memory', async (limits, clock) => {
  const feed = createMemoryPrinterFeed(limits, clock);
  return { feed, close: () => feed.close() };
});

// Redis: one node, a Cluster (3 masters) and a Sentinel setup, each under a namespace of its own per case.
type RedisForm = {
  name: string;
  require: (ctx: Mocha.Context) => Promise<void>;
  target: () => Pick<RedisStoresOptions, 'url' | 'clusterNodes' | 'sentinels'>;
};
const topologies = new Map<'cluster' | 'sentinel', Promise<Topology | undefined>>();
after(async () => {
  for (const topology of topologies.values()) await (await topology)?.stop();
});
const fleetForm = (kind: 'cluster' | 'sentinel'): RedisForm => {
  let topology: Topology | undefined;
  return {
    name: kind === 'cluster' ? 'Redis Cluster' : 'Redis Sentinel',
    require: async (ctx) => {
      if (!topologies.has(kind)) topologies.set(kind, sharedTopology(kind));
      topology = await topologies.get(kind);
      if (!topology) ctx.skip();
    },
    target: () => (kind === 'cluster' ? { clusterNodes: topology!.nodes } : { sentinels: topology!.nodes }),
  };
};
const redisForms: RedisForm[] = [
  { name: 'Redis', require: requireRedis, target: () => ({ url: REDIS_URL }) },
  fleetForm('cluster'),
  fleetForm('sentinel'),
];

for (const form of redisForms) {
  const openRedis = async (namespace: string) => {
    const stores = createRedisStores({ ...form.target(), namespace, maxReconnectDelayMs: 200 });
    await stores.ready;
    return stores;
  };
  keyStoreContract(
    form.name,
    async () => {
      const namespace = uniqueNamespace();
      const stores = await openRedis(namespace);
      const names = storeNames(namespace, { hashTags: stores.connection.hashTags });
      const raw = async (): Promise<string> => {
        // Each record and its id index entry: what a leak of the plain key would be written into.
        const recordNames = (await stores.keyStore.list()).flatMap((k) => [
          names.keyRecord(k.hash),
          names.keyRecord(`id:${k.id}`),
        ]);
        return JSON.stringify(
          await Promise.all(recordNames.map(async (name) => [name, await stores.connection.client.get(name)])),
        );
      };
      return { store: stores.keyStore, raw, other: async () => (await openRedis(namespace)).keyStore };
    },
    { require: form.require },
  );
  usageStoreContract(
    form.name,
    async () => {
      const namespace = uniqueNamespace();
      const stores = await openRedis(namespace);
      return {
        store: stores.usageStore,
        other: async () => (await openRedis(namespace)).usageStore,
        close: () => stores.close(),
      };
    },
    { require: form.require, injectedClock: false },
  );
  shadowStoreContract(
    form.name,
    async (options) => {
      const namespace = uniqueNamespace();
      const stores = await openRedis(namespace);
      const replicas = [stores];
      return {
        store: new RedisShadowStore(stores.connection, { namespace, ...options }),
        other: async () => {
          const more = await openRedis(namespace);
          replicas.push(more);
          return new RedisShadowStore(more.connection, { namespace, ...options });
        },
        close: async () => {
          for (const replica of replicas) await replica.close();
        },
      };
    },
    { require: form.require },
  );
  printerFeedContract(
    form.name,
    async (limits, clock) => {
      const namespace = uniqueNamespace();
      const replicas = [await openRedis(namespace)];
      return {
        feed: replicas[0]!.openPrinterFeed(limits, clock),
        other: async () => {
          const more = await openRedis(namespace);
          replicas.push(more);
          return more.openPrinterFeed(limits, clock);
        },
        close: async () => {
          for (const replica of replicas) await replica.close();
        },
      };
    },
    { require: form.require },
  );
}

// PostgreSQL: a schema of its own per case, dropped afterwards.
async function openPostgres(namespace: string, now?: () => number): Promise<PostgresStores> {
  const stores = createPostgresStores({ url: DATABASE_URL, namespace, ...(now && { now }) });
  await stores.ready;
  return stores;
}

/** Opens stores on one new namespace; `close` closes every one and drops the schema. */
function postgresSession(now?: () => number) {
  const namespace = uniqueNamespace();
  const opened: PostgresStores[] = [];
  return {
    namespace,
    open: async (): Promise<PostgresStores> => {
      const stores = await openPostgres(namespace, now);
      opened.push(stores);
      return stores;
    },
    close: async (): Promise<void> => {
      for (const stores of opened) await stores.close();
      await dropSchema(namespace);
    },
  };
}

keyStoreContract(
  'PostgreSQL',
  async () => {
    const session = postgresSession();
    const stores = await session.open();
    const raw = async (): Promise<string> =>
      JSON.stringify(
        await Promise.all(
          Object.values(POSTGRES_TABLES).map((table) =>
            sql(`SELECT t::text AS row FROM "${session.namespace}"."${table}" t`),
          ),
        ),
      );
    return { store: stores.keyStore, raw, other: async () => (await session.open()).keyStore, close: session.close };
  },
  { require: requirePostgres },
);
usageStoreContract(
  'PostgreSQL',
  async (now) => {
    const session = postgresSession(now);
    const stores = await session.open();
    const usage = stores.usageStore as import('../middleware/stores/postgres/usage-store.js').PostgresUsageStore;
    return {
      store: usage,
      other: async () => (await session.open()).usageStore,
      sweep: () => usage.sweep(),
      count: async () =>
        Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${session.namespace}".counters`))[0]!.n),
      close: session.close,
    };
  },
  { require: requirePostgres, injectedClock: true },
);
shadowStoreContract(
  'PostgreSQL',
  async (options) => {
    const session = postgresSession();
    const stores = await session.open();
    return {
      store: new PostgresShadowStore(stores.connection, options),
      // A replica of its own: its pool opens beside the first one's.
      other: async () => new PostgresShadowStore((await session.open()).connection, options),
      close: session.close,
    };
  },
  { require: requirePostgres },
);
printerFeedContract(
  'PostgreSQL',
  async (limits, clock) => {
    const session = postgresSession();
    const stores = await session.open();
    return {
      feed: stores.openPrinterFeed(limits, clock),
      other: async () => (await session.open()).openPrinterFeed(limits, clock),
      close: session.close,
    };
  },
  { require: requirePostgres },
);
