// What shadow mode keeps of its comparisons: each divergent case (a record and both PNGs) and a running summary,
// per owner (a key's organization, or the key itself when it has none). Files in one folder on one machine
// (shadow-file-store.ts), or the shared backend's, seen by every replica (redis/shadow-store.ts, postgres/shadow-store.ts).

/** One label the two renderers drew differently (or only one of them drew). */
export interface DivergenceEvent {
  requestId: string;
  /** Zero-based index of the compared label. */
  index: number;
  /** Labels the document produces (X-Total-Count) by each renderer; null when upstream did not say. */
  labels: { local: number; upstream: number | null };
  /** Ink F1 of our label against the legacy one (1 = same within one pixel; 0 when sizes differ). */
  score: number;
  /** Byte length of each PNG. */
  bytes: { local: number; upstream: number };
  /** Status the legacy service answered (a non-200 answer to a label we drew is a divergence too). */
  upstreamStatus: number;
  /** Where both images were stored, when `storeDir` is set. */
  files?: { local: string; upstream: string };
}

export type ShadowOutcome =
  | { requestId: string; outcome: 'same'; score: number }
  | { requestId: string; outcome: 'divergent'; event: DivergenceEvent }
  | { requestId: string; outcome: 'failed'; reason: string };

/** One divergent case as stored beside its two images. */
export interface StoredShadowCase extends DivergenceEvent {
  /** File stem shared by `<stem>.json`, `<stem>.local.png` and `<stem>.upstream.png`. */
  id: string;
  /** Whose request it was (shadowOwner): only keys of the same owner see the case. */
  owner: string;
  /** ISO time the comparison finished. */
  time: string;
  /** Method and path below the mount point (no query: it may hold a key). */
  endpoint: string;
}

/** Score buckets of the distribution, highest first; a score falls in the first whose floor it reaches. */
export const SCORE_BUCKETS: readonly { label: string; floor: number }[] = [
  { label: '1', floor: 1 },
  { label: '0.99-1', floor: 0.99 },
  { label: '0.95-0.99', floor: 0.95 },
  { label: '0.90-0.95', floor: 0.9 },
  { label: '0.50-0.90', floor: 0.5 },
  { label: '0-0.50', floor: 0 },
];

export interface ShadowSummary {
  /** Labels compared (matched + diverged). */
  compared: number;
  matched: number;
  diverged: number;
  /** The legacy service was down, slow, limiting or refusing us: nothing was compared. */
  upstreamErrors: number;
  /** Compared labels per score bucket (labels of SCORE_BUCKETS). */
  scores: Record<string, number>;
  updatedAt: string | null;
}

const ENDPOINT_CHARS = 200;

export function emptySummary(): ShadowSummary {
  return {
    compared: 0,
    matched: 0,
    diverged: 0,
    upstreamErrors: 0,
    scores: Object.fromEntries(SCORE_BUCKETS.map((b) => [b.label, 0])),
    updatedAt: null,
  };
}

export function scoreBucket(score: number): string {
  return (SCORE_BUCKETS.find((b) => score >= b.floor) ?? SCORE_BUCKETS[SCORE_BUCKETS.length - 1]!).label;
}

export function caseEndpoint(method: string, url: string): string {
  return `${method} ${url.split('?')[0]!.slice(0, ENDPOINT_CHARS)}`;
}

/** Who sees a case: the organization of the key that made the request, else that key alone. */
export function shadowOwner(key: { id: string; organization?: string }): string {
  return key.organization !== undefined ? `org:${key.organization}` : `key:${key.id}`;
}

/** Stored image names: `<time>-<request id>.local.png` / `.upstream.png`, nothing else (no paths). */
export const SHADOW_IMAGE_NAME = /^([0-9]+-[A-Za-z0-9_-]+)\.(local|upstream)\.png$/;

/** What the report shows one owner: its summary and its newest cases (newest first). */
export interface ShadowCases {
  summary: ShadowSummary;
  cases: StoredShadowCase[];
  /** Stored cases that could not be read (a truncated file): left out, and told to the caller to log. */
  unreadable: { id: string; reason: string }[];
}

/** Caps of a shadow store, per owner. */
export interface ShadowRetention {
  /** Divergent cases kept, oldest dropped first (default 1000). */
  maxCases?: number;
  /** Image bytes kept (as stored), oldest cases dropped first (default 64 MiB); a case above it keeps no images. */
  maxBytes?: number;
  /** Cases older than this are dropped (default 30 days). */
  ttlMs?: number;
}

export const DEFAULT_SHADOW_MAX_CASES = 1000;
export const DEFAULT_SHADOW_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_SHADOW_TTL_MS = 30 * 24 * 3600 * 1000;

export function retention(options: ShadowRetention = {}): Required<ShadowRetention> {
  return {
    maxCases: options.maxCases ?? DEFAULT_SHADOW_MAX_CASES,
    maxBytes: options.maxBytes ?? DEFAULT_SHADOW_MAX_BYTES,
    ttlMs: options.ttlMs ?? DEFAULT_SHADOW_TTL_MS,
  };
}

/** Where shadow mode keeps its cases and summary; the report reads them back for one owner. */
export interface ShadowCaseStore {
  /** Both images and the record (the record last: a listed case has its images); resolves to where the images went. */
  saveCase(
    record: StoredShadowCase,
    local: Uint8Array,
    upstream: Uint8Array,
  ): Promise<{ local: string; upstream: string } | undefined>;
  /** Counts one settled comparison into `owner`'s summary. */
  tally(owner: string, outcome: ShadowOutcome): Promise<void>;
  /** `owner`'s summary and newest `limit` cases. */
  cases(owner: string, limit: number): Promise<ShadowCases>;
  /** One stored image of `owner`'s cases by its name (SHADOW_IMAGE_NAME); undefined for anything else. */
  image(owner: string, name: string): Promise<Uint8Array | undefined>;
}

/** The summary fields one outcome adds 1 to (score buckets as `score:<label>`). */
export function tallyFields(outcome: ShadowOutcome): string[] {
  if (outcome.outcome === 'failed') return ['upstreamErrors'];
  const score = outcome.outcome === 'same' ? outcome.score : outcome.event.score;
  return ['compared', `score:${scoreBucket(score)}`, outcome.outcome === 'same' ? 'matched' : 'diverged'];
}

/** Adds `fields` (tallyFields) to `summary` in place. */
export function addToSummary(summary: ShadowSummary, fields: readonly string[], at: string): ShadowSummary {
  for (const field of fields) {
    if (field.startsWith('score:')) summary.scores[field.slice(6)] = (summary.scores[field.slice(6)] ?? 0) + 1;
    else if (field === 'compared' || field === 'matched' || field === 'diverged' || field === 'upstreamErrors')
      summary[field]++;
  }
  summary.updatedAt = at;
  return summary;
}
