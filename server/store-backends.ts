// The store backends, one row each: the variable that selects it, how its value is read, and how it opens keys,
// usage counters, the shadow store and the seed marker (OpenedStores). The server (server-stores.ts), the fleet
// settings (fleet-config.ts) and zpl-keys all go through this table: a new backend is one new row.

import type { OpenedStores } from '../middleware/index.js';
import { createMemoryStores } from '../middleware/stores/memory/index.js';
import { createPostgresStores, postgresNamespaceProblem } from '../middleware/stores/postgres/index.js';
import { createRedisStores, parseSentinel, type RedisTarget } from '../middleware/stores/redis/index.js';
import { checkedUrl } from './env-values.js';
import type { ServerEnv, ServerVariable } from './variables.js';

/** What every backend is opened with. */
export interface OpenStoreOptions {
  /** STORE_NAMESPACE (alias REDIS_NAMESPACE); default `zpl`. */
  namespace?: string;
  /** Connection state and data-loss lines (`... unavailable: ...`, `... available again`, `key store lost its data ...`). */
  log?: (message: string) => void;
  /** Not ready until the keys are seeded (the server seeds them). */
  requireSeed?: boolean;
}

export interface StoreBackend<Target = unknown> {
  /** `memory`, `redis`, `redis-cluster`, `redis-sentinel`, `postgres`. */
  id: string;
  /** The kind of store in messages and SHADOW_STORE's value: `memory`, `redis`, `postgres`. */
  family: string;
  /** Its name in messages (`API keys stored in Redis: 2`). */
  label: string;
  /** Its data outlives the process and is shared by every instance that points at it. */
  shared: boolean;
  /** The variable that selects it; none for the default. */
  variable?: ServerVariable;
  /** Variables that only mean something with `variable` (REDIS_SENTINEL_MASTER). */
  companions?: readonly ServerVariable[];
  /** `zpl-keys --<keysFlag> VALUE` manages the keys of this backend (the value read as the variable's). */
  keysFlag?: string;
  /** Where the store is, from the variable's value (and its companions); throws naming the variable. */
  target(value: string, env: ServerEnv, name: string): Target;
  open(target: Target, options: OpenStoreOptions): OpenedStores;
  /** Why this backend cannot use `namespace` (PostgreSQL: a schema it refuses), or undefined. */
  namespaceProblem?(namespace: string): string | undefined;
}

/** A row with its own target type, as the table holds it. */
function row<Target>(backend: StoreBackend<Target>): StoreBackend {
  return backend as StoreBackend;
}

function list(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

const redisUrl = (value: string, name: string): string =>
  checkedUrl(value, name, ['redis:', 'rediss:'], 'a redis:// or rediss:// URL like redis://127.0.0.1:6379');

const openRedis = (target: RedisTarget, options: OpenStoreOptions): OpenedStores =>
  createRedisStores({ ...target, ...options });

export const MEMORY_BACKEND = row<undefined>({
  id: 'memory',
  family: 'memory',
  label: 'memory',
  shared: false,
  target: () => undefined,
  open: () => createMemoryStores(),
});

/** Every backend; the first is the default, used when none of the others' variables is set. */
export const STORE_BACKENDS: readonly StoreBackend[] = [
  MEMORY_BACKEND,
  row<RedisTarget>({
    id: 'redis',
    family: 'redis',
    label: 'Redis',
    shared: true,
    variable: 'REDIS_URL',
    keysFlag: 'redis',
    target: (value, _env, name) => ({ url: redisUrl(value, name) }),
    open: openRedis,
  }),
  row<RedisTarget>({
    id: 'redis-cluster',
    family: 'redis',
    label: 'Redis',
    shared: true,
    variable: 'REDIS_CLUSTER_NODES',
    target: (value, _env, name) => {
      const nodes = list(value);
      for (const node of nodes) {
        if (!/^rediss?:\/\/[^/]+/.test(node))
          throw new Error(`${name} must be redis:// URLs separated by commas, not ${node}`);
      }
      return { clusterNodes: nodes };
    },
    open: openRedis,
  }),
  row<RedisTarget>({
    id: 'redis-sentinel',
    family: 'redis',
    label: 'Redis',
    shared: true,
    variable: 'REDIS_SENTINELS',
    companions: ['REDIS_SENTINEL_MASTER'],
    target: (value, env, name) => {
      const sentinels = list(value);
      for (const sentinel of sentinels) {
        try {
          parseSentinel(sentinel);
        } catch {
          throw new Error(`${name} must be host:port pairs separated by commas, not ${sentinel}`);
        }
      }
      const master = env.REDIS_SENTINEL_MASTER?.trim();
      return { sentinels, ...(master ? { sentinelMaster: master } : {}) };
    },
    open: openRedis,
  }),
  row<{ url: string }>({
    id: 'postgres',
    family: 'postgres',
    label: 'PostgreSQL',
    shared: true,
    variable: 'DATABASE_URL',
    keysFlag: 'database',
    target: (value, _env, name) => ({
      url: checkedUrl(
        value,
        name,
        ['postgres:', 'postgresql:'],
        'a postgres:// or postgresql:// URL like postgres://user@127.0.0.1:5432/labels',
      ),
    }),
    open: (target, options) => createPostgresStores({ url: target.url, ...options }),
    namespaceProblem: postgresNamespaceProblem,
  }),
];

/** A backend and where its store is. */
export interface SelectedStore {
  backend: StoreBackend;
  target: unknown;
}

const isSet = (env: ServerEnv, name: ServerVariable): boolean => (env[name] ?? '').trim() !== '';

/**
 * The backend the environment selects: the one whose variable is set, else memory. Two set is an error naming
 * both (`REDIS_URL and DATABASE_URL cannot both be set: choose one store`), and so is a companion without its variable.
 */
export function selectStore(env: ServerEnv = process.env): SelectedStore {
  const set = STORE_BACKENDS.filter((b) => b.variable !== undefined && isSet(env, b.variable));
  if (set.length > 1) {
    const [a, b] = set as [StoreBackend, StoreBackend];
    throw new Error(
      `${a.variable} and ${b.variable} cannot both be set: choose one ${a.family === b.family ? a.label : 'store'}`,
    );
  }
  for (const backend of STORE_BACKENDS) {
    for (const companion of backend.companions ?? []) {
      if (isSet(env, companion) && !set.includes(backend)) {
        throw new Error(`${companion} needs ${backend.variable} (the ${backend.label} it goes with)`);
      }
    }
  }
  const backend = set[0] ?? STORE_BACKENDS[0]!;
  return {
    backend,
    target: backend.target(backend.variable ? env[backend.variable]!.trim() : '', env, backend.variable ?? ''),
  };
}

/** The backend a zpl-keys flag names (`--redis URL`, `--database URL`), its value read as its variable's. */
export function storeFromFlag(flag: string, value: string, env: ServerEnv = process.env): SelectedStore {
  const backend = STORE_BACKENDS.find((b) => b.keysFlag === flag);
  if (!backend) throw new Error(`no store backend takes --${flag}`);
  return { backend, target: backend.target(value.trim(), env, `--${flag}`) };
}

/** The variables that select a backend of `family` (for messages). */
export function familyVariables(family: string): string[] {
  return STORE_BACKENDS.filter((b) => b.family === family && b.variable !== undefined).map((b) => b.variable!);
}

export function openSelectedStore({ backend, target }: SelectedStore, options: OpenStoreOptions): OpenedStores {
  return backend.open(target, options);
}
