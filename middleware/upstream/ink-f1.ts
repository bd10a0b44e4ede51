// The fidelity metric of ../shared/tools/zpl-fidelity.mjs, re-implemented: both images thresholded at 50% grey,
// an ink pixel matches when the other image has ink within one pixel (Chebyshev distance 1); F1 of
// precision (over our ink) and recall (over the reference's ink). Different pixel sizes score 0.

export interface GreyImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black .. 255 white. */
  grey: Uint8Array;
}

/** RGBA pixels (as decoders give them) to grey: luma, alpha composited onto white. */
export function greyFromRgba(width: number, height: number, rgba: Uint8Array): GreyImage {
  const grey = new Uint8Array(width * height);
  for (let i = 0, o = 0; i < grey.length; i++, o += 4) {
    const luma = (rgba[o]! * 299 + rgba[o + 1]! * 587 + rgba[o + 2]! * 114) / 1000;
    const alpha = rgba[o + 3]!;
    grey[i] = Math.round((luma * alpha + 255 * (255 - alpha)) / 255);
  }
  return { width, height, grey };
}

function inkMask(image: GreyImage): Uint8Array {
  const mask = new Uint8Array(image.grey.length);
  for (let i = 0; i < mask.length; i++) mask[i] = image.grey[i]! < 128 ? 1 : 0;
  return mask;
}

/** Ink grown by one pixel in all eight directions. */
function dilate(mask: Uint8Array, width: number, height: number): Uint8Array {
  const across = new Uint8Array(mask.length);
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      across[row + x] = mask[row + x]! | (x > 0 ? mask[row + x - 1]! : 0) | (x < width - 1 ? mask[row + x + 1]! : 0);
    }
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      out[row + x] = across[row + x]! | (y > 0 ? across[row - width + x]! : 0) | (y < height - 1 ? across[row + width + x]! : 0);
    }
  }
  return out;
}

/** Ink F1 of `rendered` against `reference`, 0..1. */
export function inkF1(reference: GreyImage, rendered: GreyImage): number {
  if (reference.width !== rendered.width || reference.height !== rendered.height) return 0;
  const { width, height } = reference;
  const ref = inkMask(reference);
  const got = inkMask(rendered);
  const refNear = dilate(ref, width, height);
  const gotNear = dilate(got, width, height);
  let refInk = 0, gotInk = 0, refFound = 0, gotFound = 0;
  for (let i = 0; i < ref.length; i++) {
    refInk += ref[i]!;
    gotInk += got[i]!;
    if (ref[i] && gotNear[i]) refFound++;
    if (got[i] && refNear[i]) gotFound++;
  }
  const recall = refInk ? refFound / refInk : 1;
  const precision = gotInk ? gotFound / gotInk : 1;
  return recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
}
