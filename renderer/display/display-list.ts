// The display list: what a label looks like, as plain data between layout and the backends (raster -> PNG,
// vector -> PDF). Coordinates are label dots before ^PO/^PM and X-Rotation; y runs down.

import type { Orientation } from '../model.js';

/** How an element combines with what is under it: `reverse` (^FR, ^LR) flips ink and paper. */
export type Ink = 'normal' | 'reverse';
/** Colour of `normal` ink: `white` (^GB...,W) erases. Reverse ink ignores it. */
export type InkColor = 'black' | 'white';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** Byte offsets of the ZPL field that made an element; `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** A closed polygon in dots: x0, y0, x1, y1, ... (curves flattened as the raster fills them). */
export type Contour = number[];

/**
 * One closed contour with its curves kept, in dots: `0 x y` move, `1 x y` line, `2 cx cy x y` quadratic Bézier,
 * `3 c1x c1y c2x c2y x y` cubic Bézier (each from the current point).
 */
export type PathData = number[];

interface ElementBase {
  ink: Ink;
  color: InkColor;
  /** Bounding box in dots, label coordinates. */
  box: Box;
  span: Span;
}

/** A rectangle filled with whole dots: [floor(x), floor(x + width)) x [floor(y), floor(y + height)). */
export interface RectElement extends ElementBase {
  kind: 'rect';
}

/** Polygons filled by the non-zero winding rule, anti-aliased on the raster. */
export interface PathElement extends ElementBase {
  kind: 'path';
  contours: Contour[];
}

/** A 1-bit image (rows MSB first, `stride` bytes a row, set bits are ink), each bit `scaleX` x `scaleY` dots. */
export interface BitmapElement extends ElementBase {
  kind: 'bitmap';
  x: number;
  y: number;
  width: number;
  height: number;
  stride: number;
  scaleX: number;
  scaleY: number;
  bits: Uint8Array;
}

/** One glyph of a run: its code point and the pen point on the baseline (whole dots). */
export interface PlacedGlyph {
  cp: number;
  x: number;
  y: number;
}

/** A line (or word) of text: glyph outlines, where each glyph goes, and the text they spell. */
export interface GlyphRunElement extends ElementBase {
  kind: 'glyphRun';
  text: string;
  /** Identifies font and size: equal keys and outline keys mean equal outlines. */
  font: string;
  orientation: Orientation;
  /** Pure ink/paper edges instead of anti-aliased ones (reverse-printed text). */
  crisp: boolean;
  glyphs: PlacedGlyph[];
  /**
   * Outlines by code point, in dots relative to the pen, drawn upright (orientation N, y down); a glyph of
   * orientation R, I or B is this outline turned clockwise by 90, 180 or 270 degrees about its pen point.
   */
  outlines: Record<string, Contour[]>;
  /**
   * Glyph outlines with their Bézier segments, by code point: the same shapes as `outlines`, upright.
   * Only laid out for `vector` output.
   */
  curves?: Record<string, PathData[]>;
}

export type DisplayElement = RectElement | PathElement | BitmapElement | GlyphRunElement;

/** Columns [x, x + width) of the label: a ^PW narrower than the label leaves no ink outside them. */
export interface PrintArea {
  x: number;
  width: number;
}

/** One printed label, laid out. */
export interface DisplayList {
  width: number;
  height: number;
  elements: DisplayElement[];
  /** ^PW narrower than the label: ink only inside these columns (applied after drawing, before ^PM/^PO). */
  printArea?: PrintArea;
  /** ^PM Y: the whole label mirrored left to right (applied after drawing). */
  mirror: boolean;
  /** ^PO I: the whole label turned 180 degrees (applied after mirroring). */
  invert: boolean;
}

/** Min/max x and y of a shape's points. */
export interface Extent {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Extent of polygons: min/max x and y over every point (Infinity/-Infinity when there is none). */
export function extentOf(contours: readonly ArrayLike<number>[]): Extent {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const c of contours) {
    for (let i = 0; i + 1 < c.length; i += 2) {
      const x = c[i],
        y = c[i + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return { minX, minY, maxX, maxY };
}

/** Twice the signed area of closed polygons (y down): positive when their outer contours run clockwise on the page. */
export function signedArea(contours: readonly ArrayLike<number>[]): number {
  let a = 0;
  for (const c of contours) {
    for (let i = 0, j = c.length - 2; i < c.length; j = i, i += 2) a += c[j]! * c[i + 1]! - c[i]! * c[j + 1]!;
  }
  return a;
}

/** A point of an upright outline turned to a glyph orientation (clockwise about the pen point). */
export function turn(o: Orientation, u: number, v: number): [number, number] {
  switch (o) {
    case 'R':
      return [-v, u];
    case 'I':
      return [-u, -v];
    case 'B':
      return [v, -u];
    default:
      return [u, v];
  }
}

/**
 * Which backend a display list is laid out for. `raster` fills each glyph's polygon outline; `vector` draws each
 * glyph's shape with its Bézier segments, so glyph runs carry `curves` too (work a PNG would pay for and never use).
 */
export type OutputKind = 'raster' | 'vector';

/** How a drawer asks for ink: black, white (erase) or xor (reverse). */
export type InkMode = 'black' | 'white' | 'xor';

export function inkOf(mode: InkMode): { ink: Ink; color: InkColor } {
  return mode === 'xor' ? { ink: 'reverse', color: 'black' } : { ink: 'normal', color: mode };
}

export function modeOf(e: Pick<ElementBase, 'ink' | 'color'>): InkMode {
  return e.ink === 'reverse' ? 'xor' : e.color;
}
