// A cache bounded by the bytes of what it holds: per-thread glyph caches stay within a known size however many
// fonts, sizes and shifts documents ask for. Glyph lookups are the hot path of text layout and painting, so a hit
// is cheap: the key comes in two parts, a group (a font at a size, reused for a whole run) and a number in it (a
// glyph), so no key string is built per glyph; and a hit only marks its entry as used, without reordering.
// Room is made by second chance (CLOCK), close to least recently used: the sweep from the oldest entry passes over
// a marked entry once, clearing its mark and moving it to the back, and drops the first unmarked one.

/** What an entry costs beyond its own bytes (key, record, map slots, typed-array header), roughly. */
const ENTRY_OVERHEAD_BYTES = 128;

interface Entry<V> {
  readonly group: string;
  readonly key: number;
  readonly value: V | null;
  readonly cost: number;
  /** Hit since the sweep last passed it. */
  used: boolean;
}

export class BoundedCache<V> {
  readonly #groups = new Map<string, Map<number, Entry<V>>>();
  /** Every entry in sweep order: oldest, or longest since its second chance, first. */
  readonly #order = new Set<Entry<V>>();
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
  get size(): number { return this.#order.size; }

  /** The value kept for `key` in `group`, else `make()`'s, kept while the bound allows. */
  get(group: string, key: number, make: () => V | null): V | null {
    const hit = this.find(group, key);
    return hit !== undefined ? hit : this.keep(group, key, make());
  }

  /** The value kept for `key` in `group` (null is a kept value), or undefined. */
  find(group: string, key: number): V | null | undefined {
    const hit = this.#groups.get(group)?.get(key);
    if (!hit) return undefined;
    hit.used = true;
    return hit.value;
  }

  /** Keeps `value` for `key` in `group` (not yet kept) while the bound allows; returns it. */
  keep(group: string, key: number, value: V | null): V | null {
    const cost = ENTRY_OVERHEAD_BYTES + (value === null ? 0 : this.#sizeOf(value));
    if (cost > this.#maxEntryBytes || cost > this.#maxBytes) return value;
    this.#makeRoom(cost);
    let entries = this.#groups.get(group); // after making room: it may have dropped the group
    if (!entries) this.#groups.set(group, entries = new Map());
    const entry: Entry<V> = { group, key, value, cost, used: false };
    entries.set(key, entry);
    this.#order.add(entry);
    this.#bytes += cost;
    return value;
  }

  clear(): void {
    this.#groups.clear();
    this.#order.clear();
    this.#bytes = 0;
  }

  /** Drops entries until `cost` more bytes fit. */
  #makeRoom(cost: number): void {
    // A Set visits entries added while it is iterated: a marked entry moved to the back comes round again.
    for (const e of this.#order) {
      if (this.#bytes + cost <= this.#maxBytes) return;
      this.#order.delete(e);
      if (e.used) {
        e.used = false;
        this.#order.add(e);
        continue;
      }
      const entries = this.#groups.get(e.group)!;
      entries.delete(e.key);
      if (!entries.size) this.#groups.delete(e.group);
      this.#bytes -= e.cost;
    }
  }
}
