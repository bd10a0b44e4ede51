// What the printer port keeps of the jobs it received: each job's summary and each printed label's PNG and PDF,
// newest first, capped in count and bytes, for a time. In memory on one process (memory/printer-feed.ts), or in
// the shared backend, seen by every replica (redis/printer-feed.ts, postgres/printer-feed.ts).

/** One label a job printed, as drawn at the printer's density and size. */
export interface PrintedLabel {
  /** Zero-based position of the label in its job (copies from ^PQ count as labels). */
  index: number;
  png: Uint8Array;
  /** Absent when the job was kept over the byte cap without its images, or PDF was not drawn. */
  pdf?: Uint8Array;
}

/** A job as the port received it: what software sent between two `^XZ` (or a connection's end). */
export interface PrinterJobRecord {
  /** Unique, sortable by time: the feed lists newest first by it. */
  id: string;
  /** ISO time the job ended. */
  time: string;
  /** The sending client's address (`ip` or `ip:port`). */
  client: string;
  /** Bytes the job carried, downloads included. */
  bytes: number;
  /** Labels printed (copies counted). */
  labels: number;
  /** The linter's warnings for the job, as the HTTP API's X-Warnings says them; no label data. */
  warnings: string[];
  /** How the forward to a real printer went, when PRINTER_FORWARD is set. */
  forward?: { status: 'sent' | 'retrying' | 'failed'; attempts: number; error?: string };
}

export interface PrinterFeedLimits {
  /** Jobs kept; the oldest go with the next add. */
  maxJobs: number;
  /** Bytes of label images kept over all jobs; the oldest jobs' images go first. */
  maxBytes: number;
  /** How long a job is kept, in ms; older ones go with the next add. */
  ttlMs: number;
}

/** A change in the feed, for the live view (server-sent events): a job added or its forward status changed. */
export type PrinterFeedEvent = { type: 'job'; job: PrinterJobRecord };

export interface PrinterFeed {
  /** Keeps a job and its labels; the feed drops what the limits say. */
  add(job: PrinterJobRecord, labels: readonly PrintedLabel[]): Promise<void>;
  /** Replaces a kept job's summary (its forward status); a job already dropped stays dropped. */
  update(job: PrinterJobRecord): Promise<void>;
  /** Newest first, at most `limit`. */
  list(limit: number): Promise<PrinterJobRecord[]>;
  get(id: string): Promise<PrinterJobRecord | undefined>;
  /** One label's image of a kept job, or undefined when the job, label or image is not kept. */
  label(id: string, index: number, type: 'png' | 'pdf'): Promise<Uint8Array | undefined>;
  /** Calls `listener` for every event on this feed, from any replica sharing the backend; returns the unsubscribe. */
  subscribe(listener: (event: PrinterFeedEvent) => void): () => void;
  /**
   * Resolves once other replicas' events reach this feed's subscribers (Redis: the channel subscribed; PostgreSQL:
   * LISTEN done). Absent where there are no other replicas (memory).
   */
  whenSubscribed?(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PRINTER_FEED_LIMITS: PrinterFeedLimits = {
  maxJobs: 200,
  maxBytes: 64 * 1024 * 1024,
  ttlMs: 24 * 60 * 60 * 1000,
};

/** Bytes a job's images take against `maxBytes`. */
export function printedLabelBytes(labels: readonly PrintedLabel[]): number {
  let bytes = 0;
  for (const label of labels) bytes += label.png.byteLength + (label.pdf?.byteLength ?? 0);
  return bytes;
}

/** A feed's listeners in this process: each subscription its own entry (one listener may subscribe twice). */
export class PrinterFeedListeners {
  readonly #listeners = new Set<(event: PrinterFeedEvent) => void>();

  /** Adds `listener`; returns its unsubscribe. */
  add(listener: (event: PrinterFeedEvent) => void): () => void {
    const own = (event: PrinterFeedEvent) => listener(event);
    this.#listeners.add(own);
    return () => {
      this.#listeners.delete(own);
    };
  }

  /** Calls every listener; one that throws does not keep the others or the writer from going on. */
  notify(event: PrinterFeedEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own (a closed stream); the job is kept all the same
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
