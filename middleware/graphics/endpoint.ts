// POST /graphics (off by default): a multipart `file` image in, ZPL text with one ^GFA field out, or the same
// data as JSON (`Accept: application/json`). `?dither=true` diffuses greys; otherwise a 50% threshold.
// Every size field of the image is checked here, before anything is decoded; decoding runs in a worker with
// a time and a memory budget.

import { PlainHttpError } from '../http/http-errors.js';
import { header, sendBody, type LegacyRequest, type LegacyResponse } from '../http/http.js';
import { readZplBody } from '../http/request-body.js';
import { createTaskWorker, TaskRefusedError } from '../workers/task-worker.js';
import type { ConvertReply, ConvertTask } from './graphics-worker.js';
import { checkImageSize, graphicFieldZpl, ImageError, type Conversion } from './image-to-gf.js';

const YES = /^(1|true|yes|on|floyd-steinberg)$/i;
const WORKER_URL = new URL('./graphics-worker.js', import.meta.url);

/** Time one conversion may take in the worker. */
export const GRAPHICS_TIMEOUT_MS = 10_000;
/** Conversions that may wait for the worker; more are a 503. */
export const GRAPHICS_MAX_WAITING = 8;

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

export interface GraphicsEndpoint {
  handle(req: LegacyRequest, res: LegacyResponse): Promise<void>;
  /** Stops the conversion worker. */
  close(): Promise<void>;
}

export function graphicsEndpoint(maxBodyBytes: number, timeoutMs = GRAPHICS_TIMEOUT_MS): GraphicsEndpoint {
  const worker = createTaskWorker<ConvertTask, ConvertReply>(WORKER_URL, {
    timeoutMs,
    maxWaiting: GRAPHICS_MAX_WAITING,
    // jimp's bitmaps are outside the heap; the pixel budget bounds them, this bounds the rest.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  const convert = async (task: ConvertTask): Promise<ConvertReply> => {
    try {
      return await worker.run(task);
    } catch (err) {
      if (!(err instanceof TaskRefusedError)) throw err;
      if (err.reason === 'busy') throw new PlainHttpError(503, 'The image converter is busy; retry shortly');
      if (err.reason === 'timeout')
        throw new PlainHttpError(500, `The image could not be converted within ${timeoutMs} ms`);
      if (err.reason === 'crashed')
        throw new PlainHttpError(413, 'The image could not be converted within the memory budget');
      if (err.reason === 'closed') throw new PlainHttpError(500, 'The image converter is shutting down');
      throw new PlainHttpError(400, `The image could not be decoded (${err.message})`);
    }
  };
  const handle = async (req: LegacyRequest, res: LegacyResponse): Promise<void> => {
    const { conversion, threshold } = conversionOf(req.url ?? '/');
    const { zpl: image } = await readZplBody(req, maxBodyBytes);
    if (image.length === 0) throw new PlainHttpError(400, "No image: send it as the multipart field 'file'");
    try {
      checkImageSize(image);
    } catch (err) {
      if (err instanceof ImageError) throw new PlainHttpError(err.status, err.message);
      throw err;
    }
    const reply = await convert({ image, conversion, threshold });
    if ('refused' in reply) throw new PlainHttpError(reply.refused.status, reply.refused.message);
    const gf = reply.field;
    if (/application\/json/i.test(header(req, 'Accept') ?? '')) {
      const json = {
        totalBytes: gf.totalBytes,
        rowBytes: gf.rowBytes,
        width: gf.width,
        height: gf.height,
        data: gf.data,
      };
      sendBody(res, 200, 'application/json; charset=utf-8', JSON.stringify(json));
      return;
    }
    sendBody(res, 200, 'text/plain; charset=utf-8', graphicFieldZpl(gf));
  };
  return { handle, close: () => worker.close() };
}
