// A cache bounded by the bytes of what it holds: per-thread glyph caches stay within a known size however many
// fonts and sizes documents ask for. Glyph lookups are the hot path of text layout and painting, so a hit
// is cheap: the key comes in two parts, a group (a font at a size, reused for a whole run) and a number in it (a
// glyph), so no key string is built per glyph; a hit finds a slot number and marks it used in a byte array, with no
// record to reach and nothing reordered. Room is made by second chance (CLOCK), close to least recently used: a
// hand goes round the slots, clearing the mark of a used one and dropping the first unmarked one.

/** What an entry costs beyond its own bytes (key, slot, map slots, typed-array header), roughly. */
const ENTRY_OVERHEAD_BYTES = 128;
const FIRST_SLOTS = 64;

export class BoundedCache<V> {
  /** Slot of each kept value, by group and key. */
  readonly #groups = new Map<string, Map<number, number>>();
  // Slot i: its value, group, key, cost, and whether it was hit since the hand last passed (0/1).
  #values: (V | null)[] = [];
  #slotGroups: string[] = [];
  #slotKeys: number[] = [];
  #costs: number[] = [];
  #used = new Uint8Array(FIRST_SLOTS);
  /** Free slots; a slot in use has a cost above 0. */
  readonly #free: number[] = [];
  #hand = 0;
  #size = 0;
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

  get bytes(): number {
    return this.#bytes;
  }
  get size(): number {
    return this.#size;
  }

  /** The value kept for `key` in `group`, else `make()`'s, kept while the bound allows. */
  get(group: string, key: number, make: () => V | null): V | null {
    const hit = this.find(group, key);
    return hit !== undefined ? hit : this.keep(group, key, make());
  }

  /** The value kept for `key` in `group` (null is a kept value), or undefined. */
  find(group: string, key: number): V | null | undefined {
    const slot = this.#groups.get(group)?.get(key);
    if (slot === undefined) return undefined;
    this.#used[slot] = 1;
    return this.#values[slot];
  }

  /** Keeps `value` for `key` in `group` (not yet kept) while the bound allows; returns it. */
  keep(group: string, key: number, value: V | null): V | null {
    const cost = ENTRY_OVERHEAD_BYTES + (value === null ? 0 : this.#sizeOf(value));
    if (cost > this.#maxEntryBytes || cost > this.#maxBytes) return value;
    this.#makeRoom(cost);
    let entries = this.#groups.get(group); // after making room: it may have dropped the group
    if (!entries) this.#groups.set(group, (entries = new Map()));
    const slot = this.#free.pop() ?? this.#newSlot();
    this.#values[slot] = value;
    this.#slotGroups[slot] = group;
    this.#slotKeys[slot] = key;
    this.#costs[slot] = cost;
    this.#used[slot] = 0;
    entries.set(key, slot);
    this.#bytes += cost;
    this.#size++;
    return value;
  }

  clear(): void {
    this.#groups.clear();
    this.#values = [];
    this.#slotGroups = [];
    this.#slotKeys = [];
    this.#costs = [];
    this.#used = new Uint8Array(FIRST_SLOTS);
    this.#free.length = 0;
    this.#hand = 0;
    this.#size = 0;
    this.#bytes = 0;
  }

  /** A slot past the last one, the used marks grown to hold it. */
  #newSlot(): number {
    const slot = this.#costs.length;
    this.#costs.push(0);
    if (slot >= this.#used.length) {
      const grown = new Uint8Array(this.#used.length * 2);
      grown.set(this.#used);
      this.#used = grown;
    }
    return slot;
  }

  /** Drops entries until `cost` more bytes fit: the hand passes each used slot once, clearing its mark. */
  #makeRoom(cost: number): void {
    const slots = this.#costs.length;
    while (this.#bytes + cost > this.#maxBytes && this.#size > 0) {
      const slot = this.#hand;
      this.#hand = (slot + 1) % slots;
      if (this.#costs[slot] === 0) continue; // free
      if (this.#used[slot]) {
        this.#used[slot] = 0;
        continue;
      }
      const group = this.#slotGroups[slot];
      const entries = this.#groups.get(group)!;
      entries.delete(this.#slotKeys[slot]);
      if (!entries.size) this.#groups.delete(group);
      this.#bytes -= this.#costs[slot];
      this.#values[slot] = null; // let the value go
      this.#costs[slot] = 0;
      this.#free.push(slot);
      this.#size--;
    }
  }
}
