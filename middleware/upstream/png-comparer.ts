// Scores our PNG against the legacy one (ink F1, see ink-f1.ts) in a worker thread, started on first use.
// The worker holds the process open only while a comparison is pending; close() stops it.

import { Worker } from 'node:worker_threads';

export interface CompareTask {
  id: number;
  reference: Uint8Array;
  rendered: Uint8Array;
}

export type CompareReply = { id: number; score: number } | { id: number; error: string };

export type ComparePngs = (reference: Uint8Array, rendered: Uint8Array) => Promise<number>;

const WORKER_URL = new URL('./compare-worker.js', import.meta.url);

interface Pending {
  resolve: (score: number) => void;
  reject: (err: Error) => void;
}

export interface PngComparer extends ComparePngs {
  /** Stops the worker (pending comparisons fail); the next comparison starts a new one. */
  close(): Promise<void>;
}

export function createPngComparer(): PngComparer {
  let worker: Worker | undefined;
  const pending = new Map<number, Pending>();
  let nextId = 0;

  const start = (): Worker => {
    const started = new Worker(WORKER_URL);
    started.unref();
    started.on('message', (reply: CompareReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) started.unref();
      if (!waiting) return;
      if ('score' in reply) waiting.resolve(reply.score);
      else waiting.reject(new Error(`PNG comparison failed: ${reply.error}`));
    });
    const failAll = (err: Error): void => {
      if (worker === started) worker = undefined;
      for (const waiting of pending.values()) waiting.reject(err);
      pending.clear();
    };
    started.on('error', failAll);
    started.on('exit', (code) => failAll(new Error(`PNG comparison worker exited with ${code}`)));
    return started;
  };

  const compare: ComparePngs = (reference, rendered) => {
    worker ??= start();
    const id = nextId++;
    const task: CompareTask = { id, reference, rendered };
    const running = worker;
    return new Promise<number>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      running.ref();
      running.postMessage(task);
    });
  };
  const close = async (): Promise<void> => {
    const running = worker;
    worker = undefined;
    if (running) await running.terminate();
  };
  return Object.assign(compare, { close });
}
