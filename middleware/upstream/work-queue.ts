// A bounded background queue: at most `concurrency` jobs run, at most `capacity` wait; more are refused.

export class BoundedWorkQueue {
  readonly #concurrency: number;
  readonly #capacity: number;
  readonly #waiting: Array<() => Promise<void>> = [];
  #running = 0;
  #idleWaiters: Array<() => void> = [];

  constructor(concurrency: number, capacity: number) {
    this.#concurrency = Math.max(1, Math.floor(concurrency));
    this.#capacity = Math.max(0, Math.floor(capacity));
  }

  /** Queues `job` (started on a later turn, never in the caller's); false when the queue is full. */
  submit(job: () => Promise<void>): boolean {
    if (this.#waiting.length >= this.#capacity) return false;
    this.#waiting.push(job);
    setImmediate(() => this.#pump());
    return true;
  }

  /** Jobs waiting or running. */
  get size(): number {
    return this.#waiting.length + this.#running;
  }

  /** Drops the jobs still waiting (running ones go on); returns how many were dropped. */
  clear(): number {
    const dropped = this.#waiting.splice(0).length;
    this.#settleIdle();
    return dropped;
  }

  /** Resolves once nothing waits or runs. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #pump(): void {
    while (this.#running < this.#concurrency && this.#waiting.length > 0) {
      const job = this.#waiting.shift()!;
      this.#running++;
      job()
        .catch(() => {}) // jobs report their own failures
        .finally(() => {
          this.#running--;
          this.#pump();
          this.#settleIdle();
        });
    }
  }

  #settleIdle(): void {
    if (this.size === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}
