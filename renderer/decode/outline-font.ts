// Outline fonts read with fontkit (TrueType, OpenType, WOFF): glyphs flattened once into polygons in
// font units (y up), so drawing at any size is a cheap affine transform plus our own scanline fill.

import { create, type Font, type Glyph } from 'fontkit';
import { RenderError } from '../errors.js';
import { checkFontTables } from './font-tables.js';
import type { DecodeMeter } from './meter.js';

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

/** Reads fontkit may make from a downloaded font's bytes to open it, and to find and decode one glyph. */
export const MAX_FONT_READS = { open: 1 << 16, glyph: 1 << 19 } as const;

/**
 * Work (reads, plus the steps checkFontTables counted for each glyph decoded) all the glyphs of one downloaded font may
 * take; past it, and after any glyph that spent its whole read limit, the font has no more glyphs. A font costing
 * near the limit on every glyph then stops after a few, not after every distinct character of the document.
 */
export const MAX_FONT_WORK = 1 << 26;

/** Bytes a flattened glyph is taken to hold per number kept and per path command fontkit made (claimed per glyph). */
const BYTES_PER_NUMBER = 8;
const BYTES_PER_COMMAND = 96;

let nextId = 0;

/** Parses the package's own font files (trusted: read without checks or limits); null when fontkit cannot read them. */
export function loadOutlineFont(bytes: Uint8Array, label = 'font'): OutlineFont | null {
  const opened = openFont(bytes, label);
  return typeof opened === 'string' ? null : opened;
}

/**
 * Parses a font downloaded in ZPL, or says why it is refused: its tables are checked first (checkFontTables), fontkit
 * may read its bytes only so many times to open it or to make one glyph (a glyph past that is missing), and every
 * glyph made is charged and claimed from `meter`, the document's.
 */
export function readDownloadedFont(bytes: Uint8Array, label: string, meter: DecodeMeter): OutlineFont | string {
  const checked = checkFontTables(bytes, meter);
  return typeof checked === 'string' ? checked : openFont(bytes, label, { meter, glyphSteps: checked.glyphSteps });
}

/** What bounds an untrusted font: the document's meter, and what checkFontTables found each glyph costs. */
interface FontBudget {
  meter: DecodeMeter;
  glyphSteps(glyphId: number): number;
}

/** Whatever fontkit throws becomes a missing glyph or an unreadable font, except the budget's own refusals. */
function budgetError(e: unknown): boolean {
  return e instanceof RenderError;
}

function openFont(bytes: Uint8Array, label: string, budget?: FontBudget): OutlineFont | string {
  const meter = budget?.meter;
  let font: Font;
  let metrics: { unitsPerEm: number; ascent: number; descent: number; capHeight: number };
  let reads: ReadLimit | undefined;
  try {
    font = create(bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (!font || typeof font.glyphForCodePoint !== 'function') return 'it is not a single TrueType or OpenType font';
    reads = meter && limitReads(font, meter);
    // fontkit parses tables lazily: a broken downloaded font throws here, not in create().
    metrics = guarded(reads, MAX_FONT_READS.open, () => ({
      unitsPerEm: font.unitsPerEm,
      ascent: font.ascent,
      descent: font.descent,
      capHeight: font.capHeight,
    }));
  } catch (e) {
    if (budgetError(e)) throw e;
    return (e as Error).message || 'its tables cannot be read';
  }
  const byCodePoint = new Map<number, OutlineGlyph | null>();
  const byGlyph = new Map<number, OutlineGlyph | null>();
  let workLeft = MAX_FONT_WORK;
  // One read limit for finding a glyph and decoding it; code points that share a glyph share its outline.
  const make = (cp: number): OutlineGlyph | null => {
    if (workLeft <= 0) return null;
    let steps = 0;
    try {
      return guarded(reads, MAX_FONT_READS.glyph, () => {
        const glyph = font.glyphForCodePoint(cp);
        if (!glyph?.id) return null;
        let g = byGlyph.get(glyph.id);
        if (g === undefined) {
          steps = budget?.glyphSteps(glyph.id) ?? 0;
          byGlyph.set(glyph.id, (g = flattenGlyph(glyph, meter)));
        }
        return g;
      });
    } catch (e) {
      if (e instanceof ReadsSpent) workLeft = 0;
      throw e;
    } finally {
      workLeft -= (reads?.made ?? 0) + steps;
      meter?.charge(steps);
    }
  };
  const id = `${label}#${nextId++}`;
  const out: OutlineFont = {
    id,
    ...metrics,
    glyph(cp) {
      let g = byCodePoint.get(cp);
      if (g === undefined) {
        try {
          g = meter ? make(cp) : font.hasGlyphForCodePoint(cp) ? flattenGlyph(font.glyphForCodePoint(cp)) : null;
        } catch (e) {
          if (budgetError(e)) throw e;
          g = null; // a glyph fontkit cannot read (broken download, or past its reads) is a missing glyph
        }
        byCodePoint.set(cp, g);
      }
      return g;
    },
  };
  // Some fonts leave OS/2 capHeight out: take the height of H instead.
  if (!(out.capHeight > 0)) (out as { capHeight: number }).capHeight = out.glyph(0x48)?.maxY || font.ascent * 0.7;
  return out;
}

/** Counts fontkit's reads from a font's bytes (every table is read through the font's one stream) against a limit. */
interface ReadLimit {
  /** Reads left before the one under way is stopped. */
  left: number;
  /** Reads made by the last guarded call. */
  made: number;
  readonly meter: DecodeMeter;
}

/** Thrown inside fontkit when a read limit is spent: it unwinds fontkit's loops and recursion. */
class ReadsSpent extends Error {}

function limitReads(font: Font, meter: DecodeMeter): ReadLimit | undefined {
  const stream = (font as unknown as { stream?: object }).stream;
  if (!stream) return undefined;
  const limit: ReadLimit = { left: Infinity, made: 0, meter };
  const proto = Object.getPrototypeOf(stream) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const read = proto[name];
    if (!name.startsWith('read') || typeof read !== 'function') continue;
    const sized = name === 'readBuffer' || name === 'readString';
    Object.defineProperty(stream, name, {
      value(this: unknown, ...args: unknown[]) {
        limit.left -= 1 + (sized ? Number(args[0]) || 0 : 0);
        if (limit.left < 0) throw new ReadsSpent('the font needs too much work to read');
        return (read as (...a: unknown[]) => unknown).apply(this, args);
      },
    });
  }
  return limit;
}

/** Runs `work` allowed `reads` reads of the font's bytes, and charges those it made to the meter. */
function guarded<T>(limit: ReadLimit | undefined, reads: number, work: () => T): T {
  if (!limit) return work();
  limit.left = reads;
  try {
    return work();
  } finally {
    limit.made = reads - Math.max(0, limit.left);
    limit.meter.charge(limit.made);
    limit.left = Infinity;
  }
}

function flattenGlyph(glyph: Glyph, meter?: DecodeMeter): OutlineGlyph {
  const commands = glyph.path.commands;
  const { contours, paths } = flattenWithPaths(commands);
  if (meter) {
    let numbers = 0;
    for (const c of contours) numbers += c.length;
    for (const p of paths) numbers += p.length;
    meter.charge(numbers + commands.length);
    meter.claim(numbers * BYTES_PER_NUMBER + commands.length * BYTES_PER_COMMAND, 'A downloaded font glyph');
  }
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
