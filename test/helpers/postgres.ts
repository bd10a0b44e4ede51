// PostgreSQL for tests: TEST_DATABASE_URL (.ci/run exports it) or the local server at 127.0.0.1:5432 when it
// answers; every test works in a schema of its own (a unique namespace) and drops it afterwards.

import pg from 'pg';
import { uniqueNamespace } from './http-redis.js';

export const DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when PostgreSQL at `url` answers a query within two seconds. */
export async function postgresAnswers(url = DATABASE_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000, query_timeout: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

let announced = false;

/** In a mocha `before`: skips the suite, saying why once, when no PostgreSQL answers. */
export async function requirePostgres(ctx: Mocha.Context): Promise<void> {
  if (await postgresAnswers()) return;
  if (!announced) {
    announced = true;
    const where = process.env.TEST_DATABASE_URL
      ? `TEST_DATABASE_URL (${DATABASE_URL})`
      : `${DATABASE_URL} (TEST_DATABASE_URL is unset)`;
    console.log(`    (no PostgreSQL answers at ${where}: skipping the PostgreSQL test cases)`);
  }
  ctx.skip();
}

/** A namespace (and so a schema) no other run uses. */
export function uniqueSchema(): string {
  return uniqueNamespace();
}

/** Runs one query on a short-lived connection of its own (tests' inspection and clean-up). */
export async function sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
  url = DATABASE_URL,
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops the schema of `namespace` with everything in it (only ever a test's own). */
export async function dropSchema(namespace: string, url = DATABASE_URL): Promise<void> {
  if (!namespace.startsWith('zpl-test-')) throw new Error(`refusing to drop ${namespace}: not a test namespace`);
  await sql(`DROP SCHEMA IF EXISTS "${namespace}" CASCADE`, [], url);
}
