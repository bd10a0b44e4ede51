// The printer feed in PostgreSQL, one feed for every replica on the same database and namespace: a row per job and
// a row per kept label image in the namespace's schema. The caps and retention are Redis's (redis/printer-feed.ts),
// applied by one function per add. Events go to this replica's listeners at once and to the others' by
// LISTEN/NOTIFY on a connection of their own; a notification carries the job's id, and each replica reads the job.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
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
import type { PostgresConnection } from './connection.js';
import { quoteIdentifier } from './names.js';

/** The feed's failures name a store the router knows (StoreUnavailableError's names are its two stores). */
const STORE = 'key store' as const;

/** A notification: the namespace (a long one's channel is cut, so channels may be shared), the sender, the job. */
interface Notice {
  ns: string;
  from: string;
  id: string;
}

export interface PostgresPrinterFeedOptions {
  limits?: Partial<PrinterFeedLimits>;
  clock?: () => number;
  log?: (message: string) => void;
}

function parseJob(text: string | undefined): PrinterJobRecord | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as PrinterJobRecord;
  } catch {
    return undefined;
  }
}

export class PostgresPrinterFeed implements PrinterFeed {
  readonly #connection: PostgresConnection;
  readonly #limits: PrinterFeedLimits;
  readonly #clock: () => number;
  readonly #log: (message: string) => void;
  readonly #id = randomUUID();
  readonly #listeners = new PrinterFeedListeners();
  #listener: pg.Client | undefined;
  #subscribed: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(connection: PostgresConnection, options: PostgresPrinterFeedOptions = {}) {
    this.#connection = connection;
    this.#limits = { ...DEFAULT_PRINTER_FEED_LIMITS, ...options.limits };
    this.#clock = options.clock ?? Date.now;
    this.#log = options.log ?? (() => {});
  }

  #notice(id: string): string {
    return JSON.stringify({ ns: this.#connection.names.namespace, from: this.#id, id } satisfies Notice);
  }

  async add(job: PrinterJobRecord, labels: readonly PrintedLabel[]): Promise<void> {
    const { names } = this.#connection;
    const now = this.#clock();
    const { maxJobs, maxBytes, ttlMs } = this.#limits;
    const result = await this.#connection.query<{ kept: boolean }>(
      `SELECT ${names.printerAdd}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS kept`,
      [
        job.id,
        now,
        JSON.stringify(job),
        printedLabelBytes(labels),
        labels.map((label) => label.index),
        labels.map((label) => Buffer.from(label.png)),
        labels.map((label) => (label.pdf ? Buffer.from(label.pdf) : null)),
        maxJobs,
        maxBytes,
        now - ttlMs,
        names.printerChannel,
        this.#notice(job.id),
      ],
      STORE,
    );
    if (result.rows[0]?.kept) this.#listeners.notify({ type: 'job', job });
  }

  async update(job: PrinterJobRecord): Promise<void> {
    const { names } = this.#connection;
    const result = await this.#connection.query(
      `WITH kept AS (UPDATE ${names.printerJobs} SET record = $2 WHERE id = $1 RETURNING id)
       SELECT pg_notify($3, $4) FROM kept`,
      [job.id, JSON.stringify(job), names.printerChannel, this.#notice(job.id)],
      STORE,
    );
    if (result.rowCount) this.#listeners.notify({ type: 'job', job });
  }

  async list(limit: number): Promise<PrinterJobRecord[]> {
    const result = await this.#connection.query<{ record: string }>(
      `SELECT record FROM ${this.#connection.names.printerJobs} ORDER BY id DESC LIMIT $1`,
      [Math.max(0, Math.floor(limit))],
      STORE,
    );
    return result.rows.map((row) => parseJob(row.record)).filter((job): job is PrinterJobRecord => job !== undefined);
  }

  async get(id: string): Promise<PrinterJobRecord | undefined> {
    const result = await this.#connection.query<{ record: string }>(
      `SELECT record FROM ${this.#connection.names.printerJobs} WHERE id = $1`,
      [id],
      STORE,
    );
    return parseJob(result.rows[0]?.record);
  }

  async label(id: string, index: number, type: 'png' | 'pdf'): Promise<Uint8Array | undefined> {
    if (!Number.isInteger(index) || index < 0 || index > 2 ** 31 - 1) return undefined;
    const column = type === 'pdf' ? 'pdf' : 'png';
    const result = await this.#connection.query<{ image: Buffer | null }>(
      `SELECT ${column} AS image FROM ${this.#connection.names.printerLabels} WHERE job_id = $1 AND label = $2`,
      [id, index],
      STORE,
    );
    const image = result.rows[0]?.image;
    return image ? new Uint8Array(image) : undefined;
  }

  subscribe(listener: (event: PrinterFeedEvent) => void): () => void {
    const unsubscribe = this.#listeners.add(listener);
    this.whenSubscribed().catch(() => undefined);
    return unsubscribe;
  }

  /** Resolves once other replicas' events reach this feed's listeners (LISTEN has run). */
  whenSubscribed(): Promise<void> {
    this.#subscribed ??= this.#listen(0);
    return this.#subscribed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    clearTimeout(this.#retry);
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  /** A client of its own, kept out of the pool (it stays LISTENing); a lost one is replaced after a pause. */
  async #listen(attempt: number): Promise<void> {
    await this.#connection.connected;
    if (this.#closed) return;
    const { pool, names } = this.#connection;
    const options = (pool as unknown as { options: pg.ClientConfig }).options;
    const client = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    this.#listener = client;
    const again = (err: unknown): void => {
      if (this.#closed || this.#listener !== client) return;
      this.#listener = undefined;
      this.#log(`printer feed: ${this.#connection.description} events unavailable: ${(err as Error).message}`);
      client.end().catch(() => undefined);
      this.#retry = setTimeout(() => this.#listen(attempt + 1).catch(again), Math.min(50 * 2 ** attempt, 1000));
      this.#retry.unref();
    };
    client.on('error', again);
    client.on('end', () => again(new Error('connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== names.printerChannel || !message.payload) return;
      let notice: Notice;
      try {
        notice = JSON.parse(message.payload) as Notice;
      } catch {
        return;
      }
      if (notice.ns !== names.namespace || notice.from === this.#id) return;
      this.get(notice.id).then(
        (job) => {
          if (job) this.#listeners.notify({ type: 'job', job });
        },
        () => undefined, // the job is read again by the views when they connect
      );
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdentifier(names.printerChannel)}`);
    } catch (err) {
      again(err);
      throw err;
    }
    if (this.#closed) await client.end().catch(() => undefined);
  }
}
