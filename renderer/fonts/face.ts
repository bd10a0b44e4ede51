// A face: one font at one size, as the layout and drawing code see it.

import type { Contour, PathData } from '../layout/display-list.js';
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
   * Outline for orientation N in dots relative to the pen point on the baseline (y down); null for blank glyphs.
   * `shift` (a fraction of a dot, in quarters) moves the glyph right for sub-dot pen positions: the outline at
   * shift s is the one at shift 0 moved s dots right (the vector PDF draws the shift-0 shape, moved).
   */
  outline(cp: number, shift?: number): Contour[] | null;
  /** The unshifted outline with its Bézier segments kept (vector output); null for blank glyphs. */
  curves(cp: number): PathData[] | null;
  /** Whether the face draws at sub-dot pen positions (outline fonts with fractional advances). */
  readonly subpixel?: boolean;
  /** Line pitch inside a ^TB block when it differs from the cell height (font 0 spaces lines wider there). */
  readonly textBlockPitch?: number;
  /** Character substitution the font makes (font B has upper case only). */
  mapChar?(cp: number): number;
}

const cache = new Map<string, PlacedOutline | null>();
const MAX_CACHED = 20000;

/** Placed glyph outlines memoised by face key, code point and shift. */
export function cachedOutline(key: string, make: () => PlacedOutline | null): PlacedOutline | null {
  let m = cache.get(key);
  if (m === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    m = make();
    cache.set(key, m);
  }
  return m;
}
