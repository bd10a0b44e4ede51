// FontSelection (^A, ^CF, ^A@, ^CW) -> the face to draw with.

import { BoundedCache } from '../bounded-cache.js';
import type { FontSelection, StoredObject } from '../model.js';
import { deviceFace, deviceFonts } from './device-fonts.js';
import { bitmapFontFace } from './bitmap-font.js';
import { downloadedFace, findFontObject } from './downloaded.js';
import type { Face } from './face.js';
import { font0Face } from './font0.js';

/** Fonts P-V are fixed-size renditions of font 0 (height x width at 8 dpmm, Zebra font table). */
const FIXED_FONT0_SIZES: Readonly<Record<string, readonly [number, number]>> = {
  P: [20, 18],
  Q: [28, 24],
  R: [35, 31],
  S: [40, 35],
  T: [48, 42],
  U: [59, 53],
  V: [80, 71],
};

const NO_OBJECTS: ReadonlyMap<string, StoredObject> = new Map();

/** What a face holds, roughly (a few closures, font 0's table of Latin-1 advances): documents may ask for any size, the least used go first. */
const FACE_BYTES = 4096;
/**
 * Faces of the built-in fonts (font 0 and the device fonts hold no per-request state) by font and size, made once a
 * thread: a label's fields share them, and the glyph caches, keyed by the face's key string, meet the same string.
 */
const builtinFaces = new BoundedCache<Face>(FACE_BYTES * 4096, FACE_BYTES * 2, () => FACE_BYTES);

/** Drops every kept face: for tools that change font 0's tables while they run (tools/font0-model/fit-runs.ts). */
export function forgetBuiltinFaces(): void {
  builtinFaces.clear();
}

/** The face of built-in font `font` at `height` x `width` dots, made by `make` when not kept (null: none). */
function builtinFace(font: string, height: number, width: number, make: () => Face | null): Face | null {
  const key = height * 65536 + width; // both at most 32000
  const kept = builtinFaces.find(font, key);
  if (kept) return kept;
  const made = make();
  return made && builtinFaces.keep(font, key, made);
}

export function resolveFace(sel: FontSelection, objects: ReadonlyMap<string, StoredObject> = NO_OBJECTS): Face {
  const name = sel.name.toUpperCase();
  const path = sel.path ?? (name.length > 1 && name !== 'GS' ? name : undefined);
  if (path) {
    const obj = findFontObject(objects, path);
    const face =
      obj &&
      (obj.bitmapFont
        ? bitmapFontFace(obj.bitmapFont, sel.height, sel.width)
        : downloadedFace(obj, sel.height || sel.width || 9, sel.width));
    if (face) return face;
  }
  const device = deviceFonts[name]
    ? builtinFace(name, sel.height, sel.width, () => deviceFace(name, sel.height, sel.width))
    : null;
  if (device) return device;
  const fixed = FIXED_FONT0_SIZES[name];
  if (fixed) return builtinFace('0', fixed[0], fixed[1], () => font0Face(fixed[0], fixed[1]))!;
  // A font the printer does not have prints in font A (as the legacy renderer does for ^A1..^A9 etc.).
  if (name !== '0' && !path)
    return builtinFace('A', sel.height, sel.width, () => deviceFace('A', sel.height, sel.width))!;
  const height = atLeastMinimum(sel.height),
    width = atLeastMinimum(sel.width);
  return builtinFace('0', height || width || 9, width, () => font0Face(height || width || 9, width))!;
}

/** Font 0's smallest height and width (ZPL II guide: 10 to 32000); the legacy service raises smaller ones to it. */
const FONT0_MIN_DOTS = 10;

/** A given (non-zero) font 0 dimension below the minimum becomes the minimum; 0 (not given) stays 0. */
function atLeastMinimum(v: number): number {
  return v > 0 && v < FONT0_MIN_DOTS ? FONT0_MIN_DOTS : v;
}
