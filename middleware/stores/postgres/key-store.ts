// Keys in PostgreSQL: KeyvKeyStore over Keyv with @keyv/postgres on the namespace's `keys` table, changes made in
// one UPDATE (jsonb), and the seed marker as a row of the `markers` table.

import KeyvPostgres, { type KeyvPostgresOptions } from '@keyv/postgres';
import { Keyv } from 'keyv';
import { KeyvKeyStore, type KeyChanges, type KeyPatch } from '../key-store.js';
import type { StoredKey } from '../../keys/key-record.js';
import { StoreSeedMarker, type MarkerConnection } from '../seed-marker.js';
import { POSTGRES_TABLES, quoteIdentifier } from './names.js';
import type { PostgresConnection } from './connection.js';

type Run = (sql: string, values?: unknown[]) => Promise<unknown[]>;

/**
 * @keyv/postgres on our pool. Its own pool is one per process, shared by every adapter with the same URL and ended
 * by any adapter's disconnect; ours is the stores' (closed by them), fails fast while the server is gone, and
 * its iterator throws instead of ending early (a failed listing must not read as "no keys"). Schema and table
 * are passed quoted, as every query but the iterator's pastes them in as they are.
 */
class PooledKeyvPostgres extends KeyvPostgres {
  constructor(run: Run, schema: string, table: string) {
    super({
      schema: quoteIdentifier(schema),
      table: quoteIdentifier(table),
      dialect: 'postgres',
      run,
    } as KeyvPostgresOptions);
  }

  override async connect(): Promise<(sql: string, values?: unknown) => Promise<unknown[]>> {
    const { run } = this.opts as { run: Run };
    return (sql, values) => run(sql, values as unknown[] | undefined);
  }

  override async disconnect(): Promise<void> {}

  override async *iterator(namespace?: string): AsyncGenerator<string[], void, unknown> {
    const pattern = `${namespace ? `${namespace.replace(/[%_\\]/g, '\\$&')}:` : ''}%`;
    const table = `${this.opts.schema}.${this.opts.table}`;
    const page = 100;
    for (let last: string | null = null; ; ) {
      const rows = (
        last === null
          ? await this.query(`SELECT key, value FROM ${table} WHERE key LIKE $1 ORDER BY key LIMIT $2`, [pattern, page])
          : await this.query(`SELECT key, value FROM ${table} WHERE key LIKE $1 AND key > $2 ORDER BY key LIMIT $3`, [
              pattern,
              last,
              page,
            ])
      ) as { key: string; value: string }[];
      for (const row of rows) yield [row.key, row.value];
      if (rows.length < page) return;
      last = rows[rows.length - 1]!.key;
    }
  }
}

/** KeyStore.update as one UPDATE: a revocation and a re-seeding on two instances never undo each other. */
function postgresKeyPatch(connection: PostgresConnection, keyv: Keyv<StoredKey>): KeyPatch {
  const { keys } = connection.names;
  const sql = `UPDATE ${keys} SET value = jsonb_set(value::jsonb, '{value}', ((value::jsonb -> 'value') - $3::text[]) || $2::jsonb)::text
    WHERE key = $1 AND (value::jsonb ->> 'expires' IS NULL OR (value::jsonb ->> 'expires')::numeric > $4)
    RETURNING value`;
  return async (hash: string, changes: KeyChanges) => {
    const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const unset = Object.entries(changes)
      .filter(([, v]) => v === undefined)
      .map(([field]) => field);
    // Keyv's own serializer: what it escapes (a string starting with ':') reads back as written.
    const encoded = JSON.parse(await keyv.serialize!({ value: set, expires: undefined })) as { value: unknown };
    const result = await connection.query<{ value: string }>(
      sql,
      [hash, JSON.stringify(encoded.value), unset, Date.now()],
      'key store',
    );
    const row = result.rows[0];
    if (!row) return undefined;
    return ((await keyv.deserialize!<StoredKey>(row.value)) ?? undefined)?.value;
  };
}

/** The seed marker's cell: the `markers` row `name`, read and written through the connection. */
function markerCell(connection: PostgresConnection): MarkerConnection {
  const { markers } = connection.names;
  return {
    onReady: (listener) => connection.onReady(listener),
    client: {
      get: async (name) => {
        const { rows } = await connection.query<{ value: string }>(
          `SELECT value FROM ${markers} WHERE name = $1`,
          [name],
          'key store',
        );
        return rows[0]?.value ?? null;
      },
      set: (name, value) =>
        connection.query(
          `INSERT INTO ${markers} (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
          [name, value],
          'key store',
        ),
    },
  };
}

/** The name of the seed marker row (the marker of seed-marker.ts). */
export const SEED_MARKER = 'seeded';

export interface PostgresKeyStoreOptions {
  /** Key management (everything but find) waits for this first, e.g. the first connection. */
  whenReady: () => Promise<void>;
  requireSeed?: boolean;
  log?: (message: string) => void;
  /** How long find trusts a record it read (KeyvKeyStore's findCacheMs). */
  findCacheMs?: number;
}

export function openPostgresKeyStore(connection: PostgresConnection, options: PostgresKeyStoreOptions): KeyvKeyStore {
  const run: Run = async (sql, values) => (await connection.query(sql, values ?? [], 'key store')).rows;
  const adapter = new PooledKeyvPostgres(run, connection.names.schemaName, POSTGRES_TABLES.keys);
  // No key prefix: the table is the namespace's; a row's key is the SHA-256 of the API key, as in Redis.
  const keyv = new Keyv<StoredKey>({ store: adapter, namespace: undefined, useKeyPrefix: false, throwOnErrors: true });
  const seedMarker = new StoreSeedMarker(markerCell(connection), SEED_MARKER, {
    ...(options.requireSeed !== undefined && { requireSeed: options.requireSeed }),
    ...(options.log && { log: options.log }),
  });
  return new KeyvKeyStore(keyv, {
    isReady: connection.isReady,
    close: connection.close,
    whenReady: options.whenReady,
    seedMarker,
    patch: postgresKeyPatch(connection, keyv),
    ...(options.findCacheMs !== undefined && { findCacheMs: options.findCacheMs }),
  });
}
