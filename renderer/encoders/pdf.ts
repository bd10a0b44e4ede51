// PDF through pdf-lib: one label-sized page per label, each label drawn as a 1-bit image.

import { PDFDocument, PDFName, popGraphicsState, pushGraphicsState, concatTransformationMatrix, drawObject } from 'pdf-lib';
import type { Raster } from '../raster/raster.js';
import { BITONAL_THRESHOLD } from './png.js';

/** `widthPt`/`heightPt`: the label size in points (72 per inch), e.g. 288x432 for 4x6. */
export async function encodePdf(labels: Iterable<Raster>, widthPt: number, heightPt: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  let n = 0;
  for (const r of labels) {
    const page = doc.addPage([widthPt, heightPt]);
    const stream = doc.context.flateStream(packBits(r), {
      Type: 'XObject', Subtype: 'Image', Width: r.width, Height: r.height, ColorSpace: 'DeviceGray', BitsPerComponent: 1,
    });
    const ref = doc.context.register(stream);
    const name = `Im${n++}`;
    page.node.setXObject(PDFName.of(name), ref);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(widthPt, 0, 0, heightPt, 0, 0), drawObject(name), popGraphicsState());
  }
  return doc.save({ useObjectStreams: false });
}

/** 1-bit rows, 1 = white (DeviceGray), thresholded like bitonal PNG. */
function packBits(r: Raster): Uint8Array {
  const stride = (r.width + 7) >> 3;
  const out = new Uint8Array(stride * r.height);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      if (r.ink[y * r.width + x] < BITONAL_THRESHOLD) out[y * stride + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return out;
}
