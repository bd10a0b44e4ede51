// One Redis connection for keys, counters and shadow records: a single node (`url`), a Redis Cluster
// (`clusterNodes`) or a master found through Sentinels (`sentinels`). Set up to fail fast (no offline queue, a
// short connect timeout) and to reconnect endlessly, so service resumes by itself after an outage or failover.

import { createClient, createCluster, createSentinel, type RedisClientType } from '@keyv/redis';
import { answeredWithin } from '../opened-stores.js';
import { redactUrl } from '../redact-url.js';

/** Where Redis is: exactly one of the three forms. */
export interface RedisTarget {
  /** One node: `redis://[user:password@]host:port[/db]`. */
  url?: string;
  /** Seed URLs of a Redis Cluster (any reachable subset of its nodes): `['redis://h1:7001', 'redis://h2:7002']`. */
  clusterNodes?: readonly string[];
  /** Sentinels as `host:port`; the master is asked of them by `sentinelMaster`'s name. */
  sentinels?: readonly string[];
  /** The monitored master's name (default `mymaster`). */
  sentinelMaster?: string;
}

export interface RedisConnectionOptions extends RedisTarget {
  /** Give up on one connection attempt after this long (default 1000 ms). */
  connectTimeoutMs?: number;
  /** Longest wait between reconnect attempts (default 1000 ms; attempts start at 50 ms). */
  maxReconnectDelayMs?: number;
  /** Told once per outage, and once on recovery. */
  log?: (message: string) => void;
}

/**
 * The commands every form answers alike. A cluster routes each command by its first key (keys used together carry
 * one hash tag, see `hashTags`); a Sentinel client sends it to the current master.
 */
// biome-ignore lint/complexity/noBannedTypes: node-redis types "no modules, functions or scripts" as {}
export type RedisClient = RedisClientType<{}, {}, {}, 2, {}>;

export type RedisKind = 'node' | 'cluster' | 'sentinel';

export interface RedisConnection {
  readonly client: RedisClient;
  readonly kind: RedisKind;
  /** True in a cluster: key names mark with `{...}` the part that decides their slot. */
  readonly hashTags: boolean;
  /** Where Redis is, without passwords, for logs. */
  readonly description: string;
  isReady(): boolean;
  /** `listener` runs on every (re)connection (a node reconnecting, a cluster or Sentinel master found anew). */
  onReady(listener: () => void): void;
  /** Resolves once the first connection is up (it never rejects; it keeps retrying). */
  readonly connected: Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_SENTINEL_MASTER = 'mymaster';

/** Which form `target` names; throws naming both when two are given, or when none is. */
export function redisKind(target: RedisTarget): RedisKind {
  const given = (
    [
      ['url', 'node'],
      ['clusterNodes', 'cluster'],
      ['sentinels', 'sentinel'],
    ] as const
  ).filter(
    ([option]) => target[option] !== undefined && (typeof target[option] === 'string' || target[option]!.length > 0),
  );
  if (given.length > 1)
    throw new Error(`Redis options ${given.map(([o]) => o).join(' and ')} cannot be used together: choose one`);
  if (given.length === 0) throw new Error('Redis options need one of url, clusterNodes or sentinels');
  return given[0]![1];
}

/** `host:port` into a node address (port 26379 when omitted, Sentinel's own). */
export function parseSentinel(text: string): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(text.trim());
  const port = Number(match?.[2] ?? 26379);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`a Sentinel must be host:port, not ${text}`);
  return { host: match[1]!, port };
}

export function describeTarget(target: RedisTarget): string {
  switch (redisKind(target)) {
    case 'node':
      return `Redis at ${redactUrl(target.url!)}`;
    case 'cluster':
      return `Redis Cluster at ${target.clusterNodes!.map((url) => redactUrl(url)).join(', ')}`;
    default:
      return `Redis master ${target.sentinelMaster ?? DEFAULT_SENTINEL_MASTER} via Sentinels ${target.sentinels!.join(', ')}`;
  }
}

interface Client {
  client: RedisClient;
  connect(): Promise<unknown>;
  destroy(): void;
  isReady(): boolean;
  /** Emitter whose 'ready' (node) or equivalent events mean a (re)connection. */
  onReconnect(listener: () => void): void;
}

function makeClient(kind: RedisKind, options: RedisConnectionOptions): Client {
  const maxDelay = options.maxReconnectDelayMs ?? 1000;
  const socket = {
    connectTimeout: options.connectTimeoutMs ?? 1000,
    reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, maxDelay),
  };
  if (kind === 'node') {
    const client = createClient({ url: options.url!, disableOfflineQueue: true, socket }) as RedisClient;
    return {
      client,
      connect: () => client.connect(),
      destroy: () => client.destroy(),
      isReady: () => client.isReady,
      onReconnect: (listener) => client.on('ready', listener),
    };
  }
  if (kind === 'cluster') {
    const cluster = createCluster({
      rootNodes: options.clusterNodes!.map((url) => ({ url })),
      defaults: { disableOfflineQueue: true, socket },
    });
    let connected = false;
    return {
      client: cluster as unknown as RedisClient,
      connect: async () => {
        // A cluster client gives up when no seed answers: try again until one does.
        for (let attempt = 0; ; attempt++) {
          try {
            await cluster.connect();
            connected = true;
            return;
          } catch (err) {
            if (cluster.isOpen) throw err;
            await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, maxDelay)).unref());
          }
        }
      },
      destroy: () => cluster.destroy(),
      isReady: () => connected && cluster.isOpen,
      onReconnect: (listener) => {
        cluster.on('node-ready', listener);
      },
    };
  }
  const sentinel = createSentinel({
    name: options.sentinelMaster ?? DEFAULT_SENTINEL_MASTER,
    sentinelRootNodes: options.sentinels!.map(parseSentinel),
    // Finding a master again after a failover: keep looking (commands meanwhile fail at the store deadline: 503).
    maxCommandRediscovers: Number.MAX_SAFE_INTEGER,
    nodeClientOptions: { disableOfflineQueue: true, socket },
    sentinelClientOptions: { socket },
  });
  return {
    client: sentinel as unknown as RedisClient,
    connect: () => sentinel.connect(),
    destroy: () => {
      void sentinel.destroy();
    },
    isReady: () => sentinel.isReady,
    onReconnect: (listener) => {
      sentinel.on('topology-change', listener);
    },
  };
}

export function connectRedis(options: RedisConnectionOptions): RedisConnection {
  const kind = redisKind(options);
  const log = options.log ?? (() => {});
  const description = describeTarget(options);
  const made = makeClient(kind, options);
  const readyListeners: Array<() => void> = [];
  const ready = (): void => {
    for (const listener of readyListeners) listener();
  };
  let down = false;
  made.client.on('error', (err: unknown) => {
    if (down) return;
    down = true;
    log(`${description} unavailable: ${err instanceof Error ? err.message : String(err)}`);
  });
  made.onReconnect(() => {
    if (down) log(`${description} available again`);
    down = false;
    if (firstDone) ready();
  });
  let firstDone = false;
  const connected = made.connect().then(
    () => {
      firstDone = true;
      ready();
    },
    () => undefined,
  );
  let closing: Promise<void> | undefined;
  return {
    client: made.client,
    kind,
    hashTags: kind === 'cluster',
    description,
    isReady: made.isReady,
    onReady: (listener) => {
      readyListeners.push(listener);
    },
    connected,
    close: () => {
      closing ??= (async () => {
        try {
          made.destroy();
        } catch {
          // already closed
        }
      })();
      return closing;
    },
  };
}

/**
 * The first connection (or `answered`: the stores answering), or a clear error once `ms` have passed (the client goes
 * on retrying either way). Each call waits anew: a Redis that comes up after one wait has given up is used by the next.
 */
export function firstConnection(
  connection: RedisConnection,
  ms: number,
  answered: Promise<void> = connection.connected,
): Promise<void> {
  return answeredWithin(answered, ms, () => `${connection.description} did not accept a connection within ${ms} ms`);
}
