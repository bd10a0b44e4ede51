// The printer feed in Redis, one feed for every replica on the same Redis and namespace. Six keys in one slot (the
// namespace is their hash tag, storeNames().printerFeed), changed only by scripts; adding a job drops the expired
// ones, the oldest over the job cap, then the oldest jobs' images over the byte cap, in the same script. Events go
// to this replica's listeners at once and to the others' over pub/sub, on a connection of their own.

import { randomUUID } from 'node:crypto';
import {
  DEFAULT_PRINTER_FEED_LIMITS,
  PrinterFeedListeners,
  printedLabelBytes,
  type PrintedLabel,
  type PrinterFeed,
  type PrinterFeedEvent,
  type PrinterFeedLimits,
  type PrinterJobRecord,
} from '../printer-feed.js';
import type { PrinterFeedNames } from '../store-names.js';
import type { RedisClient, RedisConnection } from './connection.js';

/** KEYS index, times, jobs, images, sizes, bytes; ARGV id, keptAt, record, bytes, maxJobs, maxBytes, ttl, cutoff, fields (JSON), then field, data pairs. */
const ADD = `
local function drop_images(id)
  local size = redis.call('HGET', KEYS[5], id)
  if not size then return end
  local kept = cjson.decode(size)
  for _, field in ipairs(kept.f) do redis.call('HDEL', KEYS[4], field) end
  redis.call('HDEL', KEYS[5], id)
  redis.call('DECRBY', KEYS[6], kept.b)
end
local function drop(id)
  drop_images(id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
end
drop_images(ARGV[1])
redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
if #ARGV > 9 then
  for i = 10, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
  redis.call('HSET', KEYS[5], ARGV[1], cjson.encode({ b = tonumber(ARGV[4]), f = cjson.decode(ARGV[9]) }))
  redis.call('INCRBY', KEYS[6], ARGV[4])
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[8])) do drop(id) end
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if over > 0 then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, over - 1)) do drop(id) end
end
if tonumber(redis.call('GET', KEYS[6]) or '0') > tonumber(ARGV[6]) then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    drop_images(id)
    if tonumber(redis.call('GET', KEYS[6]) or '0') <= tonumber(ARGV[6]) then break end
  end
end
for i = 1, 6 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return redis.call('HEXISTS', KEYS[3], ARGV[1])`;

/** KEYS jobs; ARGV id, record: replaces a kept job's record only. */
const UPDATE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** What goes over the channel: the event, and which feed sent it (its own listeners heard it already). */
interface Message {
  from: string;
  event: PrinterFeedEvent;
}

export interface RedisPrinterFeedOptions {
  names: PrinterFeedNames;
  limits?: Partial<PrinterFeedLimits>;
  clock?: () => number;
  log?: (message: string) => void;
}

const imageField = (id: string, index: number, type: 'png' | 'pdf'): string => `${id}/${index}.${type}`;

function parseJob(text: unknown): PrinterJobRecord | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(String(text)) as PrinterJobRecord;
  } catch {
    return undefined; // a record another release wrote in another shape: not shown
  }
}

export class RedisPrinterFeed implements PrinterFeed {
  readonly #redis: RedisConnection;
  readonly #names: PrinterFeedNames;
  readonly #limits: PrinterFeedLimits;
  readonly #clock: () => number;
  readonly #log: (message: string) => void;
  readonly #id = randomUUID();
  readonly #listeners = new PrinterFeedListeners();
  #unlisten: (() => Promise<void>) | undefined;
  #subscribed: Promise<void> | undefined;
  #closed = false;

  constructor(redis: RedisConnection, options: RedisPrinterFeedOptions) {
    this.#redis = redis;
    this.#names = options.names;
    this.#limits = { ...DEFAULT_PRINTER_FEED_LIMITS, ...options.limits };
    this.#clock = options.clock ?? Date.now;
    this.#log = options.log ?? (() => {});
  }

  get #keys(): string[] {
    const { index, times, jobs, images, sizes, bytes } = this.#names;
    return [index, times, jobs, images, sizes, bytes];
  }

  async add(job: PrinterJobRecord, labels: readonly PrintedLabel[]): Promise<void> {
    const bytes = printedLabelBytes(labels);
    const pairs: string[] = [];
    for (const label of labels) {
      pairs.push(imageField(job.id, label.index, 'png'), Buffer.from(label.png).toString('base64'));
      if (label.pdf) pairs.push(imageField(job.id, label.index, 'pdf'), Buffer.from(label.pdf).toString('base64'));
    }
    const fields = pairs.filter((_, i) => i % 2 === 0);
    const now = this.#clock();
    const { maxJobs, maxBytes, ttlMs } = this.#limits;
    const kept = await this.#redis.client.eval(ADD, {
      keys: this.#keys,
      arguments: [
        job.id,
        String(now),
        JSON.stringify(job),
        String(bytes),
        String(maxJobs),
        String(maxBytes),
        String(Math.max(1, Math.ceil(ttlMs))),
        String(now - ttlMs),
        JSON.stringify(fields),
        ...pairs,
      ],
    });
    if (Number(kept) === 1) await this.#emit({ type: 'job', job });
  }

  async update(job: PrinterJobRecord): Promise<void> {
    const kept = await this.#redis.client.eval(UPDATE, {
      keys: [this.#names.jobs],
      arguments: [job.id, JSON.stringify(job)],
    });
    if (Number(kept) === 1) await this.#emit({ type: 'job', job });
  }

  async list(limit: number): Promise<PrinterJobRecord[]> {
    const count = Math.max(0, Math.floor(limit));
    if (count === 0) return [];
    const { client } = this.#redis;
    const ids = (await client.zRange(this.#names.index, '+', '-', {
      BY: 'LEX',
      REV: true,
      LIMIT: { offset: 0, count },
    })) as string[];
    if (ids.length === 0) return [];
    const texts = await client.hmGet(this.#names.jobs, ids);
    return texts.map(parseJob).filter((job): job is PrinterJobRecord => job !== undefined);
  }

  async get(id: string): Promise<PrinterJobRecord | undefined> {
    return parseJob(await this.#redis.client.hGet(this.#names.jobs, id));
  }

  async label(id: string, index: number, type: 'png' | 'pdf'): Promise<Uint8Array | undefined> {
    const data = await this.#redis.client.hGet(this.#names.images, imageField(id, index, type));
    return data === null || data === undefined ? undefined : new Uint8Array(Buffer.from(String(data), 'base64'));
  }

  subscribe(listener: (event: PrinterFeedEvent) => void): () => void {
    const unsubscribe = this.#listeners.add(listener);
    this.whenSubscribed().catch(() => undefined);
    return unsubscribe;
  }

  /** Resolves once other replicas' events reach this feed's listeners (the channel is subscribed). */
  whenSubscribed(): Promise<void> {
    this.#subscribed ??= this.#listen();
    return this.#subscribed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    await unlisten?.().catch(() => undefined);
  }

  async #emit(event: PrinterFeedEvent): Promise<void> {
    this.#listeners.notify(event);
    const message: Message = { from: this.#id, event };
    // The job is kept whether or not other replicas hear of it now: their views read the list when they connect.
    await this.#redis.client.publish(this.#names.channel, JSON.stringify(message)).catch((err: unknown) => {
      this.#log(`printer feed: could not tell other replicas of job ${event.job.id}: ${(err as Error).message}`);
    });
  }

  /**
   * A connection of its own (a subscribed connection serves nothing else), resubscribed by the client after a
   * reconnection. A Sentinel client has no duplicate: it subscribes on a pub/sub connection it keeps apart itself.
   */
  async #listen(): Promise<void> {
    await this.#redis.connected;
    if (this.#closed) return;
    const handler = (text: string): void => {
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        return;
      }
      if (message.from === this.#id || message.event?.type !== 'job') return;
      this.#listeners.notify(message.event);
    };
    if (this.#redis.kind === 'sentinel') {
      const { client } = this.#redis;
      await client.subscribe(this.#names.channel, handler);
      this.#unlisten = () => client.unsubscribe(this.#names.channel, handler).then(() => undefined);
      if (this.#closed) await this.#unlisten();
      return;
    }
    const subscriber = this.#redis.client.duplicate() as RedisClient;
    let down = false;
    subscriber.on('error', (err: unknown) => {
      if (down) return;
      down = true;
      this.#log(`printer feed: ${this.#redis.description} events unavailable: ${(err as Error).message}`);
    });
    subscriber.on('ready', () => {
      down = false;
    });
    this.#unlisten = async () => {
      try {
        subscriber.destroy();
      } catch {
        // already closed
      }
    };
    if (this.#closed) return this.#unlisten();
    await subscriber.connect();
    await subscriber.subscribe(this.#names.channel, handler);
  }
}
