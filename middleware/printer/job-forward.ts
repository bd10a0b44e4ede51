// Passing received jobs on: each job's bytes, unchanged, to a real printer (tcp://host:port), in the order they
// came, and each job's summary to a webhook (a JSON POST). A refused or failed attempt is retried with backoff; the
// outcome of every attempt is reported (the feed record shows it), so nothing is dropped without a word.

import net from 'node:net';

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  attempts?: number;
  /** Wait before the first retry, doubled for each next one (default 500 ms). */
  retryDelayMs?: number;
  /** One attempt's time budget (default 10 s). */
  timeoutMs?: number;
}

export type AttemptReport = { status: 'sent' | 'retrying' | 'failed'; attempts: number; error?: string };

/** `tcp://host:port` as host and port; anything else is an error naming the variable's shape. */
export function tcpTarget(url: string): { host: string; port: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`a printer address must be tcp://host:port, not ${url}`);
  }
  const port = Number(parsed.port || '9100');
  if (parsed.protocol !== 'tcp:' || parsed.hostname === '' || !(port > 0 && port < 65536))
    throw new Error(`a printer address must be tcp://host:port, not ${url}`);
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port };
}

/** Writes `bytes` on a new connection and waits for the printer to take them (the connection closes cleanly). */
function sendOnce(target: { host: string; port: number }, bytes: Uint8Array, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(target);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('error', reject);
    // A printer may answer (a ~HS inside the job): what it says is not ours to read.
    socket.on('data', () => undefined);
    socket.on('connect', () => socket.end(bytes));
    socket.on('close', (hadError) => {
      if (!hadError) resolve();
    });
  });
}

async function postOnce(url: string, body: string, timeoutMs: number): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}

/** Runs `attempt` until it succeeds or the attempts run out, reporting each outcome; waits go through `sleep`. */
async function withRetries(
  attempt: () => Promise<void>,
  options: RetryOptions,
  report: (r: AttemptReport) => void,
  sleep: (ms: number) => Promise<void>,
): Promise<void> {
  const attempts = Math.max(1, options.attempts ?? 5);
  const delay = options.retryDelayMs ?? 500;
  for (let n = 1; ; n++) {
    try {
      await attempt();
      report({ status: 'sent', attempts: n });
      return;
    } catch (e) {
      const error = (e as Error).message || String(e);
      if (n >= attempts) {
        report({ status: 'failed', attempts: n, error });
        return;
      }
      report({ status: 'retrying', attempts: n, error });
      try {
        await sleep(delay * 2 ** (n - 1));
      } catch (stopped) {
        report({ status: 'failed', attempts: n, error: `${error}; ${(stopped as Error).message}` });
        return;
      }
    }
  }
}

/** One queue for the real printer: jobs go out one at a time, in order, each retried before the next. */
export class JobForwarder {
  #tail: Promise<void> = Promise.resolve();
  /** Waits between retries, each with what stops it early. */
  readonly #timers = new Map<NodeJS.Timeout, (e: Error) => void>();
  #closed = false;

  constructor(
    readonly printer: { host: string; port: number } | undefined,
    readonly webhook: string | undefined,
    readonly options: RetryOptions = {},
  ) {}

  /** Queues a job's bytes for the printer and its summary for the webhook; `report` hears each attempt's outcome. */
  enqueue(
    bytes: Uint8Array,
    summary: unknown,
    report: (target: 'printer' | 'webhook', r: AttemptReport) => void,
  ): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const run = async (): Promise<void> => {
      if (this.printer) {
        const target = this.printer;
        await withRetries(
          () => sendOnce(target, bytes, timeoutMs),
          this.options,
          (r) => report('printer', r),
          this.#sleep,
        );
      }
      if (this.webhook) {
        const url = this.webhook;
        const body = JSON.stringify(summary);
        await withRetries(
          () => postOnce(url, body, timeoutMs),
          this.options,
          (r) => report('webhook', r),
          this.#sleep,
        );
      }
    };
    this.#tail = this.#tail.then(run, run);
    return this.#tail;
  }

  /** Resolves when every queued job has gone out or given up. */
  drained(): Promise<void> {
    return this.#tail;
  }

  /** Stops waiting between retries: what is still queued fails at its next wait. */
  close(): void {
    this.#closed = true;
    for (const [t, stop] of this.#timers) {
      clearTimeout(t);
      stop(new Error('printer port closed'));
    }
    this.#timers.clear();
  }

  #sleep = (ms: number): Promise<void> =>
    new Promise((resolve, reject) => {
      if (this.#closed) return reject(new Error('printer port closed'));
      const t = setTimeout(() => {
        this.#timers.delete(t);
        resolve();
      }, ms);
      this.#timers.set(t, reject);
    });
}
