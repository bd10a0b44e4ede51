// One worker thread that runs tasks one at a time, off the event loop that serves requests, each within a time
// budget and the worker's memory limits. A task over its time stops the worker (the next task starts a new
// one); a worker over its memory dies and fails only the task it ran. Tasks beyond `maxWaiting` are refused.

import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';

export interface TaskWorkerOptions {
  /** Time one task may take, from when the worker takes it. */
  timeoutMs: number;
  /** Tasks that may wait while one runs; more fail at once with TaskRefusedError('busy'). */
  maxWaiting: number;
  resourceLimits?: ResourceLimits;
}

export type TaskFailure = 'busy' | 'timeout' | 'crashed' | 'failed' | 'closed';

export class TaskRefusedError extends Error {
  constructor(
    readonly reason: TaskFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TaskRefusedError';
  }
}

type Reply<Out> = { ok: true; value: Out } | { ok: false; error: string };

export interface TaskWorker<In, Out> {
  run(task: In): Promise<Out>;
  /** Stops the worker; waiting and running tasks fail with `closed`. */
  close(): Promise<void>;
}

interface Job<In, Out> {
  task: In;
  resolve: (value: Out) => void;
  reject: (err: Error) => void;
}

export function createTaskWorker<In, Out>(url: URL, options: TaskWorkerOptions): TaskWorker<In, Out> {
  let worker: Worker | undefined;
  let running: (Job<In, Out> & { timer: NodeJS.Timeout }) | undefined;
  const waiting: Job<In, Out>[] = [];

  const finish = (outcome: { value: Out } | { error: Error }): void => {
    const job = running;
    running = undefined;
    if (!job) return;
    clearTimeout(job.timer);
    if ('value' in outcome) job.resolve(outcome.value);
    else job.reject(outcome.error);
    next();
  };
  const stop = (): void => {
    const stopping = worker;
    worker = undefined;
    void stopping?.terminate();
  };
  const start = (): Worker => {
    const started = new Worker(url, options.resourceLimits ? { resourceLimits: options.resourceLimits } : {});
    started.on('message', (reply: Reply<Out>) => {
      finish(reply.ok ? { value: reply.value } : { error: new TaskRefusedError('failed', reply.error) });
    });
    const lost = (why: string): void => {
      if (worker !== started) return;
      worker = undefined;
      finish({ error: new TaskRefusedError('crashed', why) });
    };
    started.on('error', (err) => lost(`worker failed: ${err.message}`));
    started.on('exit', (code) => lost(`worker exited with ${code}`));
    return started;
  };
  const next = (): void => {
    if (running) return;
    const job = waiting.shift();
    if (!job) {
      worker?.unref(); // an idle worker does not hold the process open
      return;
    }
    worker ??= start();
    worker.ref();
    const timer = setTimeout(() => {
      stop();
      finish({ error: new TaskRefusedError('timeout', `took longer than ${options.timeoutMs} ms`) });
    }, options.timeoutMs);
    running = { ...job, timer };
    worker.postMessage(job.task);
  };

  return {
    run: (task) =>
      new Promise<Out>((resolve, reject) => {
        if (running && waiting.length >= options.maxWaiting) {
          reject(new TaskRefusedError('busy', 'too many tasks waiting'));
          return;
        }
        waiting.push({ task, resolve, reject });
        next();
      }),
    close: async () => {
      const closed = new TaskRefusedError('closed', 'worker closed');
      for (const job of waiting.splice(0)) job.reject(closed);
      const stopping = worker;
      worker = undefined;
      if (running) finish({ error: closed });
      await stopping?.terminate();
    },
  };
}

/** Worker side: answers each task the parent posts with `handle`'s value or its error message. */
export function serveTasks<In, Out>(handle: (task: In) => Out | Promise<Out>): void {
  parentPort!.on('message', async (task: In) => {
    let reply: Reply<Out>;
    try {
      reply = { ok: true, value: await handle(task) };
    } catch (err) {
      reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    parentPort!.postMessage(reply);
  });
}
