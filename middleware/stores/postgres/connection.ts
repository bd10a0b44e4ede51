// One pg Pool for keys, counters and shadow cases, with readiness that follows the server: a probe runs until the
// server answers (however late) and the schema is in place; a lost connection, a refused query or a missed
// heartbeat makes the connection not ready (callers answer 503 at once) and starts the probe again.

import pg from 'pg';
import { currentDeadline, StoreUnavailableError, trackDeadlines, type StoreName } from '../deadline.js';
import { createSchema } from './schema.js';
import type { PostgresNames } from './names.js';
import { redactUrl } from '../redact-url.js';

export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database` (any libpq-style URL pg takes). */
  url: string;
  /** Give up on one connection attempt after this long (default 2000 ms). */
  connectTimeoutMs?: number;
  /** A query unanswered after this long fails, and counts as the server being gone (default 10 s). */
  queryTimeoutMs?: number;
  /** Longest wait between attempts while the server does not answer (default 1000 ms; attempts start at 50 ms). */
  maxReconnectDelayMs?: number;
  /** How often a ready connection checks the server still answers (default 1000 ms). */
  heartbeatMs?: number;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /**
   * Connections opened at each (re)connection and kept open however long they idle (default: maxConnections). A
   * connection opened for a request costs more than the 75 ms store deadline on a loaded host, so a burst after a
   * quiet spell must find them open; above this many, idle ones close after 10 s.
   */
  warmConnections?: number;
  /** Idle connections above warmConnections close after this long (default 10 s). */
  idleTimeoutMs?: number;
  /** Told once per outage, and once on recovery. */
  log?: (message: string) => void;
}

export interface PostgresConnection {
  readonly pool: pg.Pool;
  readonly names: PostgresNames;
  /** Where the database is, without its password, for logs. */
  readonly description: string;
  isReady(): boolean;
  /** Why the last attempt or query failed while the server was away (for messages), or undefined. */
  lastError(): string | undefined;
  /** Resolves the first time the server answers and the schema is in place; never rejects. */
  readonly connected: Promise<void>;
  /** `listener` runs on every (re)connection, once the schema is in place. */
  onReady(listener: () => void): void;
  /**
   * Runs one statement. While the server is known to be gone it fails at once; a failure that means the server is
   * gone (refused, reset, timed out, shut down) is a StoreUnavailableError naming `store`, and makes it not ready.
   */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    values: unknown[],
    store: StoreName,
  ): Promise<pg.QueryResult<Row>>;
  close(): Promise<void>;
}

/** SQLSTATE classes meaning the server or connection is gone: 08 connection, 57 operator intervention, 53 resources. */
const GONE_CLASSES = new Set(['08', '53', '57']);
/** Our schema is missing (a database restored or dropped): set it up again, as after a reconnection. */
const SCHEMA_LOST = new Set(['3F000', '42P01', '42883']);

/** Whether `err` says the server is unreachable or our schema went away (rather than that one statement is wrong). */
export function meansUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
    return GONE_CLASSES.has(code.slice(0, 2)) || SCHEMA_LOST.has(code);
  return true; // socket errors (ECONNREFUSED, ECONNRESET...), pg's connect and query timeouts, "Connection terminated"
}

export function connectPostgres(names: PostgresNames, options: PostgresConnectionOptions): PostgresConnection {
  trackDeadlines(); // opening a connection pauses the deadline of the request it is opened for
  const log = options.log ?? (() => {});
  const description = `PostgreSQL at ${redactUrl(options.url, 'PostgreSQL')} (schema ${names.schema})`;
  const maxDelay = options.maxReconnectDelayMs ?? 1000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const max = options.maxConnections ?? 10;
  const warmCount = Math.min(max, options.warmConnections ?? max);
  // pg's `min`: idle connections up to this many are never closed (pg does not open them: warm() does).
  const pool = new pg.Pool({
    connectionString: options.url,
    max,
    min: warmCount,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: options.queryTimeoutMs ?? 10_000,
    idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
    keepAlive: true,
    allowExitOnIdle: true,
  });
  const listeners: Array<() => void> = [];
  let ready = false;
  let closed = false;
  // biome-ignore lint/correctness/noUnusedVariables: read by `probing ??=` (one probe at a time)
  let probing: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let outageLogged = false;
  let markConnected!: () => void;
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });

  let lastError: string | undefined;
  const describe = (err: unknown): string => (err instanceof Error ? err.message || err.name : String(err));
  const down = (err: unknown): void => {
    if (closed) return;
    lastError = describe(err);
    if (ready || !outageLogged) log(`${description} unavailable: ${lastError}`);
    outageLogged = true;
    ready = false;
    probe();
  };
  // An idle client's connection dropped: without a listener pg would crash the process. One warm connection closed
  // by the server (idle_session_timeout, pg_terminate_backend) is not the server gone: a query decides.
  pool.on('error', (err) => {
    if (closed || !ready) return;
    pool.query({ text: 'SELECT 1', query_timeout: connectTimeoutMs } as pg.QueryConfig).then(warm, () => down(err));
  });

  /** Opens connections up to warmCount (kept open by `min`); a failure to open one is left to the next beat. */
  async function warm(): Promise<void> {
    const missing = warmCount - pool.totalCount;
    if (missing <= 0 || closed) return;
    const opened = await Promise.allSettled(Array.from({ length: missing }, () => pool.connect()));
    for (const result of opened) if (result.status === 'fulfilled') result.value.release();
  }

  /** Whether a query now would wait for a connection the pool opens for it (none idle, room to open one). */
  const opensConnection = (): boolean => pool.idleCount === 0 && pool.totalCount < max;

  /**
   * One statement on a pooled connection. Opening a connection for it pauses the caller's store deadline
   * (connecting has its own wait, connectTimeoutMs): the deadline judges the query, not the connect.
   */
  async function run<Row extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    const resume = opensConnection() ? currentDeadline()?.pause() : undefined;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } finally {
      resume?.();
    }
    // As pool.query: a connection that failed mid-query is destroyed, not returned to the pool.
    return new Promise((resolve, reject) => {
      let released = false;
      const finish = (err: Error | undefined): boolean => {
        client.removeListener('error', onError);
        if (released) return false;
        released = true;
        client.release(err);
        return true;
      };
      const onError = (err: Error): void => {
        if (finish(err)) reject(err);
      };
      client.once('error', onError);
      client.query<Row>(sql, values).then(
        (result) => {
          if (finish(undefined)) resolve(result);
        },
        (err: Error) => {
          if (finish(err)) reject(err);
        },
      );
    });
  }

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

  /** Until the server answers and the schema is in place; then ready, and every onReady listener runs. */
  function probe(): void {
    probing ??= (async () => {
      for (let attempt = 0; !closed; attempt++) {
        try {
          const client = await pool.connect();
          // A checked-out client reports a dropped connection as an 'error' event too: the query fails anyway.
          const ignore = (): void => {};
          client.on('error', ignore);
          try {
            await createSchema(client, names);
          } finally {
            client.off('error', ignore);
            client.release(true); // a fresh connection for queries; this one may have seen the server restart
          }
          await warm().catch(() => undefined); // requests after start-up or an outage find connections open
          if (closed) return;
          if (outageLogged) log(`${description} available again`);
          outageLogged = false;
          lastError = undefined;
          ready = true;
          markConnected();
          for (const listener of listeners) {
            try {
              listener();
            } catch (err) {
              log(`${description}: a ready listener failed: ${(err as Error).message}`);
            }
          }
          return;
        } catch (err) {
          lastError = describe(err);
          if (!outageLogged) log(`${description} unavailable: ${lastError}`);
          outageLogged = true;
          await sleep(Math.min(50 * 2 ** attempt, maxDelay));
        }
      }
    })().finally(() => {
      probing = undefined;
    });
  }

  // A server that goes away while nobody asks is noticed by the heartbeat: /readyz then says so.
  const beat = (): void => {
    heartbeat = setTimeout(() => {
      if (closed) return;
      if (!ready) return beat();
      // Bounded like a connection attempt: a server that hangs (stopped, not gone) is noticed as soon.
      pool
        .query({ text: 'SELECT 1', query_timeout: connectTimeoutMs } as pg.QueryConfig)
        .then(warm) // connections the server closed are opened again before a burst needs them
        .then(beat, (err: unknown) => {
          down(err);
          beat();
        });
    }, options.heartbeatMs ?? 1000);
    heartbeat.unref();
  };

  probe();
  beat();

  return {
    pool,
    names,
    description,
    isReady: () => ready && !closed,
    lastError: () => lastError,
    connected,
    onReady: (listener) => {
      listeners.push(listener);
    },
    async query<Row extends pg.QueryResultRow>(
      sql: string,
      values: unknown[],
      store: StoreName,
    ): Promise<pg.QueryResult<Row>> {
      if (closed) throw new StoreUnavailableError(`${description}: the connection is closed`, { store });
      if (!ready) throw new StoreUnavailableError(`${description} is not available`, { store });
      try {
        return await run<Row>(sql, values);
      } catch (err) {
        if (!meansUnavailable(err)) throw err;
        down(err);
        throw new StoreUnavailableError(`${description} failed: ${(err as Error).message}`, { cause: err, store });
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      ready = false;
      clearTimeout(heartbeat);
      await pool.end().catch(() => undefined);
    },
  };
}
