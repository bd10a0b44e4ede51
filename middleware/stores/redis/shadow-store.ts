// Shadow cases in Redis, shared by every replica on the same Redis: the report on any replica shows every
// replica's comparisons. Per owner, four keys in one slot (hash tag: the owner), named by storeNames under the
// namespace, changed only by scripts:
//   <ns>:shadow:{owner}:index    sorted set, case id by time
//   <ns>:shadow:{owner}:records  hash, case id -> JSON record
//   <ns>:shadow:{owner}:images   hash, image name -> PNG (base64)
//   <ns>:shadow:{owner}:summary  hash, counters (HINCRBY) and the bytes the images take
// Adding a case drops expired ones, then the oldest while over the case or byte cap, in the same script.

import type { RedisConnection } from './connection.js';
import { storeNames, type StoreNames } from '../store-names.js';
import {
  emptySummary,
  retention,
  SCORE_BUCKETS,
  SHADOW_IMAGE_NAME,
  tallyFields,
  type ShadowCases,
  type ShadowCaseStore,
  type ShadowOutcome,
  type ShadowRetention,
  type ShadowSummary,
  type StoredShadowCase,
} from '../shadow-store.js';

/** KEYS index, records, images, summary; ARGV id, time, record, bytes, maxCases, maxBytes, ttl, cutoff, then name, data pairs. */
const SAVE = `
local function drop(id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  local freed = 0
  for _, side in ipairs({'.local.png', '.upstream.png'}) do
    freed = freed + redis.call('HSTRLEN', KEYS[3], id .. side)
    redis.call('HDEL', KEYS[3], id .. side)
  end
  if freed > 0 then redis.call('HINCRBY', KEYS[4], 'storedBytes', -freed) end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
for i = 9, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
redis.call('HINCRBY', KEYS[4], 'storedBytes', ARGV[4])
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[8])) do drop(id) end
while redis.call('ZCARD', KEYS[1]) > tonumber(ARGV[5]) or tonumber(redis.call('HGET', KEYS[4], 'storedBytes') or '0') > tonumber(ARGV[6]) do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)
  if #oldest == 0 then break end
  drop(oldest[1])
end
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return redis.call('ZCARD', KEYS[1])`;

/** KEYS summary; ARGV updatedAt, ttl, then the fields to add 1 to. */
const TALLY = `
for i = 3, #ARGV do redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

export interface RedisShadowStoreOptions extends ShadowRetention {
  /** Namespace of the store's keys (default `zpl`, as the key and usage stores; see storeNames). */
  namespace?: string;
  now?: () => number;
}

export class RedisShadowStore implements ShadowCaseStore {
  readonly #redis: RedisConnection;
  readonly #names: StoreNames;
  readonly #limits: Required<ShadowRetention>;
  readonly #now: () => number;

  constructor(redis: RedisConnection, options: RedisShadowStoreOptions = {}) {
    this.#redis = redis;
    this.#names = storeNames(options.namespace);
    this.#limits = retention(options);
    this.#now = options.now ?? Date.now;
  }

  /** The owner's four keys, in one slot (storeNames), so one script may use them all. */
  #keys(owner: string): [index: string, records: string, images: string, summary: string] {
    const { index, records, images, summary } = this.#names.shadow(owner);
    return [index, records, images, summary];
  }

  async saveCase(
    record: StoredShadowCase,
    local: Uint8Array,
    upstream: Uint8Array,
  ): Promise<{ local: string; upstream: string } | undefined> {
    const images = { local: Buffer.from(local).toString('base64'), upstream: Buffer.from(upstream).toString('base64') };
    const bytes = images.local.length + images.upstream.length;
    const keepImages = bytes <= this.#limits.maxBytes;
    const names = { local: `${record.id}.local.png`, upstream: `${record.id}.upstream.png` };
    const now = this.#now();
    await this.#redis.client.eval(SAVE, {
      keys: this.#keys(record.owner),
      arguments: [
        record.id,
        String(Number(record.id.split('-')[0]) || now),
        JSON.stringify(record),
        String(keepImages ? bytes : 0),
        String(this.#limits.maxCases),
        String(this.#limits.maxBytes),
        String(this.#limits.ttlMs),
        String(now - this.#limits.ttlMs),
        ...(keepImages ? [names.local, images.local, names.upstream, images.upstream] : []),
      ],
    });
    return keepImages ? names : undefined;
  }

  async tally(owner: string, outcome: ShadowOutcome): Promise<void> {
    await this.#redis.client.eval(TALLY, {
      keys: [this.#keys(owner)[3]],
      arguments: [new Date(this.#now()).toISOString(), String(this.#limits.ttlMs), ...tallyFields(outcome)],
    });
  }

  async cases(owner: string, limit: number): Promise<ShadowCases> {
    const [index, records, , summaryKey] = this.#keys(owner);
    const { client } = this.#redis;
    const cutoff = this.#now() - this.#limits.ttlMs;
    const ids = (await client.zRange(index, '+inf', String(cutoff), {
      BY: 'SCORE',
      REV: true,
      LIMIT: { offset: 0, count: limit },
    })) as string[];
    const [texts, fields] = await Promise.all([
      ids.length > 0 ? client.hmGet(records, ids) : Promise.resolve([] as (string | null)[]),
      client.hGetAll(summaryKey),
    ]);
    const found: ShadowCases = { summary: toSummary(fields as Record<string, string>), cases: [], unreadable: [] };
    texts.forEach((text, i) => {
      if (text === null || text === undefined) return; // dropped since the index was read
      try {
        found.cases.push(JSON.parse(String(text)) as StoredShadowCase);
      } catch (err) {
        found.unreadable.push({ id: ids[i]!, reason: (err as Error).message });
      }
    });
    return found;
  }

  async image(owner: string, name: string): Promise<Uint8Array | undefined> {
    if (!SHADOW_IMAGE_NAME.test(name)) return undefined;
    const data = await this.#redis.client.hGet(this.#keys(owner)[2], name);
    return data === null || data === undefined ? undefined : Buffer.from(String(data), 'base64');
  }
}

function toSummary(fields: Record<string, string>): ShadowSummary {
  const summary = emptySummary();
  const count = (field: string): number => Number(fields[field] ?? 0);
  summary.compared = count('compared');
  summary.matched = count('matched');
  summary.diverged = count('diverged');
  summary.upstreamErrors = count('upstreamErrors');
  for (const { label } of SCORE_BUCKETS) summary.scores[label] = count(`score:${label}`);
  summary.updatedAt = fields.updatedAt ?? null;
  return summary;
}
