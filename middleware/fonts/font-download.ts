// A TrueType font as the ZPL that stores it on the printer: `~DUd:o.x,s,data` (the file as ASCII hex, its size in
// bytes) and, with a one-letter name, `^CW` to make `^A<name>` draw with it, in one format. The font's structure is
// checked before fontkit reads it (the renderer's checkFontTables), its embedding bits (OS/2 fsType) are honoured,
// and it is cut down to the characters asked for. No HTTP here; it runs in fonts-worker.ts.

import { checkFontTables } from '../../renderer/decode/font-tables.js';
import { create } from 'fontkit';
import { subsetFont, type KeptCharacters } from './font-subset.js';
import { APPLE_TRUETYPE_VERSION, readTables, TRUETYPE_VERSION } from './sfnt.js';

/** What to make of the font: where it is stored, the name `^CW` gives it, the characters it keeps. */
export interface FontOrder {
  /** `R:NAME.TTF`; chosen from the font's PostScript name when not given. */
  path?: string;
  /** One of I K M O W X Y Z. */
  name?: string;
  /** Cut the font down to these characters; all of them when not given. */
  keep?: KeptCharacters;
}

export interface FontDownload {
  zpl: string;
  /** Where the ZPL stores the font. */
  path: string;
  /** Size of the font stored, in bytes. */
  bytes: number;
}

/** A font refused for what it is: the message of the request's 400. */
export class FontError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FontError';
  }
}

/** OS/2 fsType bits (OpenType specification): the usage permissions are bits 1 to 3, the least restrictive set wins. */
const FS_TYPE = {
  restricted: 0x0002,
  usage: 0x000e,
  noSubsetting: 0x0100,
  bitmapOnly: 0x0200,
} as const;

/** The embedding bits of the font's OS/2 table (0, no restriction, when it has none). */
function embeddingBits(bytes: Uint8Array): number {
  const os2 = readTables(bytes).get('OS/2');
  return os2 && os2.length >= 10 ? (os2[8]! << 8) | os2[9]! : 0;
}

/** Refuses a font that is not TrueType, that the renderer would not open, or whose embedding bits forbid the order. */
function checkFont(bytes: Uint8Array, subsetting: boolean): void {
  const version = bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(0) : 0;
  const why = checkFontTables(bytes, { claim() {}, charge() {} });
  if (typeof why === 'string') throw new FontError(`The file is not a TrueType font: ${why}`);
  if (version !== TRUETYPE_VERSION && version !== APPLE_TRUETYPE_VERSION)
    throw new FontError('The file is not a TrueType font: it is an OpenType font with CFF outlines');
  const fsType = embeddingBits(bytes);
  if ((fsType & FS_TYPE.usage) === FS_TYPE.restricted)
    throw new FontError("The font's licence forbids embedding it (OS/2 fsType 0x0002: restricted licence embedding)");
  if (fsType & FS_TYPE.bitmapOnly)
    throw new FontError("The font's licence allows embedding its bitmaps only (OS/2 fsType 0x0200), not its outlines");
  if (subsetting && fsType & FS_TYPE.noSubsetting)
    throw new FontError(
      "The font's licence forbids subsetting it (OS/2 fsType 0x0100: no subsetting); send it without chars or unicodes",
    );
}

/** `R:` and the font's PostScript name in letters and digits (at most 16), or `R:FONT.TTF`. */
function defaultPath(bytes: Uint8Array): string {
  let name: string | undefined;
  try {
    name = create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).postscriptName;
  } catch {
    name = undefined; // an unreadable name table only loses the name
  }
  const letters = (name ?? '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 16);
  return `R:${letters || 'FONT'}.TTF`;
}

/** `^XA~DUpath,size,hex[^CWname,path]^XZ`: the font stored, and named when a name is given. */
export function fontDownloadZpl(font: Uint8Array, path: string, name?: string): string {
  const hex = Buffer.from(font.buffer, font.byteOffset, font.byteLength).toString('hex').toUpperCase();
  return `^XA~DU${path},${font.length},${hex}${name ? `^CW${name},${path}` : ''}^XZ`;
}

export function fontToZpl(bytes: Uint8Array, order: FontOrder): FontDownload {
  checkFont(bytes, order.keep !== undefined);
  const path = order.path ?? defaultPath(bytes);
  if (!order.keep) return { zpl: fontDownloadZpl(bytes, path, order.name), path, bytes: bytes.length };
  const subset = subsetFont(bytes, order.keep);
  if (!subset) throw new FontError('The font has none of the characters asked for');
  return { zpl: fontDownloadZpl(subset, path, order.name), path, bytes: subset.length };
}
