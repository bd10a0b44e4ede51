// PNG in and out for the comparison, through jimp (the project's image library): any PNG a legacy service
// or this renderer writes becomes grey pixels; a difference picture becomes an RGB PNG.

import { Jimp } from 'jimp';
import { greyFromRgba, type GreyImage, type RgbaImage } from './ink-f1.js';

export async function decodeGreyPng(png: Uint8Array): Promise<GreyImage> {
  const image = await Jimp.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const { width, height, data } = image.bitmap;
  return greyFromRgba(width, height, data);
}

export async function encodeRgbaPng(image: RgbaImage): Promise<Buffer> {
  const { width, height, rgba } = image;
  return Jimp.fromBitmap({ width, height, data: Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength) }).getBuffer(
    'image/png',
  );
}
