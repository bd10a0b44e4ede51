// The sfnt container of a TrueType font: its table directory read, and a font written from tables (sorted tags,
// four-byte aligned, each table's checksum and head's checkSumAdjustment), as the OpenType specification lays it out.

/** The tables of a font by tag (`head`, `cvt `...), each the bytes of the table alone. */
export type SfntTables = Map<string, Uint8Array>;

/** sfnt version of TrueType outlines. */
export const TRUETYPE_VERSION = 0x00010000;
/** Apple's tag for TrueType outlines, also accepted by readers. */
export const APPLE_TRUETYPE_VERSION = 0x74727565;

/** The tables of an sfnt whose directory lies within its bytes (checkFontTables has said so, or we wrote it). */
export function readTables(font: Uint8Array): SfntTables {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables: SfntTables = new Map();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(font[at]!, font[at + 1]!, font[at + 2]!, font[at + 3]!);
    const offset = view.getUint32(at + 8);
    tables.set(tag, font.subarray(offset, offset + view.getUint32(at + 12)));
  }
  return tables;
}

/** The sum of the table as big-endian 32-bit words, the last one padded with zeros. */
function checksum(bytes: Uint8Array): number {
  let sum = 0;
  const whole = bytes.length & ~3;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < whole; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  let last = 0;
  for (let i = whole; i < bytes.length; i++) last |= bytes[i]! << (8 * (3 - (i - whole)));
  return (sum + last) >>> 0;
}

const padded = (n: number): number => (n + 3) & ~3;

/** A TrueType font file of these tables. */
export function writeSfnt(tables: SfntTables): Uint8Array {
  const tags = [...tables.keys()].sort();
  const headerBytes = 12 + 16 * tags.length;
  const size = tags.reduce((n, tag) => n + padded(tables.get(tag)!.length), headerBytes);
  const font = new Uint8Array(size);
  const view = new DataView(font.buffer);
  const power = 2 ** Math.floor(Math.log2(tags.length));
  view.setUint32(0, TRUETYPE_VERSION);
  view.setUint16(4, tags.length);
  view.setUint16(6, power * 16);
  view.setUint16(8, Math.log2(power));
  view.setUint16(10, tags.length * 16 - power * 16);
  let offset = headerBytes;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const table = tables.get(tag)!;
    const at = 12 + 16 * i;
    for (let c = 0; c < 4; c++) font[at + c] = tag.charCodeAt(c);
    font.set(table, offset);
    if (tag === 'head') {
      headAt = offset;
      view.setUint32(offset + 8, 0); // checkSumAdjustment is summed as zero
    }
    view.setUint32(at + 4, checksum(font.subarray(offset, offset + table.length)));
    view.setUint32(at + 8, offset);
    view.setUint32(at + 12, table.length);
    offset += padded(table.length);
  });
  if (headAt >= 0) view.setUint32(headAt + 8, (0xb1b0afba - checksum(font)) >>> 0);
  return font;
}
