// Knowing that a key store lost its data: seeding writes a marker next to the keys. Redis restarted without
// persistence (or flushed) comes back empty, marker included; every key would then be "unknown" (401) and
// every used-up daily allowance granted again. Once a store has been seeded, a missing marker makes the
// store not ready (503) until it is seeded again, and listeners are told so they can re-seed.

/**
 * What the marker needs of its store: a named cell to read and write, and word of every (re)connection. A
 * RedisConnection is one; the PostgreSQL stores offer the same over their markers table.
 */
export interface MarkerConnection {
  onReady(listener: () => void): void;
  client: { get(name: string): Promise<unknown>; set(name: string, value: string): Promise<unknown> };
}

export interface SeedMarker {
  /** True while the store must not answer: the seeding it expects is missing, or a (re)connection is being checked. */
  blocking(): boolean;
  /** After a key miss: is the seeding still there? (Checked at most once per interval.) */
  confirm(): Promise<boolean>;
  /** Writes the marker: the store is seeded. */
  mark(): Promise<void>;
  /** `listener` runs whenever the marker is found missing while a seeding is expected. */
  onMissing(listener: () => void): void;
  /** Resolves once the check of the first connection is over (the store answers, or says it lost its data); never rejects. */
  checked?(): Promise<void>;
}

const CONFIRM_INTERVAL_MS = 1000;

export interface StoreSeedMarkerOptions {
  /** Expect a seeding from the start (the store is not ready until one is seen or made); default: only after one. */
  requireSeed?: boolean;
  log?: (message: string) => void;
}

/** The marker as a named cell (a Redis key, a PostgreSQL row), checked on every (re)connection and, at most once a
 * second, after a key miss. */
export class StoreSeedMarker implements SeedMarker {
  readonly #connection: MarkerConnection;
  readonly #key: string;
  readonly #log: (message: string) => void;
  readonly #listeners: Array<() => void> = [];
  #expected: boolean;
  #present = false;
  #checking = false;
  #confirmedAt = -Infinity;
  #inFlight: Promise<boolean> | undefined;
  /** Bumped by mark(): a check that started before a mark must not undo it. */
  #generation = 0;
  readonly #firstCheck: Promise<void>;

  constructor(connection: MarkerConnection, key: string, options: StoreSeedMarkerOptions = {}) {
    this.#connection = connection;
    this.#key = key;
    this.#expected = options.requireSeed ?? false;
    this.#log = options.log ?? (() => {});
    let firstChecked!: () => void;
    this.#firstCheck = new Promise((resolve) => {
      firstChecked = resolve;
    });
    connection.onReady(() => {
      this.#checking = true;
      this.#check()
        .catch(() => {}) // the connection reports its own failures
        .finally(() => {
          this.#checking = false;
          firstChecked();
        });
    });
  }

  checked(): Promise<void> {
    return this.#firstCheck;
  }

  blocking(): boolean {
    return this.#checking || (this.#expected && !this.#present);
  }

  async confirm(): Promise<boolean> {
    if (!this.#expected) return true;
    if (Date.now() - this.#confirmedAt < CONFIRM_INTERVAL_MS) return this.#present;
    this.#confirmedAt = Date.now();
    return this.#check();
  }

  async mark(): Promise<void> {
    this.#generation++;
    await this.#connection.client.set(this.#key, new Date().toISOString());
    this.#expected = true;
    this.#present = true;
  }

  onMissing(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Reads the marker; true when the seeding is there or none is expected. */
  #check(): Promise<boolean> {
    this.#inFlight ??= (async () => {
      const generation = this.#generation;
      try {
        const present = (await this.#connection.client.get(this.#key)) !== null;
        if (generation !== this.#generation) return true;
        if (present) this.#expected = true;
        const lost = this.#present && !present;
        this.#present = present;
        if (present || !this.#expected) return true;
        if (lost)
          this.#log(
            `key store lost its data (seed marker ${this.#key} is gone): answering 503 until it is seeded again`,
          );
        for (const listener of this.#listeners) {
          try {
            listener();
          } catch (err) {
            this.#log(`seed listener failed: ${(err as Error).message}`);
          }
        }
        return false;
      } finally {
        this.#inFlight = undefined;
      }
    })();
    return this.#inFlight;
  }
}
