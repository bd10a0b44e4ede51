// A face: one font at one size, as the layout and drawing code see it.

import type { GlyphMask } from '../text/glyph-mask.js';

export interface Face {
  /** Identifies font and size in glyph-cache keys. */
  readonly key: string;
  /** Cell height in dots: the line pitch of ^FB blocks. */
  readonly height: number;
  /** Top of the cell to the baseline, in dots. */
  readonly baseline: number;
  /** Whether glyph edges are anti-aliased (font 0 and TrueType) or crisp. */
  readonly antialias: boolean;
  /** Pen advance after `cp`, in dots (may be fractional). */
  advance(cp: number): number;
  /**
   * Coverage mask for orientation N relative to the pen point on the baseline; null for blank glyphs.
   * `shift` (a fraction of a dot, in quarters) moves the glyph right for sub-dot pen positions.
   */
  glyph(cp: number, shift?: number): GlyphMask | null;
  /** Whether the face draws at sub-dot pen positions (outline fonts with fractional advances). */
  readonly subpixel?: boolean;
  /** Line pitch inside a ^TB block when it differs from the cell height (font 0 spaces lines wider there). */
  readonly textBlockPitch?: number;
  /** Character substitution the font makes (font B has upper case only). */
  mapChar?(cp: number): number;
}

/** Bytes of glyph masks one thread keeps (each render worker has its own cache). */
export const GLYPH_CACHE_BYTES = 32 * 1024 * 1024;
/** Masks larger than this are drawn and dropped: a few huge glyphs would evict every normal one. */
export const MAX_CACHED_GLYPH_BYTES = 256 * 1024;
/** What an entry costs beyond its coverage bytes (key, record, typed-array header), roughly. */
const ENTRY_OVERHEAD_BYTES = 128;

/** A least-recently-used map from key to glyph mask, bounded by the masks' bytes. */
export class GlyphCache {
  readonly #entries = new Map<string, GlyphMask | null>();
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  #bytes = 0;

  constructor(maxBytes = GLYPH_CACHE_BYTES, maxEntryBytes = MAX_CACHED_GLYPH_BYTES) {
    this.#maxBytes = maxBytes;
    this.#maxEntryBytes = maxEntryBytes;
  }

  get bytes(): number { return this.#bytes; }
  get size(): number { return this.#entries.size; }

  get(key: string, make: () => GlyphMask | null): GlyphMask | null {
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      // Most recently used goes last: Map iteration order is insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const made = make();
    const cost = entryBytes(made);
    if (cost > this.#maxEntryBytes) return made;
    this.#entries.set(key, made);
    this.#bytes += cost;
    for (const [oldest, mask] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entryBytes(mask);
    }
    return made;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}

function entryBytes(mask: GlyphMask | null): number {
  return ENTRY_OVERHEAD_BYTES + (mask?.cov.byteLength ?? 0);
}

/** This thread's glyph masks. */
export const glyphCache = new GlyphCache();

/** Glyph masks memoised by face key, code point and orientation. */
export function cachedGlyph(key: string, make: () => GlyphMask | null): GlyphMask | null {
  return glyphCache.get(key, make);
}
