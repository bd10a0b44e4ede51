// ~DB bitmap fonts as faces: each glyph's set dots become rectangles (runs of ink merged down the rows), magnified
// by whole multiples of the cell as the printer magnifies bitmap fonts, so every backend draws the dots the font has.

import { magnification } from './device-fonts.js';
import { cachedOutline, type Face } from './face.js';
import { nonEmpty, type PlacedOutline } from './place.js';
import type { BitmapFont, BitmapGlyph } from '../decode/bitmap-font.js';
import type { Contour, PathData } from '../display/display-list.js';

/** Whole-number magnification of the cell for a requested height and width (a missing one follows the other). */
export function bitmapMagnification(font: BitmapFont, height: number, width: number): { mx: number; my: number } {
  let my = magnification(height, font.cellHeight);
  let mx = magnification(width, font.cellWidth);
  if (!my && !mx) my = mx = 1;
  else if (!my) my = mx;
  else if (!mx) mx = my;
  return { mx, my };
}

/** Ink runs [x0, x1) of row `r`. */
function rowRuns(g: BitmapGlyph, r: number): Array<[number, number]> {
  const { data, stride, width } = g.bits;
  const out: Array<[number, number]> = [];
  let start = -1;
  for (let x = 0; x <= width; x++) {
    const ink = x < width && (data[r * stride + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
    if (ink && start < 0) start = x;
    else if (!ink && start >= 0) {
      out.push([start, x]);
      start = -1;
    }
  }
  return out;
}

/** The glyph's ink as rectangles in dots relative to the pen on the baseline (y down); null when it has none. */
export function bitmapGlyphOutline(g: BitmapGlyph, baseline: number, mx: number, my: number): PlacedOutline | null {
  const polygons: Contour[] = [];
  const curves: PathData[] = [];
  const rect = (x0: number, x1: number, r0: number, r1: number) => {
    const X0 = (g.x + x0) * mx,
      X1 = (g.x + x1) * mx,
      Y0 = (g.y + r0 - baseline) * my,
      Y1 = (g.y + r1 - baseline) * my;
    polygons.push([X0, Y0, X1, Y0, X1, Y1, X0, Y1]);
    curves.push([0, X0, Y0, 1, X1, Y0, 1, X1, Y1, 1, X0, Y1]);
  };
  // A run that continues unchanged in the next row grows one rectangle down instead of starting another.
  let open = new Map<string, { x0: number; x1: number; r0: number }>();
  for (let r = 0; r <= g.bits.height; r++) {
    const next = new Map<string, { x0: number; x1: number; r0: number }>();
    for (const [x0, x1] of r < g.bits.height ? rowRuns(g, r) : []) {
      const key = `${x0}:${x1}`;
      next.set(key, open.get(key) ?? { x0, x1, r0: r });
    }
    for (const [key, o] of open) if (!next.has(key)) rect(o.x0, o.x1, o.r0, r);
    open = next;
  }
  return polygons.length ? nonEmpty({ polygons, curves }) : null;
}

/** The face of a ~DB font, at the magnification a ^A height and width ask for. */
export function bitmapFontFace(font: BitmapFont, height: number, width: number): Face {
  const { mx, my } = bitmapMagnification(font, height, width);
  const key = `${font.id}:${mx}:${my}`;
  const place = (cp: number): PlacedOutline | null => {
    const g = font.glyphs.get(cp);
    return g ? bitmapGlyphOutline(g, font.baseline, mx, my) : null;
  };
  return {
    key,
    height: font.cellHeight * my,
    baseline: font.baseline * my,
    antialias: false,
    advance: (cp) => (font.glyphs.get(cp)?.advance ?? font.space) * mx,
    outline: (cp) => cachedOutline(key, cp, place),
  };
}
