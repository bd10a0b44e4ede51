// Outline fonts read with fontkit (TrueType, OpenType, WOFF): glyphs flattened once into polygons in
// font units (y up), so drawing at any size is a cheap affine transform plus our own scanline fill.

import { create, type Font } from 'fontkit';

/** A glyph path command as fontkit gives it (declared here so our .d.ts files do not depend on fontkit's). */
export interface PathCommand {
  command: 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath';
  args: number[];
}

export interface OutlineGlyph {
  /** Closed polygons, x/y pairs in font units, y up. */
  contours: number[][];
  /** The same contours with their curves kept (path data, see PathData), one per polygon. */
  paths: number[][];
  advance: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

export interface OutlineFont {
  /** Identifies the font in glyph-cache keys. */
  readonly id: string;
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  readonly capHeight: number;
  glyph(codePoint: number): OutlineGlyph | null;
}

/** Line segments per curve; glyphs are at most ~100 dots tall, so this is well under a tenth of a dot. */
const CURVE_STEPS = 8;

let nextId = 0;

/** Parses font bytes; returns null when fontkit cannot read them. */
export function loadOutlineFont(bytes: Uint8Array, label = 'font'): OutlineFont | null {
  let font: Font;
  let metrics: { unitsPerEm: number; ascent: number; descent: number; capHeight: number };
  try {
    font = create(bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (!font || typeof font.glyphForCodePoint !== 'function') return null;
    // fontkit parses tables lazily: a broken downloaded font throws here, not in create().
    metrics = { unitsPerEm: font.unitsPerEm, ascent: font.ascent, descent: font.descent, capHeight: font.capHeight };
  } catch {
    return null;
  }
  const cache = new Map<number, OutlineGlyph | null>();
  const id = `${label}#${nextId++}`;
  const out: OutlineFont = {
    id,
    ...metrics,
    glyph(cp) {
      let g = cache.get(cp);
      if (g === undefined) {
        try {
          g = font.hasGlyphForCodePoint(cp) ? flattenGlyph(font, cp) : null;
        } catch {
          g = null; // a glyph fontkit cannot read (broken download) is a missing glyph
        }
        cache.set(cp, g);
      }
      return g;
    },
  };
  // Some fonts leave OS/2 capHeight out: take the height of H instead.
  if (!(out.capHeight > 0)) (out as { capHeight: number }).capHeight = out.glyph(0x48)?.maxY || font.ascent * 0.7;
  return out;
}

function flattenGlyph(font: Font, cp: number): OutlineGlyph {
  const glyph = font.glyphForCodePoint(cp);
  const { contours, paths } = flattenWithPaths(glyph.path.commands);
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (const c of contours) {
    for (let i = 0; i < c.length; i += 2) {
      if (c[i] < minX) minX = c[i];
      if (c[i] > maxX) maxX = c[i];
      if (c[i + 1] < minY) minY = c[i + 1];
      if (c[i + 1] > maxY) maxY = c[i + 1];
    }
  }
  if (!contours.length) minX = maxX = minY = maxY = 0;
  return { contours, paths, advance: glyph.advanceWidth, minX, maxX, minY, maxY };
}

/**
 * Path commands to polygons (curves subdivided evenly) and, for each polygon, its path data with the curves kept:
 * `0 x y` move, `1 x y` line, `2 cx cy x y` quadratic, `3 c1x c1y c2x c2y x y` cubic.
 */
export function flattenWithPaths(commands: readonly PathCommand[]): { contours: number[][]; paths: number[][] } {
  const out: number[][] = [];
  const paths: number[][] = [];
  let cur: number[] = [];
  let path: number[] = [];
  let x = 0,
    y = 0;
  const close = () => {
    if (cur.length >= 6) {
      out.push(cur);
      paths.push(path);
    }
    cur = [];
    path = [];
  };
  // A contour that does not begin with a move starts from the current point.
  const start = () => {
    if (!path.length) path.push(0, x, y);
  };
  for (const { command, args: a } of commands) {
    switch (command) {
      case 'moveTo':
        close();
        x = a[0];
        y = a[1];
        cur.push(x, y);
        path.push(0, x, y);
        break;
      case 'lineTo':
        start();
        x = a[0];
        y = a[1];
        cur.push(x, y);
        path.push(1, x, y);
        break;
      case 'quadraticCurveTo':
        start();
        path.push(2, a[0], a[1], a[2], a[3]);
        for (let i = 1; i <= CURVE_STEPS; i++) {
          const t = i / CURVE_STEPS,
            u = 1 - t;
          cur.push(u * u * x + 2 * u * t * a[0] + t * t * a[2], u * u * y + 2 * u * t * a[1] + t * t * a[3]);
        }
        x = a[2];
        y = a[3];
        break;
      case 'bezierCurveTo':
        start();
        path.push(3, a[0], a[1], a[2], a[3], a[4], a[5]);
        for (let i = 1; i <= CURVE_STEPS; i++) {
          const t = i / CURVE_STEPS,
            u = 1 - t;
          cur.push(
            u * u * u * x + 3 * u * u * t * a[0] + 3 * u * t * t * a[2] + t * t * t * a[4],
            u * u * u * y + 3 * u * u * t * a[1] + 3 * u * t * t * a[3] + t * t * t * a[5],
          );
        }
        x = a[4];
        y = a[5];
        break;
      case 'closePath':
        close();
        break;
    }
  }
  close();
  return { contours: out, paths };
}
