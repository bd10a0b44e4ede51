// The fidelity metric, one implementation for the shadow comparison and `npm run fidelity`: both images
// thresholded at 50% grey; an ink pixel matches when the other image has ink within one pixel (Chebyshev
// distance 1); F1 of precision (over the rendering's ink) and recall (over the reference's ink). Different
// pixel sizes score 0. Pure functions on grey pixels: no decoding, no I/O.

export interface GreyImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black .. 255 white. */
  grey: Uint8Array;
}

export interface RgbaImage {
  width: number;
  height: number;
  /** Four bytes per pixel. */
  rgba: Uint8Array;
}

/** A region at the top left of a reference that holds the drawing (the rest is padding). */
export interface ReferenceCrop {
  width: number;
  height: number;
}

export interface InkScore {
  /** Ink F1 with one pixel of tolerance, 0..1. */
  f1: number;
  /** Ink F1 with no tolerance: an ink pixel matches only ink at the same pixel. */
  strictF1: number;
  /** Every pixel has the same grey value in both images (not just the same ink). */
  identical: boolean;
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

/** The top-left `crop` of an image (the image itself when no crop is given or it is not smaller). */
export function cropTopLeft(image: GreyImage, crop: ReferenceCrop | undefined): GreyImage {
  if (!crop || (crop.width >= image.width && crop.height >= image.height)) return image;
  const width = Math.min(crop.width, image.width);
  const height = Math.min(crop.height, image.height);
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) grey.set(image.grey.subarray(y * image.width, y * image.width + width), y * width);
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
      out[row + x] =
        across[row + x]! | (y > 0 ? across[row - width + x]! : 0) | (y < height - 1 ? across[row + width + x]! : 0);
    }
  }
  return out;
}

/** F1 of recall (found / referenceInk) and precision (found / renderedInk); no ink on a side counts as 1. */
function f1Of(refFound: number, refInk: number, gotFound: number, gotInk: number): number {
  const recall = refInk ? refFound / refInk : 1;
  const precision = gotInk ? gotFound / gotInk : 1;
  return recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
}

/** Both scores of `rendered` against `reference`. */
export function scoreInk(reference: GreyImage, rendered: GreyImage): InkScore {
  if (reference.width !== rendered.width || reference.height !== rendered.height)
    return { f1: 0, strictF1: 0, identical: false };
  const { width, height } = reference;
  const ref = inkMask(reference);
  const got = inkMask(rendered);
  const refNear = dilate(ref, width, height);
  const gotNear = dilate(got, width, height);
  let refInk = 0,
    gotInk = 0,
    refFound = 0,
    gotFound = 0,
    both = 0,
    differ = 0;
  for (let i = 0; i < ref.length; i++)
    if (reference.grey[i] !== rendered.grey[i]) {
      differ = 1;
      break;
    }
  for (let i = 0; i < ref.length; i++) {
    refInk += ref[i]!;
    gotInk += got[i]!;
    if (ref[i] && gotNear[i]) refFound++;
    if (got[i] && refNear[i]) gotFound++;
    both += ref[i]! & got[i]!;
  }
  return {
    f1: f1Of(refFound, refInk, gotFound, gotInk),
    strictF1: f1Of(both, refInk, both, gotInk),
    identical: differ === 0,
  };
}

/** Ink F1 of `rendered` against `reference`, 0..1 (the shadow comparison's score). */
export function inkF1(reference: GreyImage, rendered: GreyImage): number {
  return scoreInk(reference, rendered).f1;
}

/** RGBA picture of the difference: black = ink in both, red = only in the reference, blue = only rendered. */
export function inkDiffRgba(reference: GreyImage, rendered: GreyImage): RgbaImage {
  const width = Math.max(reference.width, rendered.width);
  const height = Math.max(reference.height, rendered.height);
  const at = (image: GreyImage, x: number, y: number): number =>
    x < image.width && y < image.height && image.grey[y * image.width + x]! < 128 ? 1 : 0;
  const rgba = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inRef = at(reference, x, y),
        inGot = at(rendered, x, y);
      if (inRef && inGot) rgba[o] = rgba[o + 1] = rgba[o + 2] = 0;
      else if (inRef) rgba[o + 1] = rgba[o + 2] = 0;
      else if (inGot) rgba[o] = rgba[o + 1] = 0;
    }
  }
  return { width, height, rgba };
}
