// POST /graphics (off by default): a multipart `file` image in, ZPL text with one ^GFA field out, or the same
// data as JSON (`Accept: application/json`). `?dither=true` diffuses greys; otherwise a 50% threshold.

import { PlainHttpError } from '../http-errors.js';
import { header, sendBody, type LegacyRequest, type LegacyResponse } from '../http.js';
import { readZplBody } from '../request-body.js';
import { graphicFieldZpl, ImageError, imageToGraphicField, type Conversion, type GraphicField } from './image-to-gf.js';

const YES = /^(1|true|yes|on|floyd-steinberg)$/i;

function conversionOf(url: string): { conversion: Conversion; threshold: number } {
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const dither = query.get('dither');
  const thresholdText = query.get('threshold');
  const threshold = thresholdText === null ? 128 : Number(thresholdText);
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 255) {
    throw new PlainHttpError(400, `Invalid threshold ${thresholdText}; expected a whole number from 1 to 255`);
  }
  return { conversion: dither !== null && YES.test(dither) ? 'dither' : 'threshold', threshold };
}

export function graphicsEndpoint(maxBodyBytes: number) {
  return async (req: LegacyRequest, res: LegacyResponse): Promise<void> => {
    const { conversion, threshold } = conversionOf(req.url ?? '/');
    const { zpl: image } = await readZplBody(req, maxBodyBytes);
    if (image.length === 0) throw new PlainHttpError(400, "No image: send it as the multipart field 'file'");
    let gf: GraphicField;
    try {
      gf = await imageToGraphicField(image, conversion, threshold);
    } catch (err) {
      if (err instanceof ImageError) throw new PlainHttpError(err.status, err.message);
      throw err;
    }
    if (/application\/json/i.test(header(req, 'Accept') ?? '')) {
      const json = { totalBytes: gf.totalBytes, rowBytes: gf.rowBytes, width: gf.width, height: gf.height, data: gf.data };
      sendBody(res, 200, 'application/json; charset=utf-8', JSON.stringify(json));
      return;
    }
    sendBody(res, 200, 'text/plain; charset=utf-8', graphicFieldZpl(gf));
  };
}
