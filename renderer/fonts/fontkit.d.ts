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
    hasGlyphForCodePoint(cp: number): boolean;
    glyphForCodePoint(cp: number): Glyph;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
