// An image (PNG, JPEG, GIF, BMP) as a ZPL ^GFA field: decoded with jimp, flattened onto white, turned into
// 1-bit rows by a threshold or by Floyd-Steinberg dithering, written as ASCII hex. No HTTP here.

import { Jimp } from 'jimp';

export type Conversion = 'threshold' | 'dither';

export interface GraphicField {
  width: number;
  height: number;
  /** Bytes of one row: ceil(width / 8). */
  rowBytes: number;
  /** rowBytes x height. */
  totalBytes: number;
  /** ASCII hex of every row, 1 bits printed black. */
  data: string;
}

/** The ZPL a client prints: one ^GFA field at the label home. */
export function graphicFieldZpl(gf: GraphicField): string {
  return `^XA^FO0,0^GFA,${gf.totalBytes},${gf.totalBytes},${gf.rowBytes},${gf.data}^FS^XZ`;
}

/** Largest image converted (4096 x 4096); the size is read from the header before anything is decoded. */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

export class ImageError extends Error {
  constructor(message: string, readonly status: 400 | 413) {
    super(message);
    this.name = 'ImageError';
  }
}

export async function imageToGraphicField(bytes: Uint8Array, conversion: Conversion, threshold = 128): Promise<GraphicField> {
  const size = imageSize(bytes);
  if (!size) throw new ImageError('The file is not a PNG, JPEG, GIF or BMP image', 400);
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new ImageError(`Image is ${size.width}x${size.height} pixels; the limit is ${MAX_IMAGE_PIXELS} pixels`, 413);
  }
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (err) {
    throw new ImageError(`The image could not be decoded (${(err as Error).message})`, 400);
  }
  const { width, height, data } = image.bitmap;
  const grey = greyOnWhite(width, height, data);
  const ink = conversion === 'dither' ? ditherFloydSteinberg(grey, width, height, threshold) : thresholdInk(grey, threshold);
  return packRows(ink, width, height);
}

/** Luminance of each pixel composited over white paper (transparent pixels print nothing). */
function greyOnWhite(width: number, height: number, rgba: Uint8Array | Buffer): Float32Array {
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) {
    const a = rgba[i * 4 + 3]! / 255;
    const lum = 0.299 * rgba[i * 4]! + 0.587 * rgba[i * 4 + 1]! + 0.114 * rgba[i * 4 + 2]!;
    out[i] = lum * a + 255 * (1 - a);
  }
  return out;
}

function thresholdInk(grey: Float32Array, threshold: number): Uint8Array {
  return grey.map((g) => (g < threshold ? 1 : 0)) as unknown as Uint8Array;
}

/** Floyd-Steinberg error diffusion: mid greys become a dot pattern of the same average darkness. */
function ditherFloydSteinberg(source: Float32Array, width: number, height: number, threshold: number): Uint8Array {
  const grey = Float32Array.from(source);
  const ink = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const dark = grey[i]! < threshold;
      ink[i] = dark ? 1 : 0;
      const err = grey[i]! - (dark ? 0 : 255);
      if (x + 1 < width) grey[i + 1]! += (err * 7) / 16;
      if (y + 1 < height) {
        if (x > 0) grey[i + width - 1]! += (err * 3) / 16;
        grey[i + width]! += (err * 5) / 16;
        if (x + 1 < width) grey[i + width + 1]! += err / 16;
      }
    }
  }
  return ink;
}

function packRows(ink: Uint8Array, width: number, height: number): GraphicField {
  const rowBytes = Math.ceil(width / 8);
  const bytes = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (ink[y * width + x]) bytes[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return { width, height, rowBytes, totalBytes: bytes.length, data: bytes.toString('hex').toUpperCase() };
}

/** Width and height from the image header (PNG, GIF, BMP, JPEG), or undefined for anything else. */
export function imageSize(b: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const has = (n: number) => b.length >= n;
  if (has(24) && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (has(10) && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) {
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (has(26) && b[0] === 0x42 && b[1] === 0x4d) {
    return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
  }
  if (has(4) && b[0] === 0xff && b[1] === 0xd8) {
    // JPEG: walk the segments to the first start-of-frame marker.
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      const length = view.getUint16(i + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { width: view.getUint16(i + 7), height: view.getUint16(i + 5) };
      i += 2 + length;
    }
  }
  return undefined;
}
