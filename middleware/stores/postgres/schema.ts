// The namespace's schema, its tables and functions, created at start-up (and again after each reconnection: a
// database restored empty gets them back). Idempotent, and serialised by an advisory lock so two instances
// starting at once never race on CREATE SCHEMA / CREATE OR REPLACE FUNCTION.

import type { PoolClient } from 'pg';
import type { PostgresNames } from './names.js';

/** First half of the advisory lock key: this package's schema set-up (the second is the schema's hash). */
const SETUP_LOCK = 0x7a706c; // "zpl"

function ddl(n: PostgresNames): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${n.schema};
-- @keyv/postgres's own layout (it issues the same CREATE TABLE IF NOT EXISTS), so its queries work unchanged.
CREATE TABLE IF NOT EXISTS ${n.keys} (key VARCHAR(255) PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS ${n.markers} (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ${n.counters} (bucket TEXT PRIMARY KEY, count BIGINT NOT NULL, expires_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS counters_expires_at ON ${n.counters} (expires_at);
CREATE TABLE IF NOT EXISTS ${n.corrections} (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS ${n.shadowCases} (
  owner TEXT NOT NULL, id TEXT NOT NULL, time_ms BIGINT NOT NULL, record TEXT NOT NULL,
  bytes BIGINT NOT NULL, local BYTEA, upstream BYTEA, PRIMARY KEY (owner, id));
CREATE INDEX IF NOT EXISTS shadow_cases_by_time ON ${n.shadowCases} (owner, time_ms DESC, id DESC);
CREATE TABLE IF NOT EXISTS ${n.shadowSummaries} (
  owner TEXT PRIMARY KEY, compared BIGINT NOT NULL DEFAULT 0, matched BIGINT NOT NULL DEFAULT 0,
  diverged BIGINT NOT NULL DEFAULT 0, upstream_errors BIGINT NOT NULL DEFAULT 0, scores JSONB NOT NULL DEFAULT '{}',
  updated_at TEXT, expires_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS ${n.printerJobs} (
  id TEXT COLLATE "C" PRIMARY KEY, kept_at BIGINT NOT NULL, record TEXT NOT NULL, bytes BIGINT NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS printer_jobs_kept_at ON ${n.printerJobs} (kept_at);
CREATE TABLE IF NOT EXISTS ${n.printerLabels} (
  job_id TEXT COLLATE "C" NOT NULL REFERENCES ${n.printerJobs} (id) ON DELETE CASCADE, label INT NOT NULL,
  png BYTEA NOT NULL, pdf BYTEA, PRIMARY KEY (job_id, label));

-- Counter updates commit without waiting for the WAL flush (synchronous_commit off, for their transaction only):
-- six to ten times the updates a second, and a crash of the server loses at most its last fraction of a second of
-- counts, never a counter's consistency. Keys and shadow cases are written durably as usual.

-- UsageStore.add: the expiry is set when the counter is new (or its window is over), never moved, so a window
-- never slides; a row past expires_at starts again.
CREATE OR REPLACE FUNCTION ${n.add}(p_bucket TEXT, p_amount BIGINT, p_ttl BIGINT, p_now BIGINT) RETURNS BIGINT
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now BIGINT := COALESCE(p_now, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT);
  v_count BIGINT;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO ${n.counters} AS c (bucket, count, expires_at) VALUES (p_bucket, p_amount, v_now + p_ttl)
  ON CONFLICT (bucket) DO UPDATE SET
    count = CASE WHEN c.expires_at <= v_now THEN excluded.count ELSE c.count + excluded.count END,
    expires_at = CASE WHEN c.expires_at <= v_now THEN excluded.expires_at ELSE c.expires_at END
  RETURNING c.count INTO v_count;
  RETURN v_count;
END
$fn$;

-- UsageStore.reserve (usage-store.ts): the gate, the used counter and the held counter in one transaction. The
-- advisory lock serialises reservations on one bucket even before its row exists; a row past expires_at counts 0.
CREATE OR REPLACE FUNCTION ${n.reserve}(p_used TEXT, p_held TEXT, p_used_delta BIGINT, p_held_delta BIGINT,
  p_limit BIGINT, p_count_held BOOLEAN, p_ttl BIGINT, p_held_ttl BIGINT, p_now BIGINT, OUT taken BOOLEAN, OUT used BIGINT)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now BIGINT := COALESCE(p_now, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT);
  v_held BIGINT := 0;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(hashtextextended(p_used, 0));
  SELECT c.count INTO used FROM ${n.counters} c WHERE c.bucket = p_used AND c.expires_at > v_now;
  used := COALESCE(used, 0);
  IF p_count_held THEN
    SELECT GREATEST(0, c.count) INTO v_held FROM ${n.counters} c WHERE c.bucket = p_held AND c.expires_at > v_now;
    v_held := COALESCE(v_held, 0);
  END IF;
  IF used + v_held >= p_limit THEN
    taken := FALSE;
    RETURN;
  END IF;
  IF p_used_delta <> 0 THEN
    used := ${n.add}(p_used, p_used_delta, p_ttl, v_now);
  END IF;
  IF p_held_delta <> 0 THEN
    PERFORM ${n.hold}(p_held, p_held_delta, p_held_ttl, v_now);
  END IF;
  taken := TRUE;
END
$fn$;

-- The holds of a page bucket: a lifetime of p_ttl starts when the counter starts from nothing (new, expired or
-- back to 0) and is never moved, so a hold leaked by a lost reply goes with it however busy the key; never below
-- 0 (a hold given back after it expired counts nothing).
CREATE OR REPLACE FUNCTION ${n.hold}(p_held TEXT, p_delta BIGINT, p_ttl BIGINT, p_now BIGINT) RETURNS VOID
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO ${n.counters} AS c (bucket, count, expires_at) VALUES (p_held, GREATEST(0, p_delta), p_now + p_ttl)
  ON CONFLICT (bucket) DO UPDATE SET
    count = CASE WHEN c.expires_at <= p_now OR c.count <= 0 THEN excluded.count ELSE GREATEST(0, c.count + p_delta) END,
    expires_at = CASE WHEN c.expires_at <= p_now OR c.count <= 0 THEN excluded.expires_at ELSE c.expires_at END;
END
$fn$;

-- UsageStore.correct (usage-store.ts): a give-back or settlement applied at most once, however often it is
-- retried (a retry after a lost reply must not give back twice): p_id is remembered for a day.
CREATE OR REPLACE FUNCTION ${n.correct}(p_id TEXT, p_used TEXT, p_held TEXT, p_used_delta BIGINT, p_held_delta BIGINT,
  p_ttl BIGINT, p_held_ttl BIGINT, p_now BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql AS $fn$
DECLARE
  v_now BIGINT := COALESCE(p_now, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT);
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO ${n.corrections} (id, expires_at) VALUES (p_id, v_now + 86400000) ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN FALSE;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(p_used, 0));
  IF p_used_delta <> 0 THEN
    PERFORM ${n.add}(p_used, p_used_delta, p_ttl, v_now);
  END IF;
  IF p_held_delta <> 0 THEN
    PERFORM ${n.hold}(p_held, p_held_delta, p_held_ttl, v_now);
  END IF;
  RETURN TRUE;
END
$fn$;

-- ShadowCaseStore.saveCase (shadow-store.ts): the case, then expired cases and the oldest over either cap
-- dropped, serialised per owner so concurrent saves on two instances never leave the owner over a cap.
CREATE OR REPLACE FUNCTION ${n.saveCase}(p_owner TEXT, p_id TEXT, p_time BIGINT, p_record TEXT, p_bytes BIGINT,
  p_local BYTEA, p_upstream BYTEA, p_max_cases BIGINT, p_max_bytes BIGINT, p_cutoff BIGINT, p_summary_expires BIGINT)
RETURNS BIGINT LANGUAGE plpgsql AS $fn$
DECLARE
  v_left BIGINT;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('shadow:' || p_owner, 0));
  INSERT INTO ${n.shadowCases} (owner, id, time_ms, record, bytes, local, upstream)
  VALUES (p_owner, p_id, p_time, p_record, p_bytes, p_local, p_upstream)
  ON CONFLICT (owner, id) DO UPDATE SET time_ms = excluded.time_ms, record = excluded.record, bytes = excluded.bytes,
    local = excluded.local, upstream = excluded.upstream;
  DELETE FROM ${n.shadowCases} c USING (
    SELECT id, time_ms, row_number() OVER w AS rank, sum(bytes) OVER w AS running
    FROM ${n.shadowCases} WHERE owner = p_owner
    WINDOW w AS (ORDER BY time_ms DESC, id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) r
  WHERE c.owner = p_owner AND c.id = r.id AND (r.time_ms < p_cutoff OR r.rank > p_max_cases OR r.running > p_max_bytes);
  -- The summary lives as long as the cases (Redis: PEXPIRE on the owner's keys at each save).
  UPDATE ${n.shadowSummaries} SET expires_at = p_summary_expires WHERE owner = p_owner;
  SELECT count(*) INTO v_left FROM ${n.shadowCases} WHERE owner = p_owner;
  RETURN v_left;
END
$fn$;

-- PrinterFeed.add (printer-feed.ts): the job and its labels, then jobs past the retention and the oldest over the
-- job cap dropped, then the oldest jobs' images while over the byte cap (the records stay), serialised so two
-- replicas adding at once never leave the feed over a cap; the other replicas are told on commit.
CREATE OR REPLACE FUNCTION ${n.printerAdd}(p_id TEXT, p_kept_at BIGINT, p_record TEXT, p_bytes BIGINT,
  p_labels INT[], p_pngs BYTEA[], p_pdfs BYTEA[], p_max_jobs BIGINT, p_max_bytes BIGINT, p_cutoff BIGINT,
  p_channel TEXT, p_payload TEXT)
RETURNS BOOLEAN LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('printer:${n.schemaName}', 0));
  DELETE FROM ${n.printerLabels} WHERE job_id = p_id;
  INSERT INTO ${n.printerJobs} (id, kept_at, record, bytes) VALUES (p_id, p_kept_at, p_record, p_bytes)
  ON CONFLICT (id) DO UPDATE SET kept_at = excluded.kept_at, record = excluded.record, bytes = excluded.bytes;
  INSERT INTO ${n.printerLabels} (job_id, label, png, pdf)
  SELECT p_id, l.label, l.png, l.pdf FROM unnest(p_labels, p_pngs, p_pdfs) AS l(label, png, pdf);
  DELETE FROM ${n.printerJobs} WHERE kept_at <= p_cutoff;
  DELETE FROM ${n.printerJobs} j USING (
    SELECT id, row_number() OVER (ORDER BY id DESC) AS rank FROM ${n.printerJobs}) r
  WHERE j.id = r.id AND r.rank > p_max_jobs;
  WITH over AS (
    SELECT id FROM (SELECT id, sum(bytes) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
      AS running FROM ${n.printerJobs} WHERE bytes > 0) r WHERE r.running > p_max_bytes),
  gone AS (DELETE FROM ${n.printerLabels} l USING over WHERE l.job_id = over.id)
  UPDATE ${n.printerJobs} j SET bytes = 0 FROM over WHERE j.id = over.id;
  IF NOT EXISTS (SELECT 1 FROM ${n.printerJobs} WHERE id = p_id) THEN RETURN FALSE; END IF;
  PERFORM pg_notify(p_channel, p_payload);
  RETURN TRUE;
END
$fn$;
`;
}

/** Creates what is missing of `names`' schema on `client`, under the set-up lock, in one transaction. */
export async function createSchema(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SETUP_LOCK, names.schemaName]);
    await client.query(ddl(names));
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
