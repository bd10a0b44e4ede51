// A least-recently-used map bounded by the bytes of what it holds: per-thread glyph caches stay within a known
// size however many fonts, sizes and shifts documents ask for.

/** What an entry costs beyond its own bytes (key, record, typed-array header), roughly. */
const ENTRY_OVERHEAD_BYTES = 128;

export class BoundedCache<V> {
  readonly #entries = new Map<string, V | null>();
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  readonly #sizeOf: (value: V) => number;
  #bytes = 0;

  /** Values costing over `maxEntryBytes` are made and returned but never kept (a few huge ones would evict the rest). */
  constructor(maxBytes: number, maxEntryBytes: number, sizeOf: (value: V) => number) {
    this.#maxBytes = maxBytes;
    this.#maxEntryBytes = maxEntryBytes;
    this.#sizeOf = sizeOf;
  }

  get bytes(): number { return this.#bytes; }
  get size(): number { return this.#entries.size; }

  get(key: string, make: () => V | null): V | null {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      // Most recently used goes last: Map iteration order is insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const made = make();
    const cost = this.#cost(made);
    if (cost > this.#maxEntryBytes) return made;
    this.#entries.set(key, made);
    this.#bytes += cost;
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= this.#cost(value);
    }
    return made;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #cost(value: V | null): number {
    return ENTRY_OVERHEAD_BYTES + (value === null ? 0 : this.#sizeOf(value));
  }
}
