// The PostgreSQL backend of the store seam: keys (Keyv + @keyv/postgres), usage counters (atomic in SQL), shadow
// cases and the printer feed on one pool, every table in the namespace's schema (names.ts), ready whenever the
// server answers.

import type { KeyStore } from '../key-store.js';
import { answeredWithin, storesAnswer } from '../opened-stores.js';
import type { ShadowCaseStore, ShadowRetention } from '../shadow-store.js';
import type { UsageStore } from '../usage-store.js';
import { connectPostgres, type PostgresConnection, type PostgresConnectionOptions } from './connection.js';
import { openPostgresKeyStore } from './key-store.js';
import { postgresNames } from './names.js';
import { PostgresShadowStore } from './shadow-store.js';
import { PostgresPrinterFeed } from './printer-feed.js';
import type { PrinterFeedLimits } from '../printer-feed.js';
import { PostgresUsageStore } from './usage-store.js';

export interface PostgresStoresOptions extends Omit<PostgresConnectionOptions, 'url'> {
  /** `postgres://user:password@host:port/database`. */
  url: string;
  /** Names the schema holding every table (default `zpl`). */
  namespace?: string;
  /**
   * Not ready (503) until the keys are seeded (a `seeded` row in the markers table), from the start. Default false:
   * only after a seeding has been seen does a missing marker count as lost data.
   */
  requireSeed?: boolean;
  /** How long `ready`, and each key management call made before the first connection, waits (default 10 s). */
  readyTimeoutMs?: number;
  /** The usage counters' clock in ms (default: the database's). */
  now?: () => number;
  /** How long the key store's find trusts a record it read (default DEFAULT_FIND_CACHE_MS). */
  findCacheMs?: number;
}

/** What any backend opens (the store seam): the stores, the shadow store on the same backend, and its readiness. */
export interface PostgresStores {
  keyStore: KeyStore;
  usageStore: UsageStore;
  /** Resolves once the stores answer (OpenedStores.ready); rejects (once) when that took longer than readyTimeoutMs. */
  ready: Promise<void>;
  close(): Promise<void>;
  /** The shadow store on this database, with these caps and retention, in the namespace's schema. */
  openShadowStore(caps?: ShadowRetention): ShadowCaseStore;
  /** The printer feed in the namespace's schema, shared by every replica on this database (LISTEN/NOTIFY). */
  openPrinterFeed(limits?: Partial<PrinterFeedLimits>, clock?: () => number): PostgresPrinterFeed;
  /** The printer feed with the default limits, closed with the stores. */
  printerFeed: PostgresPrinterFeed;
  /** Whether the database answers now; true again by itself once a lost server is back. */
  isReady(): boolean;
  /** Resolves the first time the database answers and the key store has checked it, however late; never rejects. */
  connected: Promise<void>;
  /** For logs and errors, without the password. */
  description: string;
  /** The pool and names, for tests and the key admin. */
  connection: PostgresConnection;
}

export const DEFAULT_POSTGRES_READY_TIMEOUT_MS = 10_000;
/** How often each shadow store deletes cases past their retention. */
const SHADOW_SWEEP_MS = 600_000;

/** `answered`, or a StoreUnavailableError once `ms` have passed (the connection goes on trying either way). */
function within(connection: PostgresConnection, ms: number, answered = connection.connected): Promise<void> {
  return answeredWithin(answered, ms, () => {
    const why = connection.lastError();
    return `${connection.description} did not accept a connection within ${ms} ms${why ? `: ${why}` : ''}`;
  });
}

/**
 * Keys, limits and shadow cases in PostgreSQL, shared by every instance on the same database and namespace.
 * The schema and its tables are created at start-up (and after each reconnection) when missing.
 */
export function createPostgresStores(options: PostgresStoresOptions): PostgresStores {
  const {
    url,
    namespace = 'zpl',
    requireSeed,
    readyTimeoutMs = DEFAULT_POSTGRES_READY_TIMEOUT_MS,
    now,
    findCacheMs,
    ...rest
  } = options;
  const connection = connectPostgres(postgresNames(namespace), { url, ...rest });
  // Key management waits for the first connection, each call afresh (a server that comes late is used); request-time
  // look-ups never wait: the router answers 503 while the database is not ready.
  const whenReady = (): Promise<void> =>
    connection.isReady() ? Promise.resolve() : within(connection, readyTimeoutMs);
  const keyStore = openPostgresKeyStore(connection, {
    whenReady,
    ...(requireSeed !== undefined && { requireSeed }),
    ...(options.log && { log: options.log }),
    ...(findCacheMs !== undefined && { findCacheMs }),
  });
  // Ready once the key store has checked the first connection too: a request right after it is not a 503.
  const connected = storesAnswer(connection.connected, keyStore);
  const ready = within(connection, readyTimeoutMs, connected);
  const usageStore = new PostgresUsageStore(connection, {
    ...(now && { now }),
    ...(options.log && { log: options.log }),
  });
  const sweepers: NodeJS.Timeout[] = [];
  const feeds: PostgresPrinterFeed[] = [];
  const openPrinterFeed = (limits?: Partial<PrinterFeedLimits>, clock?: () => number): PostgresPrinterFeed => {
    const feed = new PostgresPrinterFeed(connection, {
      ...(limits && { limits }),
      ...(clock && { clock }),
      ...(options.log && { log: options.log }),
    });
    feeds.push(feed);
    return feed;
  };
  const close = async (): Promise<void> => {
    for (const sweeper of sweepers) clearInterval(sweeper);
    for (const feed of feeds.splice(0)) await feed.close();
    await usageStore.close(); // ends the pool the other stores share
  };
  return {
    keyStore,
    usageStore,
    ready,
    close,
    openShadowStore: (caps = {}) => {
      const store = new PostgresShadowStore(connection, caps);
      const sweeper = setInterval(() => {
        if (connection.isReady()) store.sweep().catch(() => undefined);
      }, SHADOW_SWEEP_MS);
      sweeper.unref();
      sweepers.push(sweeper);
      return store;
    },
    openPrinterFeed,
    printerFeed: openPrinterFeed(),
    isReady: connection.isReady,
    connected,
    description: connection.description,
    connection,
  };
}
