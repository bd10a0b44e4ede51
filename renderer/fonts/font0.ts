// Font 0 (the scalable CG Triumvirate Bold Condensed of Zebra printers): Roboto Condensed Bold outlines
// fitted glyph by glyph into the boxes measured from the legacy renderer's output (font0-metrics.ts).

import { outlineMask } from '../text/glyph-mask.js';
import { dejaVuSansCondensedBold, robotoCondensedBold, robotoCondensedBoldExt, withGlyph } from './builtin.js';
import { cachedGlyph, type Face } from './face.js';
import { font0Metrics, type GlyphBox } from './font0-metrics.js';

const FALLBACKS = [robotoCondensedBold, robotoCondensedBoldExt, dejaVuSansCondensedBold];

/** ^TB line pitch per dot of height (h84_tb_ft: 106 dots at height 84); ^FB lines are one height apart. */
const TEXT_BLOCK_PITCH = 106 / 84;

/** Baseline below the top of the cell for a height of `h` dots. */
export function font0Baseline(h: number): number {
  const [a, b] = font0Metrics.baseline;
  return Math.round(a * h + b);
}

/** Horizontal scale of a ^A0 width parameter relative to the height (0 = proportional). */
function widthScale(h: number, w: number): number {
  return w > 0 ? w / h : 1;
}

/** The measured box of `cp` in units of the height, or one derived from the outline. */
function box(cp: number): GlyphBox | null {
  const m = font0Metrics.glyphs[cp];
  if (m) return m;
  const font = withGlyph(cp, FALLBACKS);
  const g = font?.glyph(cp);
  if (!font || !g) return null;
  // Unmeasured glyph: scale the outline like an average measured glyph.
  const s = font0Metrics.emPerHeight / font.unitsPerEm;
  const sx = s * font0Metrics.condense;
  return [g.advance * sx, g.minX * sx, g.maxX * sx, g.maxY * s, g.minY * s];
}

export function font0Face(height: number, width: number): Face {
  const h = Math.max(1, height);
  const sx = widthScale(h, width);
  const key = `0:${h}:${width}`;
  return {
    key,
    height: h,
    baseline: font0Baseline(h),
    textBlockPitch: Math.round(h * TEXT_BLOCK_PITCH),
    antialias: true,
    advance(cp) {
      const b = box(cp);
      return b ? b[0] * h * sx : h * 0.5 * sx;
    },
    glyph(cp) {
      return cachedGlyph(`${key}:${cp}`, () => {
        const b = box(cp);
        const font = withGlyph(cp, FALLBACKS);
        const g = font?.glyph(cp);
        if (!b || !g || !g.contours.length) return null;
        const [, left, right, top, bottom] = b;
        // Stretch the outline's ink box onto the measured ink box.
        const gx = (right - left) * h * sx / Math.max(1, g.maxX - g.minX);
        const gy = (top - bottom) * h / Math.max(1, g.maxY - g.minY);
        return outlineMask(g.contours, gx, gy, left * h * sx - g.minX * gx, -(bottom * h - g.minY * gy));
      });
    },
  };
}
