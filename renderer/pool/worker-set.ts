// The render pool's threads: a fixed number of workers, each running one task at a time (render-worker.ts;
// the messages are in wire.ts). A worker that exits (retired for memory, crashed, out of memory) or is
// terminated (past its time budget) is replaced at once; one that failed to load, when the next task comes.
// A task goes to a worker that has loaded; while none has (at start, or while a replacement loads) it waits
// here, and stopping it then terminates nothing.

import { Worker } from 'node:worker_threads';
import type { RenderPlan } from '../api.js';
import {
  CONTROL_STOP,
  STOP,
  type FieldBoxesReply,
  type FromWorker,
  type PoolTask,
  type RenderReply,
  type ToWorker,
  type WorkerData,
} from './wire.js';

const WORKER_URL = new URL('./render-worker.js', import.meta.url);

export interface WorkerSetOptions {
  threads: number;
  /** V8 heap limits of each worker. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
  /** A worker was replaced (not counting those stopped by close()). */
  onReplaced: () => void;
}

/** How a task ended without a reply: its worker exited (exit code and error), or it was stopped. */
export class WorkerGone extends Error {
  constructor(
    readonly exitCode: number | undefined,
    readonly error: unknown,
    readonly started: boolean,
    readonly stopped: boolean,
  ) {
    super(exitCode === undefined ? 'task stopped before a worker took it' : `worker exited with code ${exitCode}`);
    this.name = 'WorkerGone';
  }

  /** The worker retired between tasks before taking this one: it can be sent to another worker as it is. */
  get unstarted(): boolean {
    return this.exitCode === 0 && !this.started && !this.stopped;
  }
}

type Outcome = { reply: RenderReply | FieldBoxesReply } | { gone: WorkerGone };

/** One task: what to post, how to settle it, how to answer its admission question. */
interface Task {
  task: PoolTask;
  settle: (outcome: Outcome) => void;
  admit?: (plan: RenderPlan) => Promise<void> | void;
  /** The worker asked admission: it had taken the task. */
  asked: boolean;
  /** Hands the task to a loaded worker. */
  dispatch: (to: PoolWorker) => void;
}

class PoolWorker {
  readonly thread: Worker;
  readonly control = new Int32Array(new SharedArrayBuffer(4));
  running: Task | undefined;
  /** It has loaded the renderer and taken tasks. */
  ready = false;
  /** Terminated by the pool (hard stop or close): its exit is no crash. */
  stopped = false;
  error: unknown;

  constructor(
    options: WorkerSetOptions,
    events: { ready: (worker: PoolWorker) => void; exit: (worker: PoolWorker, code: number) => void },
  ) {
    this.thread = new Worker(WORKER_URL, {
      // Not the parent's flags: some are refused in a worker (--input-type, --title...) and it would not start.
      execArgv: [],
      workerData: { control: this.control.buffer as SharedArrayBuffer } satisfies WorkerData,
      ...(options.resourceLimits && { resourceLimits: options.resourceLimits }),
    });
    this.thread.on('message', (message: FromWorker) => {
      if (message.type !== 'ready') this.#onMessage(message);
      else {
        this.ready = true;
        events.ready(this);
      }
    });
    this.thread.on('error', (err) => {
      this.error = err;
    });
    this.thread.on('exit', (code) => {
      const running = this.running;
      this.running = undefined;
      events.exit(this, code);
      running?.settle({ gone: new WorkerGone(code, this.error, running.asked, this.stopped) });
    });
    // An idle pool does not keep the process alive; a task refs its worker while it runs. After the listeners:
    // adding a 'message' listener refs the worker's port again.
    this.thread.unref();
  }

  post(task: Task): void {
    this.running = task;
    Atomics.store(this.control, CONTROL_STOP, STOP.none);
    this.thread.ref();
    this.thread.postMessage({ type: 'task', task: task.task } satisfies ToWorker);
  }

  #onMessage(message: Exclude<FromWorker, { type: 'ready' }>): void {
    const running = this.running;
    if (!running) return;
    if (message.type === 'reply') {
      this.running = undefined;
      this.thread.unref();
      running.settle({ reply: message.reply });
      return;
    }
    running.asked = true;
    Promise.resolve()
      .then(() => running.admit?.(message.plan))
      .then(
        () => this.#answer(running, true),
        () => this.#answer(running, false),
      );
  }

  /** The admission answer, unless the task has gone meanwhile. */
  #answer(running: Task, admitted: boolean): void {
    if (this.running === running) this.thread.postMessage({ type: 'admitted', admitted } satisfies ToWorker);
  }
}

/** A task handed to the set: its reply (or WorkerGone), and the caller's two ways of ending it early. */
export interface TaskCall {
  reply: Promise<RenderReply | FieldBoxesReply>;
  /** The task stops at its next checkpoint (and is dropped at once if no worker has taken it). */
  cancel(): void;
  /** Terminates the task's worker (stuck past its budget); the reply fails with WorkerGone (stopped). */
  stop(): void;
}

export class WorkerSet {
  readonly #options: WorkerSetOptions;
  /** Loaded workers without a task; the last freed is taken first, so at low load one warm worker serves. */
  readonly #idle: PoolWorker[] = [];
  readonly #all = new Set<PoolWorker>();
  /** Tasks waiting for a loaded worker. */
  readonly #waiting: Task[] = [];
  #closing = false;
  /** Called when the last running task settles while closing. */
  #drained: (() => void) | undefined;

  constructor(options: WorkerSetOptions) {
    this.#options = options;
    for (let i = 0; i < options.threads; i++) this.#start();
  }

  /** Runs `task` on a loaded worker; the caller (the fair queue's slots) runs no more tasks at once than there are workers. */
  post(task: PoolTask, admit?: (plan: RenderPlan) => Promise<void> | void): TaskCall {
    while (this.#all.size < this.#options.threads) this.#start(); // workers that failed to load, started again on demand
    let entry!: Task;
    let worker: PoolWorker | undefined;
    const reply = new Promise<RenderReply | FieldBoxesReply>((resolve, reject) => {
      entry = {
        task,
        asked: false,
        ...(admit && { admit }),
        dispatch: (to) => {
          worker = to;
          to.post(entry);
        },
        settle: (outcome) => {
          if ('reply' in outcome) this.#free(worker!);
          if (this.#closing) this.#checkDrained();
          if ('reply' in outcome) resolve(outcome.reply);
          else reject(outcome.gone);
        },
      };
    });
    const idle = this.#idle.pop();
    if (idle) entry.dispatch(idle);
    else this.#waiting.push(entry);
    // Both act on this task only: once it has settled, its worker may be running another.
    const dropIfWaiting = (): boolean => {
      const i = this.#waiting.indexOf(entry);
      if (i < 0) return false;
      this.#waiting.splice(i, 1);
      entry.settle({ gone: new WorkerGone(undefined, undefined, false, true) });
      return true;
    };
    return {
      reply,
      cancel: () => {
        if (!dropIfWaiting() && worker?.running === entry) Atomics.store(worker.control, CONTROL_STOP, STOP.cancelled);
      },
      stop: () => {
        if (dropIfWaiting() || worker?.running !== entry) return;
        worker.stopped = true;
        void worker.thread.terminate();
      },
    };
  }

  /** Lets running tasks finish (the caller's backstops bound them), then stops every worker. */
  async close(): Promise<void> {
    this.#closing = true;
    if (this.#busy())
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
    await Promise.all(
      [...this.#all].map((worker) => {
        worker.stopped = true;
        return worker.thread.terminate();
      }),
    );
  }

  #start(): void {
    const worker = new PoolWorker(this.#options, {
      ready: (loaded) => this.#free(loaded),
      exit: (gone, code) => {
        this.#all.delete(gone);
        const i = this.#idle.indexOf(gone);
        if (i >= 0) this.#idle.splice(i, 1);
        if (this.#closing) return;
        this.#options.onReplaced();
        // One that never loaded is started again by the next task, not at once: a broken install would loop.
        if (gone.ready) this.#start();
        else if (this.#all.size === 0) this.#failWaiting(new WorkerGone(code, gone.error, false, false));
      },
    });
    this.#all.add(worker);
  }

  /** A loaded worker without a task takes the longest-waiting one, or waits for the next. */
  #free(worker: PoolWorker): void {
    if (!this.#all.has(worker)) return;
    const next = this.#waiting.shift();
    if (next) next.dispatch(worker);
    else this.#idle.push(worker);
  }

  /** No worker is left to take the waiting tasks: they fail with the last one's exit. */
  #failWaiting(gone: WorkerGone): void {
    for (const task of this.#waiting.splice(0)) task.settle({ gone });
  }

  #busy(): boolean {
    if (this.#waiting.length > 0) return true;
    for (const worker of this.#all) if (worker.running) return true;
    return false;
  }

  #checkDrained(): void {
    if (this.#drained && !this.#busy()) this.#drained();
  }
}
