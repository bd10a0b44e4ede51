// An image (PNG, JPEG, GIF, BMP) as a ZPL ^GFA field: decoded with jimp, flattened onto white, turned into
// 1-bit rows by a threshold or by Floyd-Steinberg dithering, written as ASCII hex. No HTTP here; it runs in
// graphics-worker.ts, and checkImageSize runs before, on the request's thread (which never loads jimp).

import { readImageHeader } from '../../renderer/decode/image-header.js';

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

/** Largest image converted (4096 x 4096); every size field of the header is read before anything is decoded. */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

export class ImageError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413,
  ) {
    super(message);
    this.name = 'ImageError';
  }
}

/** Refuses an image that is not one we read, or whose largest size field (any IHDR, GIF frame, JPEG frame) is over the budget. */
export function checkImageSize(bytes: Uint8Array): void {
  const header = readImageHeader(bytes);
  if (!header) throw new ImageError('The file is not a PNG, JPEG, GIF or BMP image', 400);
  if (header.pixels > MAX_IMAGE_PIXELS) {
    throw new ImageError(
      `Image is ${header.width}x${header.height} pixels; the limit is ${MAX_IMAGE_PIXELS} pixels`,
      413,
    );
  }
}

export async function imageToGraphicField(
  bytes: Uint8Array,
  conversion: Conversion,
  threshold = 128,
): Promise<GraphicField> {
  checkImageSize(bytes);
  const { Jimp } = await import('jimp');
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (err) {
    throw new ImageError(`The image could not be decoded (${(err as Error).message})`, 400);
  }
  const { width, height, data } = image.bitmap;
  const grey = greyOnWhite(width, height, data);
  const ink =
    conversion === 'dither' ? ditherFloydSteinberg(grey, width, height, threshold) : thresholdInk(grey, threshold);
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
