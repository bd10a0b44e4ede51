// Small TrueType and OpenType (CFF) fonts written byte by byte for the decoder tests: a valid one, and the hostile
// shapes fontkit trusts (composites that double at every level, a glyph of 30,000 contour ends, CFF subroutines
// that call the next one twice), each a few kilobytes.

/** An sfnt file of these tables (directory sorted by tag, each table padded to 4 bytes; checksums left 0). */
export function sfnt(tables: Record<string, Uint8Array>, version = 0x00010000): Buffer {
  const tags = Object.keys(tables).sort();
  const head = Buffer.alloc(12 + 16 * tags.length);
  head.writeUInt32BE(version, 0);
  head.writeUInt16BE(tags.length, 4);
  let offset = head.length;
  const bodies: Buffer[] = [];
  tags.forEach((tag, i) => {
    const body = Buffer.from(tables[tag]!);
    head.write(tag.padEnd(4, ' '), 12 + 16 * i, 'latin1');
    head.writeUInt32BE(offset, 12 + 16 * i + 8);
    head.writeUInt32BE(body.length, 12 + 16 * i + 12);
    const padded = Buffer.alloc(Math.ceil(body.length / 4) * 4);
    body.copy(padded);
    bodies.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([head, ...bodies]);
}

function u16(...values: number[]): Buffer {
  const b = Buffer.alloc(2 * values.length);
  values.forEach((v, i) => {
    b.writeUInt16BE(v & 0xffff, 2 * i);
  });
  return b;
}

/** The tables every font needs: head, hhea, maxp, hmtx, and a cmap (format 4) mapping each code point to a glyph. */
function commonTables(numGlyphs: number, cmap: ReadonlyMap<number, number>, longLoca = 1): Record<string, Buffer> {
  const head = Buffer.alloc(54);
  head.writeUInt32BE(0x00010000, 0);
  head.writeUInt32BE(0x5f0f3cf5, 12);
  head.writeUInt16BE(1000, 18); // units per em
  head.writeInt16BE(0, 36);
  head.writeInt16BE(-200, 38);
  head.writeInt16BE(1000, 40);
  head.writeInt16BE(800, 42);
  head.writeInt16BE(longLoca, 50);
  const hhea = Buffer.alloc(36);
  hhea.writeUInt32BE(0x00010000, 0);
  hhea.writeInt16BE(800, 4); // ascent
  hhea.writeInt16BE(-200, 6); // descent
  hhea.writeUInt16BE(600, 10);
  hhea.writeUInt16BE(numGlyphs, 34);
  const maxp = Buffer.alloc(32);
  maxp.writeUInt32BE(0x00010000, 0);
  maxp.writeUInt16BE(numGlyphs, 4);
  const hmtx = Buffer.concat(Array.from({ length: numGlyphs }, () => u16(600, 0)));
  // Format 4: one segment per code point (idDelta maps it), then the closing 0xFFFF segment.
  const points = [...cmap.keys()].sort((a, b) => a - b);
  const seg = points.length + 1;
  const sub = Buffer.concat([
    u16(4, 16 + 8 * seg, 0, 2 * seg, 0, 0, 0),
    u16(...points, 0xffff),
    u16(0),
    u16(...points, 0xffff),
    u16(...points.map((cp) => cmap.get(cp)! - cp), 1),
    u16(...points.map(() => 0), 0),
  ]);
  const cmapTable = Buffer.concat([u16(0, 1, 3, 1), Buffer.from([0, 0, 0, 12]), sub]);
  return { head, hhea, maxp, hmtx, cmap: cmapTable };
}

/** A TrueType font of these glyph records (glyph 0 first), the code points given mapped to glyph ids. */
export function trueTypeFont(glyphs: Uint8Array[], cmap: ReadonlyMap<number, number>): Buffer {
  const loca = Buffer.alloc(4 * (glyphs.length + 1));
  let at = 0;
  const padded = glyphs.map((g, i) => {
    loca.writeUInt32BE(at, 4 * i);
    const p = Buffer.alloc(Math.ceil(g.length / 4) * 4);
    Buffer.from(g).copy(p);
    at += p.length;
    return p;
  });
  loca.writeUInt32BE(at, 4 * glyphs.length);
  return sfnt({ ...commonTables(glyphs.length, cmap), loca, glyf: Buffer.concat(padded) });
}

/** A simple glyph: one closed contour through these on-curve points (absolute coordinates as 16-bit deltas). */
export function simpleGlyph(points: readonly (readonly [number, number])[]): Buffer {
  const header = u16(1, 0, 0, 1000, 1000); // 1 contour and its box
  const flags = Buffer.alloc(points.length, 0x01); // on curve, 16-bit x and y deltas
  const xs: number[] = [];
  const ys: number[] = [];
  let px = 0,
    py = 0;
  for (const [x, y] of points) {
    xs.push(x - px);
    ys.push(y - py);
    px = x;
    py = y;
  }
  return Buffer.concat([header, u16(points.length - 1), u16(0), flags, u16(...xs), u16(...ys)]);
}

/** A composite glyph of these components, each placed at (0, 0) with byte offsets. */
export function compositeGlyph(components: readonly number[]): Buffer {
  const parts = components.map((gid, i) =>
    Buffer.concat([u16(i < components.length - 1 ? 0x0020 : 0, gid), Buffer.from([0, 0])]),
  );
  return Buffer.concat([u16(0xffff, 0, 0, 1000, 1000), ...parts]);
}

const SQUARE = simpleGlyph([
  [100, 0],
  [500, 0],
  [500, 700],
  [100, 700],
]);

/** A valid font: A and B are squares, C a composite of two squares. */
export function squareFont(): Buffer {
  return trueTypeFont(
    [Buffer.alloc(0), SQUARE, SQUARE, compositeGlyph([1, 2])],
    new Map([
      [0x41, 1],
      [0x42, 2],
      [0x43, 3],
    ]),
  );
}

/** `A` is glyph `levels`: each level a composite of the level below, twice (2^levels squares once expanded). */
export function doublingCompositeFont(levels: number): Buffer {
  const glyphs: Uint8Array[] = [Buffer.alloc(0), SQUARE];
  for (let g = 2; g <= levels + 1; g++) glyphs.push(compositeGlyph([g - 1, g - 1]));
  return trueTypeFont(glyphs, new Map([[0x41, levels + 1]]));
}

/** `A` is a composite that uses itself. */
export function selfCompositeFont(): Buffer {
  return trueTypeFont([Buffer.alloc(0), compositeGlyph([1])], new Map([[0x41, 1]]));
}

/**
 * `A` (and the `glyphs - 1` letters after it, each a glyph of its own) has `contours` contour ends, every one at the
 * last of its 65,535 points: fontkit looks each point up among them (contours x points steps) while the glyph is only
 * ~2 x contours bytes long.
 */
export function manyContourFont(contours: number, glyphs = 1): Buffer {
  const points = 65535;
  const repeats: number[] = [];
  // Flags: on curve, x and y the same as the last point (no coordinate bytes), repeated 255 times a byte pair.
  for (let left = points; left > 0; left -= 256) repeats.push(0x39, Math.min(255, left - 1));
  const ends = Buffer.alloc(2 * contours);
  for (let i = 0; i < contours; i++) ends.writeUInt16BE(points - 1, 2 * i);
  const glyph = Buffer.concat([u16(contours, 0, 0, 1000, 1000), ends, u16(0), Buffer.from(repeats)]);
  return trueTypeFont([Buffer.alloc(0), ...Array.from({ length: glyphs }, () => glyph)], letters(glyphs));
}

/** A, B, C... mapped to glyphs 1, 2, 3... */
function letters(glyphs: number): Map<number, number> {
  return new Map(Array.from({ length: glyphs }, (_, i) => [0x41 + i, 1 + i]));
}

/** A CFF INDEX of these items (offsets 4 bytes wide). */
function cffIndex(items: readonly Uint8Array[]): Buffer {
  if (items.length === 0) return u16(0);
  const offsets = Buffer.alloc(4 * (items.length + 1));
  let at = 1;
  items.forEach((item, i) => {
    offsets.writeUInt32BE(at, 4 * i);
    at += item.length;
  });
  offsets.writeUInt32BE(at, 4 * items.length);
  return Buffer.concat([u16(items.length), Buffer.from([4]), offsets, ...items.map((i) => Buffer.from(i))]);
}

/** A DICT operand as a 5-byte integer. */
function int32(v: number): Buffer {
  const b = Buffer.alloc(5);
  b[0] = 29;
  b.writeInt32BE(v, 1);
  return b;
}

/** A Type 2 charstring number between -107 and 107. */
function small(v: number): number {
  return v + 139;
}

/** A Type 2 charstring number between -1131 and 1131. */
function num(v: number): number[] {
  if (Math.abs(v) <= 107) return [small(v)];
  const w = Math.abs(v) - 108;
  return [(v > 0 ? 247 : 251) + (w >> 8), w & 0xff];
}

/** An OpenType (CFF) font whose glyph 1 (`A`, and `glyphs - 1` glyphs after it) runs `charstring`, with these subroutines. */
export function cffFont(charstring: Uint8Array, globalSubrs: readonly Uint8Array[], glyphs = 1): Buffer {
  const header = Buffer.from([1, 0, 4, 4]);
  const names = cffIndex([Buffer.from('Hostile')]);
  const strings = cffIndex([]);
  const gsubrs = cffIndex(globalSubrs);
  const charStrings = cffIndex([Buffer.from([14]), ...Array.from({ length: glyphs }, () => charstring)]);
  const priv = Buffer.from([small(0), 20]); // defaultWidthX 0
  // The top DICT's size does not depend on the offsets it holds (5-byte operands).
  const topSize = 2 * 5 + 1 + 5 + 1;
  const topIndexSize = 2 + 1 + 8 + topSize;
  const charStringsAt = header.length + names.length + topIndexSize + strings.length + gsubrs.length;
  const privateAt = charStringsAt + charStrings.length;
  const top = Buffer.concat([
    int32(charStringsAt),
    Buffer.from([17]),
    int32(priv.length),
    int32(privateAt),
    Buffer.from([18]),
  ]);
  const cff = Buffer.concat([header, names, cffIndex([top]), strings, gsubrs, charStrings, priv]);
  const post = Buffer.alloc(32);
  post.writeUInt32BE(0x00030000, 0);
  return sfnt({ ...commonTables(1 + glyphs, letters(glyphs)), 'CFF ': cff, post }, 0x4f54544f);
}

/** A CFF rectangle as the TrueType squares are (100,0 to 500,700): move, three lines, end. */
export function cffSquareFont(): Buffer {
  const path = [[100, 0, 21], [400, 0, 0, 700, -400, 0, 5], [14]];
  return cffFont(Buffer.from(path.flatMap((op) => [...op.slice(0, -1).flatMap(num), op.at(-1)!])), []);
}

/** Global subroutine i calls subroutine i + 1 twice, `levels` deep: 2^levels line segments (in `glyphs` glyphs). */
export function doublingSubrFont(levels: number, glyphs = 1): Buffer {
  const subrs: Buffer[] = [];
  for (let i = 0; i < levels; i++) subrs.push(Buffer.from([small(i + 1 - 107), 29, small(i + 1 - 107), 29, 11]));
  subrs.push(Buffer.from([small(1), small(1), 5, 11]));
  return cffFont(Buffer.from([small(0), small(0), 21, small(-107), 29, 14]), subrs, glyphs);
}
