// The standalone server's log lines, written without ever blocking the event loop. Synchronous writes to a standard
// output nobody read froze the whole server once the pipe held 64 KiB (about 200 access lines): requests, /healthz
// and SIGTERM alike. Here lines queue while one write is out, the next write takes all that queued, and past a bound
// new lines are dropped and counted, then reported in one line once the reader takes lines again.

import { write } from 'node:fs';

/** Writes `chunk` somewhere and calls `done` once it is out (or failed); how many bytes went, if fewer. */
export type WriteChunk = (chunk: Buffer, done: (err: Error | null, written?: number) => void) => void;

export interface LineWriter {
  /** pino's destination contract: one line (or several) to write. */
  write(line: string): void;
  /** Lines dropped so far because `maxQueuedChars` were already waiting, or the reader was gone. */
  readonly dropped: number;
  /** True once every queued line is out; false when `timeoutMs` passed first (the reader is slow or gone). */
  flush(timeoutMs: number): Promise<boolean>;
}

/** Characters queued past which new lines are dropped: about 10,000 access lines, far more than a healthy reader lags. */
export const DEFAULT_MAX_QUEUED_CHARS = 4 * 1024 * 1024;

/** Wait before writing again to a descriptor that answered EAGAIN. */
const RETRY_MS = 20;

/** Standard output, asynchronously (libuv's thread pool waits on a full pipe, not the event loop). */
export const writeStdout: WriteChunk = (chunk, done) =>
  write(1, chunk, 0, chunk.length, null, (err, written) => done(err, written));

/** The line reporting `count` dropped lines, in the shape of the service's other JSON lines. */
function droppedLine(count: number): string {
  return `${JSON.stringify({
    level: 'warn',
    time: new Date().toISOString(),
    event: 'log_lines_dropped',
    dropped: count,
    msg: `${count} log line${count === 1 ? '' : 's'} dropped: standard output was not read`,
  })}\n`;
}

export function createLineWriter(
  writeChunk: WriteChunk = writeStdout,
  maxQueuedChars = DEFAULT_MAX_QUEUED_CHARS,
): LineWriter {
  let queue: string[] = [];
  let queuedChars = 0;
  let writing = false;
  let dropped = 0;
  let unreported = 0;
  /** A write failed for good (EPIPE: the reader is gone): lines are counted as dropped from then on. */
  let broken = false;
  let idle: (() => void)[] = [];

  const settle = (): void => {
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  const send = (chunk: Buffer): void => {
    writing = true;
    writeChunk(chunk, (err, written = chunk.length) => {
      if (err) {
        broken = (err as NodeJS.ErrnoException).code !== 'EAGAIN';
        // A non-blocking descriptor with a full pipe: try again shortly, not in a hot loop.
        if (!broken) {
          setTimeout(() => send(chunk), RETRY_MS).unref();
          return;
        }
      } else if (written < chunk.length) {
        send(chunk.subarray(written));
        return;
      }
      writing = false;
      if (broken) {
        dropped += queue.length;
        queue = [];
        queuedChars = 0;
      }
      pump();
    });
  };

  const pump = (): void => {
    if (writing) return;
    if (!queue.length && !unreported) {
      settle();
      return;
    }
    // The drop is reported once lines move again, ahead of the ones that queued meanwhile.
    const lines = unreported ? [droppedLine(unreported), ...queue] : queue;
    unreported = 0;
    queue = [];
    queuedChars = 0;
    send(Buffer.from(lines.join('')));
  };

  return {
    write(line) {
      if (broken || queuedChars + line.length > maxQueuedChars) {
        dropped++;
        if (!broken) unreported++;
        return;
      }
      queue.push(line);
      queuedChars += line.length;
      pump();
    },
    get dropped() {
      return dropped;
    },
    flush(timeoutMs) {
      if (!writing && !queue.length) return Promise.resolve(true);
      return new Promise((resolve) => {
        // Not unref'd: while a retry after EAGAIN waits on its (unref'd) timer, this one keeps the process alive, or
        // it would exit at shutdown with its last lines unwritten.
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}
