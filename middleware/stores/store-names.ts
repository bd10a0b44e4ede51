// Every name a store writes, built from the namespace by one function, so that no store can forget it: two
// deployments with different namespaces on one Redis (or one PostgreSQL: the namespace names the schema) see
// nothing of each other.

/** The namespace when none is given (STORE_NAMESPACE, alias REDIS_NAMESPACE). */
export const DEFAULT_STORE_NAMESPACE = 'zpl';

/** What a namespace may hold: it goes into Redis key names and PostgreSQL identifiers unquoted by anyone's mistake; 63 is
 * PostgreSQL's identifier length (the namespace names a schema). */
export const STORE_NAMESPACE_PATTERN = /^[A-Za-z0-9._:-]{1,63}$/;

export interface StoreNames {
  /** The namespace the names are built from. */
  namespace: string;
  /** Keyv namespace of the key records (a record is `<keys>::<hash>`). */
  keys: string;
  /** One key record's name. */
  keyRecord(hash: string): string;
  /** The seed marker: written by seedKeys, its absence means the store lost its data. */
  seeded: string;
  /** A usage counter (rate-limit and daily buckets; `<bucket>:held` is its page reservation's companion). */
  usageCounter(bucket: string): string;
  /** Marks correction `id` of the counter `bucket` applied (in a cluster: in its slot, one script changes both). */
  usageCorrection(bucket: string, id: string): string;
  /** One owner's shadow names: case index, records, images and summary. */
  shadow(owner: string): { index: string; records: string; images: string; summary: string };
  /** The printer feed's names (one hash tag: one script uses them all) and its pub/sub channel. */
  printerFeed: PrinterFeedNames;
}

export interface PrinterFeedNames {
  /** Sorted set, job ids at score 0: read by id (lex), newest first reversed. */
  index: string;
  /** Sorted set, job id by the ms it was kept at (retention). */
  times: string;
  /** Hash, job id -> JSON record. */
  jobs: string;
  /** Hash, `<id>/<index>.png|pdf` -> image (base64). */
  images: string;
  /** Hash, job id -> JSON of its kept images' bytes and fields. */
  sizes: string;
  /** Counter: bytes of the images kept over all jobs. */
  bytes: string;
  /** Pub/sub channel of the feed's events (not a key). */
  channel: string;
}

const HELD_SUFFIX = ':held';

/**
 * The names under `namespace`. With `hashTags` (a Redis Cluster) the names used together in one script share a
 * slot: key records with the seed marker (`{namespace}`), a counter with its `:held` companion, an owner's four
 * shadow names. A single node or Sentinel keeps the names of earlier releases (no tags on keys and counters), so
 * keys, revocations and counters made there survive an upgrade.
 */
export function storeNames(
  namespace: string = DEFAULT_STORE_NAMESPACE,
  { hashTags = false }: { hashTags?: boolean } = {},
): StoreNames {
  if (!STORE_NAMESPACE_PATTERN.test(namespace)) {
    throw new Error(
      `a store namespace must be 1 to 63 letters, digits, '.', '_', ':' or '-', not ${JSON.stringify(namespace)}`,
    );
  }
  const base = hashTags ? `{${namespace}}` : namespace;
  const keys = `${base}:keys`;
  const usage = `${namespace}:usage:`;
  const usageCounter = (bucket: string): string => {
    if (!hashTags) return usage + bucket;
    const tag = bucket.endsWith(HELD_SUFFIX) ? bucket.slice(0, -HELD_SUFFIX.length) : bucket;
    return `${usage}{${tag}}${bucket.slice(tag.length)}`;
  };
  return {
    namespace,
    keys,
    keyRecord: (hash) => `${keys}::${hash}`,
    seeded: `${base}:seeded`,
    usageCounter,
    usageCorrection: (bucket, id) => `${usageCounter(bucket)}:correction:${id}`,
    // The owner, URI-encoded (no braces), is the hash tag everywhere: one script may use all four.
    shadow: (owner) => {
      const prefix = `${namespace}:shadow:{${encodeURIComponent(owner)}}`;
      return {
        index: `${prefix}:index`,
        records: `${prefix}:records`,
        images: `${prefix}:images`,
        summary: `${prefix}:summary`,
      };
    },
    // The namespace is the hash tag on every form: a Cluster keeps the feed in one slot.
    printerFeed: printerFeedNames(namespace),
  };
}

function printerFeedNames(namespace: string): PrinterFeedNames {
  const prefix = `${namespace}:printer:{${namespace}}`;
  return {
    index: `${prefix}:index`,
    times: `${prefix}:times`,
    jobs: `${prefix}:jobs`,
    images: `${prefix}:images`,
    sizes: `${prefix}:sizes`,
    bytes: `${prefix}:bytes`,
    channel: `${namespace}:printer:events`,
  };
}
