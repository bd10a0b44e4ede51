// Glyph coverage masks relative to the pen (a point on the baseline), and their quarter-turn rotations.

import { UNMETERED, type DecodeMeter } from '../decode/meter.js';
import type { Orientation } from '../model.js';
import type { GlyphRunElement, PlacedGlyph } from '../display/display-list.js';
import { BoundedCache } from '../bounded-cache.js';
import { coverageMask } from './fill-path.js';

/** Coverage mask whose top-left pixel sits at (x, y) relative to the pen point. */
export interface GlyphMask {
  x: number;
  y: number;
  w: number;
  h: number;
  cov: Uint8Array;
  /** `cov` as a DataView, made once for a kept mask (Raster.blitCoverage copies through it). */
  view?: DataView;
}

/** Turns a mask (drawn for orientation N) clockwise by the orientation's angle about the pen point. */
export function rotateMask(m: GlyphMask, o: Orientation): GlyphMask {
  if (o === 'N') return m;
  const { w, h, cov } = m;
  const out = new Uint8Array(w * h);
  if (o === 'I') {
    for (let i = 0; i < w * h; i++) out[w * h - 1 - i] = cov[i];
    return { x: -(m.x + w), y: -(m.y + h), w, h, cov: out };
  }
  // R: (u, v) -> (-v, u); B: (u, v) -> (v, -u). The rotated mask is h wide and w tall.
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = cov[r * w + c];
      if (!v) continue;
      if (o === 'R') out[c * h + (h - 1 - r)] = v;
      else out[(w - 1 - c) * h + r] = v;
    }
  }
  return o === 'R' ? { x: -(m.y + h), y: m.x, w: h, h: w, cov: out } : { x: m.y, y: -(m.x + w), w: h, h: w, cov: out };
}

/**
 * Coverage from which a crisp glyph's pixel is ink: the legacy service draws reversed text without anti-aliasing
 * and inks every pixel the outline touches (labelize text_fo_n: the stems of N at ^A0N,,28 are 5 dots where half
 * coverage gives 4). 8 of 255 rather than 1 so that rounding slivers of an edge stay paper.
 */
const CRISP_INK = 8;

/** Thresholds a mask to pure ink/paper (reverse-printed fields come out this way). */
export function binarize(m: GlyphMask): GlyphMask {
  const cov = new Uint8Array(m.cov.length);
  for (let i = 0; i < cov.length; i++) cov[i] = m.cov[i] >= CRISP_INK ? 255 : 0;
  return { ...m, cov };
}

/** Bytes of glyph masks one thread keeps (each render worker has its own cache). */
export const GLYPH_CACHE_BYTES = 32 * 1024 * 1024;
/** Masks larger than this are drawn and dropped: a few huge glyphs would evict every normal one. */
export const MAX_CACHED_GLYPH_BYTES = 256 * 1024;

/** Glyph masks by group (maskGroup) and glyph (code point), bounded by the masks' bytes. */
export class GlyphCache extends BoundedCache<GlyphMask> {
  constructor(maxBytes = GLYPH_CACHE_BYTES, maxEntryBytes = MAX_CACHED_GLYPH_BYTES) {
    super(maxBytes, maxEntryBytes, (m) => m.cov.byteLength);
  }
}

/** This thread's glyph masks. */
export const glyphCache = new GlyphCache();

/** Names the masks of one font (Face key) at one orientation and crispness: built once per glyph run. */
export function maskGroup(font: string, o: Orientation, crisp: boolean): string {
  return `${font}:${o}:${crisp ? 1 : 0}`;
}

/**
 * The mask of a run's glyph: its outline (upright, relative to the pen) turned to the run's orientation,
 * thresholded when crisp, measured as the font scaler does
 * (coverageMask 'glyph'); memoised in `group` (maskGroup of the run) by code point. The masks made on the way are
 * claimed on `meter` and given back once made: the one drawn is then the glyph cache's (GLYPH_CACHE_BYTES a thread),
 * or, too large to keep, drawn once and dropped.
 */
export function glyphMask(
  group: string,
  run: GlyphRunElement,
  g: PlacedGlyph,
  meter: DecodeMeter = UNMETERED,
): GlyphMask | null {
  const kept = glyphCache.find(group, g.cp);
  if (kept !== undefined) return kept;
  const upright = coverageMask(run.outlines[g.cp] ?? [], undefined, 'glyph', meter);
  // The turned and thresholded copies are claimed before they are made; all are given back once the mask is made.
  let made = 0;
  if (upright) {
    const copies = (run.orientation === 'N' ? 0 : 1) + (run.crisp ? 1 : 0);
    meter.claim(upright.cov.length * copies, 'A turned or crisp glyph mask');
    made = upright.cov.length * (1 + copies); // the upright coverage (claimed by coverageMask) and its copies
  }
  const m = upright
    ? rotateMask({ x: upright.x, y: upright.y, w: upright.w, h: upright.h, cov: upright.cov }, run.orientation)
    : null;
  const drawn = m && run.crisp ? binarize(m) : m;
  meter.release?.(made);
  if (drawn) drawn.view = new DataView(drawn.cov.buffer, drawn.cov.byteOffset, drawn.cov.byteLength);
  return glyphCache.keep(group, g.cp, drawn);
}
