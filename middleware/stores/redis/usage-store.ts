// Counters in Redis, shared by every instance on the same server: each update is one Lua script, so
// concurrent requests on any number of instances never lose an increment.

import type { ReserveOp, UsageStore } from '../usage-store.js';
import type { RedisConnection } from './connection.js';
import { storeNames, type StoreNames } from '../store-names.js';

/** INCRBY that sets the expiry only when the counter is new, so a window never slides. */
const ADD = `
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n`;

/** Takes ARGV[1] when the usage is below ARGV[2]; returns {taken 0|1, usage after}. */
const TAKE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[2]) then return {0, used} end
used = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {1, used}`;

/** UsageStore.reserve: KEYS used, held; ARGV usedDelta, heldDelta, limit, countHeld (1|0), ttl, heldTtl. */
const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local held = math.max(0, tonumber(redis.call('GET', KEYS[2]) or '0'))
local gate = used
if ARGV[4] == '1' then gate = used + held end
if gate >= tonumber(ARGV[3]) then return {0, used} end
if tonumber(ARGV[1]) ~= 0 then
  used = redis.call('INCRBY', KEYS[1], ARGV[1])
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
end
if tonumber(ARGV[2]) ~= 0 then
  -- Holds live heldTtl from when they start from nothing, never moved (INCRBY keeps the expiry); never below 0.
  local n = math.max(0, held + tonumber(ARGV[2]))
  if held <= 0 then redis.call('SET', KEYS[2], n, 'PX', ARGV[6])
  elseif n == 0 then redis.call('SET', KEYS[2], 0, 'PX', ARGV[6])
  else redis.call('INCRBY', KEYS[2], ARGV[2]) end
end
return {1, used}`;

const HELD_SUFFIX = ':held';

export class RedisUsageStore implements UsageStore {
  readonly #redis: RedisConnection;
  readonly #names: StoreNames;

  /** Buckets live under `<namespace>:usage:` (storeNames). */
  constructor(redis: RedisConnection, namespace?: string) {
    this.#redis = redis;
    this.#names = storeNames(namespace, { hashTags: redis.hashTags });
  }

  /** The Redis key of a bucket; in a cluster a bucket and its `:held` companion share a slot (one script changes both). */
  #key(bucket: string): string {
    return this.#names.usageCounter(bucket);
  }

  isReady(): boolean {
    return this.#redis.isReady();
  }

  hit(bucket: string, windowMs: number): Promise<number> {
    return this.add(bucket, 1, windowMs);
  }

  async take(bucket: string, amount: number, limit: number, ttlMs: number): Promise<{ taken: boolean; used: number }> {
    const reply = (await this.#redis.client.eval(TAKE, {
      keys: [this.#key(bucket)],
      arguments: [String(amount), String(limit), String(Math.ceil(ttlMs))],
    })) as [number, number];
    return { taken: reply[0] === 1, used: Number(reply[1]) };
  }

  async reserve(op: ReserveOp): Promise<{ taken: boolean; used: number }> {
    if (this.#redis.hashTags && op.held !== op.used + HELD_SUFFIX)
      throw new Error(`a reservation's held counter must be ${op.used}${HELD_SUFFIX}`);
    const reply = (await this.#redis.client.eval(RESERVE, {
      keys: [this.#key(op.used), this.#key(op.held)],
      arguments: [
        String(op.usedDelta),
        String(op.heldDelta),
        String(op.limit),
        op.countHeld ? '1' : '0',
        String(Math.ceil(op.ttlMs)),
        String(Math.ceil(op.heldTtlMs)),
      ],
    })) as [number, number];
    return { taken: reply[0] === 1, used: Number(reply[1]) };
  }

  async add(bucket: string, amount: number, ttlMs: number): Promise<number> {
    const reply = await this.#redis.client.eval(ADD, {
      keys: [this.#key(bucket)],
      arguments: [String(amount), String(Math.ceil(ttlMs))],
    });
    return Number(reply);
  }

  async used(bucket: string): Promise<number> {
    return Number((await this.#redis.client.get(this.#key(bucket))) ?? 0);
  }

  async close(): Promise<void> {
    await this.#redis.close();
  }
}
