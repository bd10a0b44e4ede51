// Counters in Redis, shared by every instance on the same server: each update is one Lua script, so
// concurrent requests on any number of instances never lose an increment.

import { CorrectionQueue } from '../correction-queue.js';
import type { CorrectionOp, ReserveOp, UsageStore } from '../usage-store.js';
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

/**
 * Adds ARGV[d] to the hold KEYS[k]: holds live ARGV[t] from when they start from nothing, never moved (INCRBY keeps
 * the expiry); never below 0. Reads `held` (the hold before, at least 0).
 */
const hold = (k: number, d: number, t: number): string => `
if tonumber(ARGV[${d}]) ~= 0 then
  local n = math.max(0, held + tonumber(ARGV[${d}]))
  if held <= 0 then redis.call('SET', KEYS[${k}], n, 'PX', ARGV[${t}])
  elseif n == 0 then redis.call('SET', KEYS[${k}], 0, 'PX', ARGV[${t}])
  else redis.call('INCRBY', KEYS[${k}], ARGV[${d}]) end
end`;

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
end${hold(2, 2, 6)}
return {1, used}`;

/**
 * UsageStore.correct, at most once per id: KEYS used, held, the id's marker; ARGV usedDelta, heldDelta, ttl, heldTtl,
 * how long the id is remembered. Returns 1 when applied, 0 when the id was applied before.
 */
const CORRECT = `
if not redis.call('SET', KEYS[3], '1', 'NX', 'PX', ARGV[5]) then return 0 end
if tonumber(ARGV[1]) ~= 0 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
local held = math.max(0, tonumber(redis.call('GET', KEYS[2]) or '0'))${hold(2, 2, 4)}
return 1`;

/** A correction's id is remembered this long (a retry comes within seconds; as PostgreSQL's corrections table). */
const CORRECTION_ID_TTL_MS = 86_400_000;
/** A correction attempt Redis has not answered within this long (a stall) is sent again; its id keeps it once. */
const CORRECTION_ATTEMPT_MS = 1000;

const HELD_SUFFIX = ':held';

export interface RedisUsageStoreOptions {
  /** Told when a correction fails while Redis answers otherwise (it is tried again). */
  log?: (message: string) => void;
}

export class RedisUsageStore implements UsageStore {
  readonly #redis: RedisConnection;
  readonly #names: StoreNames;
  /** Corrections not yet applied: applied whenever Redis answers (and at each (re)connection), once each. */
  readonly #corrections: CorrectionQueue;

  /** Buckets live under `<namespace>:usage:` (storeNames). */
  constructor(redis: RedisConnection, namespace?: string, options: RedisUsageStoreOptions = {}) {
    this.#redis = redis;
    this.#names = storeNames(namespace, { hashTags: redis.hashTags });
    this.#corrections = new CorrectionQueue({
      apply: (id, op) => this.#apply(id, op),
      isReady: redis.isReady,
      onReady: (listener) => redis.onReady(listener),
      attemptMs: CORRECTION_ATTEMPT_MS,
      ...(options.log && { log: options.log }),
    });
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
    this.#sameSlot(op);
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

  correct(op: CorrectionOp): Promise<void> {
    this.#sameSlot(op);
    return this.#corrections.add(op);
  }

  /** Corrections waiting for Redis (for tests, benches and logs). */
  get pendingCorrections(): number {
    return this.#corrections.size;
  }

  async #apply(id: string, op: CorrectionOp): Promise<void> {
    await this.#redis.client.eval(CORRECT, {
      keys: [this.#key(op.used), this.#key(op.held), this.#names.usageCorrection(op.used, id)],
      arguments: [
        String(Math.trunc(op.usedDelta)),
        String(Math.trunc(op.heldDelta)),
        String(Math.ceil(op.ttlMs)),
        String(Math.ceil(op.heldTtlMs)),
        String(CORRECTION_ID_TTL_MS),
      ],
    });
  }

  /** In a cluster one script changes a counter and its holds: they must share a slot. */
  #sameSlot(op: Pick<ReserveOp, 'used' | 'held'>): void {
    if (this.#redis.hashTags && op.held !== op.used + HELD_SUFFIX)
      throw new Error(`a reservation's held counter must be ${op.used}${HELD_SUFFIX}`);
  }

  async used(bucket: string): Promise<number> {
    return Number((await this.#redis.client.get(this.#key(bucket))) ?? 0);
  }

  /** Applies what corrections it can first (briefly, while Redis answers), then closes the connection. */
  async close(): Promise<void> {
    await this.#corrections.close();
    await this.#redis.close();
  }
}
