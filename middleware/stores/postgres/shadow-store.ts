// Shadow cases in PostgreSQL, shared by every replica on the same database and namespace: one row per case with
// both images (bytea), one summary row per owner. The caps and the retention are Redis's (redis/shadow-store.ts):
// saving a case drops the owner's expired cases, then the oldest while over the case or byte cap, in one call;
// bytes count as stored (here the PNGs themselves). Rows past the retention are swept.

import {
  emptySummary,
  type ShadowOutcome,
  retention,
  SCORE_BUCKETS,
  SHADOW_IMAGE_NAME,
  tallyFields,
  type ShadowCases,
  type ShadowCaseStore,
  type ShadowRetention,
  type ShadowSummary,
  type StoredShadowCase,
} from '../shadow-store.js';
import type { PostgresConnection } from './connection.js';

/** The shadow store's own failures name it (StoreUnavailableError's names are the router's two stores). */
const STORE = 'key store' as const;

export interface PostgresShadowStoreOptions extends ShadowRetention {
  now?: () => number;
}

interface SummaryRow {
  compared: string;
  matched: string;
  diverged: string;
  upstream_errors: string;
  scores: Record<string, number>;
  updated_at: string | null;
}

export class PostgresShadowStore implements ShadowCaseStore {
  readonly #connection: PostgresConnection;
  readonly #limits: Required<ShadowRetention>;
  readonly #now: () => number;

  constructor(connection: PostgresConnection, options: PostgresShadowStoreOptions = {}) {
    this.#connection = connection;
    this.#limits = retention(options);
    this.#now = options.now ?? Date.now;
  }

  async saveCase(
    record: StoredShadowCase,
    local: Uint8Array,
    upstream: Uint8Array,
  ): Promise<{ local: string; upstream: string } | undefined> {
    const bytes = local.byteLength + upstream.byteLength;
    const keepImages = bytes <= this.#limits.maxBytes;
    const names = { local: `${record.id}.local.png`, upstream: `${record.id}.upstream.png` };
    const now = this.#now();
    await this.#connection.query(
      `SELECT ${this.#connection.names.saveCase}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        record.owner,
        record.id,
        Number(record.id.split('-')[0]) || now,
        JSON.stringify(record),
        keepImages ? bytes : 0,
        keepImages ? Buffer.from(local) : null,
        keepImages ? Buffer.from(upstream) : null,
        this.#limits.maxCases,
        this.#limits.maxBytes,
        now - this.#limits.ttlMs,
        now + this.#limits.ttlMs,
      ],
      STORE,
    );
    return keepImages ? names : undefined;
  }

  async tally(owner: string, outcome: ShadowOutcome): Promise<void> {
    const fields = tallyFields(outcome);
    const count = (field: string): number => (fields.includes(field) ? 1 : 0);
    const score = fields.find((f) => f.startsWith('score:'))?.slice('score:'.length) ?? null;
    const now = this.#now();
    // A summary past its retention starts again from zero, as a Redis hash that expired.
    await this.#connection.query(
      `INSERT INTO ${this.#connection.names.shadowSummaries} AS s
        (owner, compared, matched, diverged, upstream_errors, scores, updated_at, expires_at)
      VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object($6::text, 1) END, $7, $8)
      ON CONFLICT (owner) DO UPDATE SET
        compared = CASE WHEN s.expires_at <= $9 THEN 0 ELSE s.compared END + excluded.compared,
        matched = CASE WHEN s.expires_at <= $9 THEN 0 ELSE s.matched END + excluded.matched,
        diverged = CASE WHEN s.expires_at <= $9 THEN 0 ELSE s.diverged END + excluded.diverged,
        upstream_errors = CASE WHEN s.expires_at <= $9 THEN 0 ELSE s.upstream_errors END + excluded.upstream_errors,
        scores = CASE WHEN $6::text IS NULL THEN (CASE WHEN s.expires_at <= $9 THEN '{}'::jsonb ELSE s.scores END)
          ELSE jsonb_set(CASE WHEN s.expires_at <= $9 THEN '{}'::jsonb ELSE s.scores END, ARRAY[$6::text],
            to_jsonb(COALESCE(((CASE WHEN s.expires_at <= $9 THEN '{}'::jsonb ELSE s.scores END) ->> $6::text)::bigint, 0) + 1)) END,
        updated_at = excluded.updated_at,
        expires_at = excluded.expires_at`,
      [
        owner,
        count('compared'),
        count('matched'),
        count('diverged'),
        count('upstreamErrors'),
        score,
        new Date(now).toISOString(),
        now + this.#limits.ttlMs,
        now,
      ],
      STORE,
    );
  }

  async cases(owner: string, limit: number): Promise<ShadowCases> {
    const { shadowCases, shadowSummaries } = this.#connection.names;
    const now = this.#now();
    const [caseRows, summaryRows] = await Promise.all([
      this.#connection.query<{ id: string; record: string }>(
        `SELECT id, record FROM ${shadowCases} WHERE owner = $1 AND time_ms >= $2 ORDER BY time_ms DESC, id DESC LIMIT $3`,
        [owner, now - this.#limits.ttlMs, Math.max(0, Math.floor(limit))],
        STORE,
      ),
      this.#connection.query<SummaryRow>(
        `SELECT compared, matched, diverged, upstream_errors, scores, updated_at FROM ${shadowSummaries} WHERE owner = $1 AND expires_at > $2`,
        [owner, now],
        STORE,
      ),
    ]);
    const found: ShadowCases = { summary: toSummary(summaryRows.rows[0]), cases: [], unreadable: [] };
    for (const row of caseRows.rows) {
      try {
        found.cases.push(JSON.parse(row.record) as StoredShadowCase);
      } catch (err) {
        found.unreadable.push({ id: row.id, reason: (err as Error).message });
      }
    }
    return found;
  }

  async image(owner: string, name: string): Promise<Uint8Array | undefined> {
    const match = SHADOW_IMAGE_NAME.exec(name);
    if (!match) return undefined;
    const column = match[2] === 'local' ? 'local' : 'upstream';
    const { rows } = await this.#connection.query<{ data: Buffer | null }>(
      `SELECT ${column} AS data FROM ${this.#connection.names.shadowCases} WHERE owner = $1 AND id = $2 AND time_ms >= $3`,
      [owner, match[1], this.#now() - this.#limits.ttlMs],
      STORE,
    );
    const data = rows[0]?.data;
    return data ? new Uint8Array(data) : undefined;
  }

  /** Deletes cases and summaries past the retention of every owner (an owner that stopped saving keeps nothing). */
  async sweep(): Promise<number> {
    const { shadowCases, shadowSummaries } = this.#connection.names;
    const now = this.#now();
    const cases = await this.#connection.query(
      `DELETE FROM ${shadowCases} WHERE time_ms < $1`,
      [now - this.#limits.ttlMs],
      STORE,
    );
    const summaries = await this.#connection.query(
      `DELETE FROM ${shadowSummaries} WHERE expires_at <= $1`,
      [now],
      STORE,
    );
    return (cases.rowCount ?? 0) + (summaries.rowCount ?? 0);
  }
}

function toSummary(row: SummaryRow | undefined): ShadowSummary {
  const summary = emptySummary();
  if (!row) return summary;
  summary.compared = Number(row.compared);
  summary.matched = Number(row.matched);
  summary.diverged = Number(row.diverged);
  summary.upstreamErrors = Number(row.upstream_errors);
  for (const { label } of SCORE_BUCKETS) summary.scores[label] = Number(row.scores[label] ?? 0);
  summary.updatedAt = row.updated_at;
  return summary;
}
