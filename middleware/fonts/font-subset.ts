// A TrueType font cut down to some characters: fontkit's subsetter copies the glyphs (components included, renumbered)
// with their metrics and hinting tables, but writes no cmap, OS/2, name or post; those are added here, so the subset
// still maps each kept character to its glyph and carries the font's names and embedding bits.

import { create } from 'fontkit';
import { readTables, writeSfnt, type SfntTables } from './sfnt.js';

/** A character kept and the subset's glyph for it. */
interface Mapping {
  codePoint: number;
  glyph: number;
}

/** The tables fontkit's subset writes that are kept as it wrote them. */
const SUBSET_TABLES = ['head', 'hhea', 'maxp', 'hmtx', 'loca', 'glyf', 'cvt ', 'prep', 'fpgm'];

/** The characters to keep: some code points, and whole ranges of them (inclusive). */
export interface KeptCharacters {
  codePoints: readonly number[];
  ranges: readonly (readonly [number, number])[];
}

/** The font cut down to the characters it has of `keep`; null when it has none of them. */
export function subsetFont(bytes: Uint8Array, keep: KeptCharacters): Uint8Array | null {
  const font = create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const wanted = new Set(keep.codePoints);
  // Ranges may span the whole of Unicode: they select from the characters the font has, never by counting through them.
  if (keep.ranges.length > 0) {
    for (const cp of font.characterSet) if (keep.ranges.some(([from, to]) => cp >= from && cp <= to)) wanted.add(cp);
  }
  const subset = font.createSubset();
  const mappings: Mapping[] = [];
  for (const codePoint of [...wanted].sort((a, b) => a - b)) {
    const id = font.glyphForCodePoint(codePoint)?.id;
    if (id) mappings.push({ codePoint, glyph: subset.includeGlyph(id) });
  }
  if (mappings.length === 0) return null;
  const written = readTables(subset.encode());
  const original = readTables(bytes);
  const tables: SfntTables = new Map();
  for (const tag of SUBSET_TABLES) {
    const table = written.get(tag);
    if (table) tables.set(tag, table);
  }
  tables.set('cmap', cmapTable(mappings));
  const os2 = original.get('OS/2');
  if (os2) tables.set('OS/2', withCharacterRange(os2, mappings));
  const name = original.get('name');
  if (name) tables.set('name', name);
  const post = original.get('post');
  if (post && post.length >= 32) tables.set('post', postWithoutNames(post));
  return writeSfnt(tables);
}

/** Runs of characters whose code points and glyphs both go up by one: one cmap segment or group each. */
function runs(mappings: readonly Mapping[]): Array<{ first: Mapping; last: number }> {
  const out: Array<{ first: Mapping; last: number }> = [];
  for (const m of mappings) {
    const run = out.at(-1);
    if (run && m.codePoint === run.last + 1 && m.glyph === run.first.glyph + (m.codePoint - run.first.codePoint))
      run.last = m.codePoint;
    else out.push({ first: m, last: m.codePoint });
  }
  return out;
}

/**
 * A cmap of the mappings: a Windows Unicode BMP subtable (format 4) and, for characters beyond the BMP or more
 * segments than format 4 holds, a full Unicode one (format 12).
 */
export function cmapTable(mappings: readonly Mapping[]): Uint8Array {
  const bmp = format4(mappings.filter((m) => m.codePoint < 0xffff));
  const needsFull = bmp === null || mappings.some((m) => m.codePoint > 0xffff);
  const subtables: Array<{ encoding: number; data: Uint8Array }> = [];
  if (bmp) subtables.push({ encoding: 1, data: bmp });
  if (needsFull) subtables.push({ encoding: 10, data: format12(mappings) });
  const header = 4 + 8 * subtables.length;
  const out = new Uint8Array(header + subtables.reduce((n, s) => n + s.data.length, 0));
  const view = new DataView(out.buffer);
  view.setUint16(2, subtables.length);
  let offset = header;
  subtables.forEach(({ encoding, data }, i) => {
    view.setUint16(4 + 8 * i, 3); // Windows
    view.setUint16(6 + 8 * i, encoding);
    view.setUint32(8 + 8 * i, offset);
    out.set(data, offset);
    offset += data.length;
  });
  return out;
}

/** Format 4: one segment per run, each mapped by its delta, and the closing 0xFFFF segment; null past 64 KB. */
function format4(mappings: readonly Mapping[]): Uint8Array | null {
  const segments = [
    ...runs(mappings).map(({ first, last }) => ({
      start: first.codePoint,
      end: last,
      delta: (first.glyph - first.codePoint) & 0xffff,
    })),
    { start: 0xffff, end: 0xffff, delta: 1 },
  ];
  const count = segments.length;
  const length = 16 + 8 * count;
  if (length > 0xffff) return null;
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  const power = 2 ** Math.floor(Math.log2(count));
  view.setUint16(0, 4);
  view.setUint16(2, length);
  view.setUint16(6, count * 2);
  view.setUint16(8, power * 2);
  view.setUint16(10, Math.log2(power));
  view.setUint16(12, count * 2 - power * 2);
  segments.forEach(({ start, end, delta }, i) => {
    view.setUint16(14 + 2 * i, end);
    view.setUint16(16 + 2 * count + 2 * i, start);
    view.setUint16(16 + 4 * count + 2 * i, delta);
    // idRangeOffset (16 + 6 * count + 2 * i) stays 0: glyphs come from the delta.
  });
  return out;
}

/** Format 12: one group per run. */
function format12(mappings: readonly Mapping[]): Uint8Array {
  const groups = runs(mappings);
  const out = new Uint8Array(16 + 12 * groups.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, 12);
  view.setUint32(4, out.length);
  view.setUint32(12, groups.length);
  groups.forEach(({ first, last }, i) => {
    view.setUint32(16 + 12 * i, first.codePoint);
    view.setUint32(20 + 12 * i, last);
    view.setUint32(24 + 12 * i, first.glyph);
  });
  return out;
}

/** OS/2 as the font has it (its embedding bits, metrics and names), its first and last character those kept. */
function withCharacterRange(os2: Uint8Array, mappings: readonly Mapping[]): Uint8Array {
  const out = os2.slice();
  if (out.length < 68) return out;
  const view = new DataView(out.buffer);
  view.setUint16(64, Math.min(mappings[0]!.codePoint, 0xffff));
  view.setUint16(66, Math.min(mappings.at(-1)!.codePoint, 0xffff));
  return out;
}

/** post version 3: the font's header (italic angle, underline, fixed pitch), without glyph names, now renumbered. */
function postWithoutNames(post: Uint8Array): Uint8Array {
  const out = post.slice(0, 32);
  new DataView(out.buffer).setUint32(0, 0x00030000);
  return out;
}
