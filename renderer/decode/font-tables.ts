// The structure of a downloaded TrueType/OpenType font, checked before fontkit reads any of it. fontkit parses lazily
// and trusts every offset and count: a composite glyph that uses another twice, thirty levels deep, makes 2^30 points;
// a glyph of 30,000 contours costs 30,000 x its points (it looks each point up in the contour ends). So a font is
// only opened when its tables lie within its bytes and every glyph's cost, composites expanded, is within bounds.

import type { DecodeMeter } from './meter.js';

/** Points one glyph may have once its components are expanded (real glyphs have hundreds, CJK a few thousand). */
export const MAX_GLYPH_POINTS = 1 << 16;
/** Steps fontkit may take to decode one glyph: points times contour ends looked up, over every component used. */
export const MAX_GLYPH_STEPS = 1 << 24;
/** Components nested in components (the TrueType specification's maxComponentDepth is rarely above 3). */
export const MAX_COMPONENT_DEPTH = 16;

const SFNT_VERSIONS = new Set([0x00010000, 0x74727565 /* true */, 0x4f54544f /* OTTO */]);
const OTHER_FORMATS: Record<number, string> = {
  0x74746366: 'a font collection (ttcf)',
  0x774f4646: 'a WOFF web font',
  0x774f4632: 'a WOFF2 web font',
};

interface Table {
  offset: number;
  length: number;
}

/** A glyph's cost: its points with every component expanded, and the steps fontkit takes to decode it. */
interface GlyphCost {
  points: number;
  steps: number;
  /** Levels of components below it (0 for a simple glyph). */
  depth: number;
}

/** A font found safe to open: what decoding each of its glyphs costs (TrueType outlines; CFF glyphs cost their reads). */
export interface FontCosts {
  /** Steps fontkit takes to decode the glyph, its components expanded (0 when it cannot be known ahead). */
  glyphSteps(glyphId: number): number;
}

const UNKNOWN_COSTS: FontCosts = { glyphSteps: () => 0 };

/**
 * Why the font cannot be opened safely, or what its glyphs cost. Reads the table directory and head, hhea, maxp and
 * cmap, then (TrueType outlines) loca and every glyph header in glyf; charges what it reads to `meter`.
 */
export function checkFontTables(bytes: Uint8Array, meter: DecodeMeter): string | FontCosts {
  if (bytes.length < 12) return 'the font file is truncated';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  if (!SFNT_VERSIONS.has(version)) return `it is ${OTHER_FORMATS[version] ?? 'not a TrueType or OpenType font'}`;
  const numTables = view.getUint16(4);
  if (12 + 16 * numTables > bytes.length) return `its table directory of ${numTables} tables is truncated`;
  const tables = new Map<string, Table>();
  for (let i = 0; i < numTables; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > bytes.length) return `its ${tag.trim()} table lies outside the file`;
    tables.set(tag, { offset, length });
  }
  meter.charge(12 + 16 * numTables);
  const need = (tag: string, min: number): Table | string => {
    const t = tables.get(tag);
    return !t ? `it has no ${tag.trim()} table` : t.length < min ? `its ${tag.trim()} table is truncated` : t;
  };
  const head = need('head', 54);
  const hhea = need('hhea', 36);
  const maxp = need('maxp', 6);
  const cmap = need('cmap', 4);
  for (const t of [head, hhea, maxp, cmap]) if (typeof t === 'string') return t;
  const [h, hh, m] = [head, hhea, maxp] as Table[];
  const unitsPerEm = view.getUint16(h.offset + 18);
  if (unitsPerEm < 16 || unitsPerEm > 16384) return `its units per em (${unitsPerEm}) are out of range`;
  const numGlyphs = view.getUint16(m.offset + 4);
  if (numGlyphs === 0) return 'it has no glyphs';
  if (view.getUint16(hh.offset + 34) === 0) return 'its hhea table names no horizontal metrics';
  if (tables.has('CFF ') || tables.has('CFF2')) return UNKNOWN_COSTS; // CharStrings are bounded as they are read
  const glyf = tables.get('glyf');
  const loca = tables.get('loca');
  if (!glyf || !loca) return 'it has neither TrueType (glyf, loca) nor CFF outlines';
  const longOffsets = view.getInt16(h.offset + 50);
  if (longOffsets !== 0 && longOffsets !== 1) return `its loca format (${longOffsets}) is unknown`;
  const entry = longOffsets ? 4 : 2;
  if (loca.length < (numGlyphs + 1) * entry) return `its loca table is shorter than its ${numGlyphs} glyphs`;
  const starts = new Uint32Array(numGlyphs + 1);
  for (let g = 0; g <= numGlyphs; g++) {
    const at = loca.offset + g * entry;
    starts[g] = longOffsets ? view.getUint32(at) : view.getUint16(at) * 2;
    if (starts[g]! > glyf.length) return `glyph ${g} lies outside its glyf table`;
  }
  meter.charge((numGlyphs + 1) * entry);
  return checkGlyphs(view, glyf, starts, meter);
}

/**
 * Every glyph's cost within bounds, composites expanded. Costs are kept by glyph offset, not glyph id: loca may point
 * any number of glyphs at one record, which is then read once (its components are looked up by id, also once each).
 */
function checkGlyphs(view: DataView, glyf: Table, starts: Uint32Array, meter: DecodeMeter): string | FontCosts {
  const numGlyphs = starts.length - 1;
  const costs = new Map<number, GlyphCost>();
  const end = glyf.offset + glyf.length;
  // `above`: components above this one on the way from the glyph being checked (a cycle runs past the limit).
  const costOf = (g: number, above: number): GlyphCost | string => {
    // fontkit reads a glyph only when its loca entry differs from the next one's.
    if (starts[g] === starts[g + 1]) return EMPTY;
    const at = glyf.offset + starts[g]!;
    const known = costs.get(at);
    if (known) return known;
    if (above > MAX_COMPONENT_DEPTH) return `glyph ${g} nests components more than ${MAX_COMPONENT_DEPTH} deep`;
    if (at + 10 > end) return `glyph ${g} is truncated`;
    const contours = view.getInt16(at);
    let cost: GlyphCost;
    if (contours >= 0) {
      if (at + 10 + 2 * contours > end) return `glyph ${g} is truncated`;
      const points = contours ? view.getUint16(at + 10 + 2 * (contours - 1)) + 1 : 0;
      meter.charge(1);
      cost = { points, steps: points * (contours + 1) + contours, depth: 0 };
    } else {
      cost = { points: 0, steps: 0, depth: 0 };
      let p = at + 10;
      for (let more = true; more; ) {
        if (p + 4 > end) return `composite glyph ${g} runs past its glyf table`;
        const flags = view.getUint16(p);
        const component = view.getUint16(p + 2);
        p += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
        more = (flags & 0x0020) !== 0;
        if (component >= numGlyphs) return `composite glyph ${g} uses glyph ${component}, which it does not have`;
        const inner = costOf(component, above + 1);
        if (typeof inner === 'string') return inner;
        cost.depth = Math.max(cost.depth, inner.depth + 1);
        // fontkit decodes a component again for every use of it, and copies its points at every level.
        cost.points += inner.points;
        cost.steps += inner.steps + inner.points + 1;
        if (cost.points > MAX_GLYPH_POINTS || cost.steps > MAX_GLYPH_STEPS) break;
      }
      if (p > end) return `composite glyph ${g} runs past its glyf table`;
      meter.charge(p - at);
    }
    if (cost.depth > MAX_COMPONENT_DEPTH) return `glyph ${g} nests components more than ${MAX_COMPONENT_DEPTH} deep`;
    if (cost.points > MAX_GLYPH_POINTS) return `glyph ${g} has more than ${MAX_GLYPH_POINTS} points`;
    if (cost.steps > MAX_GLYPH_STEPS) return `glyph ${g} needs more than ${MAX_GLYPH_STEPS} steps to decode`;
    costs.set(at, cost);
    return cost;
  };
  for (let g = 0; g < numGlyphs; g++) {
    const cost = costOf(g, 0);
    if (typeof cost === 'string') return cost;
  }
  return {
    glyphSteps: (g) => (g < numGlyphs && starts[g] !== starts[g + 1] ? costs.get(glyf.offset + starts[g]!)!.steps : 0),
  };
}

const EMPTY: GlyphCost = { points: 0, steps: 1, depth: 0 };
