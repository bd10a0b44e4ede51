// The size an image from outside declares, read from EVERY size field before any decoder allocates: each PNG
// IHDR, the GIF screen and each frame descriptor, each JPEG start-of-frame, the BMP header. A decoder may
// believe any one of them (a second IHDR, one huge GIF frame), so the largest is what a budget must check.

export type ImageFormat = 'png' | 'gif' | 'jpeg' | 'bmp';

export interface ImageHeader {
  format: ImageFormat;
  /** Width and height of the largest size field (by area). */
  width: number;
  height: number;
  /** The largest area any size field declares. */
  pixels: number;
  /** Every size field read, in file order (IHDRs, GIF screen and frames, JPEG frames; one for BMP). */
  sizes: ImageSize[];
}

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image's format and largest declared size; undefined when it is none of PNG, GIF, JPEG, BMP or its header is cut short. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 8 && PNG_SIGNATURE.every((v, i) => bytes[i] === v)) return largest('png', pngSizes(bytes, view));
  if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46)
    return largest('gif', gifSizes(bytes, view));
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return largest('jpeg', jpegSizes(bytes, view));
  if (bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d) return largest('bmp', bmpSizes(view));
  return undefined;
}

function largest(format: ImageFormat, sizes: ImageSize[]): ImageHeader | undefined {
  if (sizes.length === 0) return undefined;
  let best = sizes[0]!;
  for (const size of sizes) if (size.width * size.height > best.width * best.height) best = size;
  return { format, width: best.width, height: best.height, pixels: best.width * best.height, sizes };
}

/** Every IHDR chunk, wherever it stands (the chunk walk stops at IEND or where the data ends). */
function pngSizes(b: Uint8Array, view: DataView): ImageSize[] {
  const sizes: ImageSize[] = [];
  for (let p = 8; p + 8 <= b.length; ) {
    const length = view.getUint32(p);
    const type = String.fromCharCode(b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!);
    if (type === 'IHDR') {
      if (p + 16 > b.length) break;
      sizes.push({ width: view.getUint32(p + 8), height: view.getUint32(p + 12) });
    } else if (type === 'IEND') break;
    p += 12 + length;
  }
  return sizes;
}

/** The logical screen and every image descriptor, walking the blocks (extensions and frame data skipped by their sub-block lengths). */
function gifSizes(b: Uint8Array, view: DataView): ImageSize[] {
  const sizes: ImageSize[] = [{ width: view.getUint16(6, true), height: view.getUint16(8, true) }];
  let p = 13;
  const packed = b[10]!;
  if (packed & 0x80) p += 3 * (1 << ((packed & 0x07) + 1)); // global colour table
  const skipSubBlocks = (): void => {
    while (p < b.length) {
      const size = b[p]!;
      p += 1 + size;
      if (size === 0) return;
    }
  };
  while (p < b.length) {
    const block = b[p]!;
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      // extension: label, then sub-blocks
      p += 2;
      skipSubBlocks();
    } else if (block === 0x2c) {
      // image descriptor
      if (p + 10 > b.length) break;
      const left = view.getUint16(p + 1, true),
        top = view.getUint16(p + 3, true);
      const width = view.getUint16(p + 5, true),
        height = view.getUint16(p + 7, true);
      // A frame placed off the screen makes some decoders grow the canvas to hold it.
      sizes.push({ width, height }, { width: left + width, height: top + height });
      const local = b[p + 9]!;
      p += 10;
      if (local & 0x80) p += 3 * (1 << ((local & 0x07) + 1));
      p += 1; // LZW minimum code size
      skipSubBlocks();
    } else break; // not a GIF block: what follows is not read by decoders either
  }
  return sizes;
}

/** Start-of-frame markers that carry a frame size (not DHT C4, JPG C8, DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Every start-of-frame segment, including any after the first scan (entropy-coded data is skipped to the next marker). */
function jpegSizes(b: Uint8Array, view: DataView): ImageSize[] {
  const sizes: ImageSize[] = [];
  let p = 2;
  while (p + 4 <= b.length) {
    if (b[p] !== 0xff) return sizes;
    const marker = b[p + 1]!;
    if (marker === 0xff) {
      p++;
      continue;
    } // fill byte
    if (marker === 0xd9) break; // end of image
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    } // no length
    const length = view.getUint16(p + 2);
    if (isStartOfFrame(marker)) {
      if (p + 9 > b.length) break;
      // A height of 0 (defined later by a DNL segment) is refused as unreadable.
      const size = { width: view.getUint16(p + 7), height: view.getUint16(p + 5) };
      if (size.width === 0 || size.height === 0) return [];
      sizes.push(size);
    }
    p += 2 + length;
    if (marker === 0xda) p = nextMarker(b, p); // start of scan: skip the coded data
  }
  return sizes;
}

/** Index of the next marker after entropy-coded data (0xFF followed by anything but 0x00 or a restart marker). */
function nextMarker(b: Uint8Array, from: number): number {
  for (let p = from; p + 1 < b.length; p++) {
    if (b[p] !== 0xff) continue;
    const next = b[p + 1]!;
    if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) return p;
  }
  return b.length;
}

/** BITMAPCOREHEADER (12 bytes: 16-bit sizes) or any later header (32-bit signed sizes; negative height is top-down). */
function bmpSizes(view: DataView): ImageSize[] {
  const headerSize = view.getUint32(14, true);
  if (headerSize === 12) return [{ width: view.getUint16(18, true), height: view.getUint16(20, true) }];
  return [{ width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) }];
}
