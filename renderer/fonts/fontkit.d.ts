// The small part of fontkit 2's API we use (the package ships no type declarations).
declare module 'fontkit' {
  export interface PathCommand {
    command: 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath';
    args: number[];
  }
  export interface Glyph {
    id: number;
    advanceWidth: number;
    path: { commands: PathCommand[] };
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
  }
  export interface Font {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    capHeight: number;
    postscriptName?: string;
    /** Every code point the font's cmap maps (POST /fonts subsets from it). */
    characterSet: number[];
    hasGlyphForCodePoint(cp: number): boolean;
    glyphForCodePoint(cp: number): Glyph;
    createSubset(): Subset;
  }
  /** A TrueType subset: glyph 0 first, then each glyph included (components follow their composites on encode). */
  export interface Subset {
    /** The glyph's id in the subset. */
    includeGlyph(glyph: number | Glyph): number;
    /** The subset as an sfnt with head, hhea, maxp, hmtx, loca, glyf and the hinting tables (no cmap). */
    encode(): Uint8Array;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
