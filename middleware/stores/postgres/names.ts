// Every name the PostgreSQL stores use, from the namespace: the namespace is a schema, and each store is a table
// (or function) in it, so two deployments on one database (prod and staging) never see each other's rows.

/** What a namespace may be (as REDIS_NAMESPACE allows), short enough for a PostgreSQL identifier (63 bytes). */
export const POSTGRES_NAMESPACE = /^[A-Za-z0-9._:-]{1,63}$/;

/**
 * Why PostgreSQL would refuse `namespace` as our schema, or undefined. The pattern's characters are all fine in a
 * quoted identifier; what it allows and PostgreSQL refuses is the `pg_` prefix (reserved for system schemas,
 * case-sensitively), and `information_schema` is a system schema that exists already.
 */
export function postgresNamespaceProblem(namespace: string): string | undefined {
  if (!POSTGRES_NAMESPACE.test(namespace))
    return `a store namespace must be 1 to 63 letters, digits, '.', '_', ':' or '-', not ${JSON.stringify(namespace)}`;
  if (namespace.startsWith('pg_'))
    return `PostgreSQL reserves schema names starting with pg_ for itself: choose another namespace than ${JSON.stringify(namespace)}`;
  if (namespace === 'information_schema')
    return 'information_schema is a PostgreSQL system schema: choose another namespace';
  return undefined;
}

/** `name` as a quoted SQL identifier: any character is safe inside, case is kept. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The unqualified table and function names inside a namespace's schema (what a test lists to check the scoping). */
export const POSTGRES_TABLES = {
  /** Key records, one Keyv row per SHA-256 of a key (@keyv/postgres's layout: key, value). */
  keys: 'keys',
  /** Markers such as `seeded` (seed-marker.ts): name -> ISO time. */
  markers: 'markers',
  /** Usage counters: bucket -> count, until expires_at (ms since the epoch). */
  counters: 'counters',
  /** Corrections applied (usage-store.ts correct): id -> until when a retry of it is recognised. */
  corrections: 'corrections',
  /** Shadow cases: one row per case with both images (bytea), per owner. */
  shadowCases: 'shadow_cases',
  /** Shadow summaries: one row per owner. */
  shadowSummaries: 'shadow_summaries',
  /** The printer feed: one row per job (its JSON record), newest by id. */
  printerJobs: 'printer_jobs',
  /** The printer feed's label images (bytea), one row per label of a job that keeps its images. */
  printerLabels: 'printer_labels',
} as const;

export const POSTGRES_FUNCTIONS = {
  /** UsageStore.reserve in one call (usage-store.ts). */
  reserve: 'usage_reserve',
  /** UsageStore.add (and hit) in one call. */
  add: 'usage_add',
  /** A page bucket's holds changed (their lifetime never moved by a later change). */
  hold: 'usage_hold',
  /** UsageStore.correct: a give-back or settlement applied at most once. */
  correct: 'usage_correct',
  /** ShadowCaseStore.saveCase with its caps in one call (shadow-store.ts). */
  saveCase: 'shadow_save_case',
  /** PrinterFeed.add with its caps, retention and notification in one call (printer-feed.ts). */
  printerAdd: 'printer_add',
} as const;

export type PostgresNames = {
  /** The namespace as given. */
  namespace: string;
  /** The schema's name, unquoted. */
  schemaName: string;
  /** The quoted schema. */
  schema: string;
  /** The printer feed's LISTEN/NOTIFY channel, unquoted (at most 63 bytes: a long namespace is cut, the payload names it). */
  printerChannel: string;
} & { [T in keyof typeof POSTGRES_TABLES]: string } & { [F in keyof typeof POSTGRES_FUNCTIONS]: string };

/** The quoted, schema-qualified names of `namespace`; throws naming the rule when the namespace breaks it. */
export function postgresNames(namespace: string): PostgresNames {
  const problem = postgresNamespaceProblem(namespace);
  if (problem !== undefined) throw new Error(problem);
  const schema = quoteIdentifier(namespace);
  const qualified = (name: string): string => `${schema}.${quoteIdentifier(name)}`;
  const tables = Object.fromEntries(Object.entries(POSTGRES_TABLES).map(([k, v]) => [k, qualified(v)]));
  const functions = Object.fromEntries(Object.entries(POSTGRES_FUNCTIONS).map(([k, v]) => [k, qualified(v)]));
  const printerChannel = `printer:${namespace}`.slice(0, 63);
  return { namespace, schemaName: namespace, schema, printerChannel, ...tables, ...functions } as PostgresNames;
}
