// A face: one font at one size, as the layout and drawing code see it.

import { BoundedCache } from '../bounded-cache.js';
import type { PlacedOutline } from './place.js';

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
   * Outline for orientation N in dots relative to the pen point on the baseline (y down): its polygons, the same
   * contours with their Bézier segments kept (vector output) and the polygons' extent; null for blank glyphs.
   */
  outline(cp: number): PlacedOutline | null;
  /** Line pitch inside a ^TB block when it differs from the cell height (font 0 spaces lines wider there). */
  readonly textBlockPitch?: number;
  /** Character substitution the font makes (font B has upper case only). */
  mapChar?(cp: number): number;
}

/** Bytes of placed outlines one thread keeps (each render worker has its own cache): the 26 carrier labels at 8 dpmm
 * alone keep 17 MB (outlines with their curves), and a cache smaller than its working set misses on every glyph. */
export const OUTLINE_CACHE_BYTES = 32 * 1024 * 1024;
/** Outlines larger than this are placed and dropped: a few huge glyphs would evict every normal one. */
export const MAX_CACHED_OUTLINE_BYTES = 256 * 1024;

/** Bytes of a placed outline: its coordinates as doubles. */
function outlineBytes(o: PlacedOutline): number {
  let n = 0;
  for (const c of o.polygons) n += c.length;
  for (const c of o.curves) n += c.length;
  return n * 8;
}

/** This thread's placed outlines, dropped by second chance (close to least recently used) past OUTLINE_CACHE_BYTES. */
export const outlineCache = new BoundedCache<PlacedOutline>(
  OUTLINE_CACHE_BYTES,
  MAX_CACHED_OUTLINE_BYTES,
  outlineBytes,
);

/**
 * Placed glyph outlines memoised by face key and code point; `place` makes a missing one (one function per
 * face, not a closure per lookup: faces look glyphs up hundreds of times a label).
 */
export function cachedOutline(
  face: string,
  cp: number,
  place: (cp: number) => PlacedOutline | null,
): PlacedOutline | null {
  const kept = outlineCache.find(face, cp);
  return kept !== undefined ? kept : outlineCache.keep(face, cp, place(cp));
}
