// POST /graphics (off by default): a multipart `file` image in, ZPL text with one ^GFA field out, the same data as
// JSON (`Accept: application/json`), or with the outputs switched on, ZPL as `application/zpl` and a print job in a
// printer language (`Accept: application/epl`...): the ZPL drawn by the renderer as one label of the image's size.
// `?dither=true` diffuses greys; otherwise a 50% threshold. Every size field of the image is checked here, before
// anything is decoded; decoding runs in a worker with a time and a memory budget.

import { dotsPerInch, type Dpmm, type PrinterLanguage } from '../../renderer/api.js';
import type { RenderFn } from '../../renderer/pool/index.js';
import { GRAPHICS_QUERY, graphicsDensity, type ExtraOutput } from '../api-table/index.js';
import { PlainHttpError } from '../http/http-errors.js';
import { header, sendBody, type LegacyRequest, type LegacyResponse } from '../http/http.js';
import { readZplBody } from '../http/request-body.js';
import { mediaTypeOf } from '../http/request-headers.js';
import { requestState } from '../http/request-state.js';
import { createTaskWorker, TaskRefusedError } from '../workers/task-worker.js';
import { graphicsAnswer } from './answer-type.js';
import type { ConvertReply, ConvertTask } from './graphics-worker.js';
import { checkImageSize, graphicFieldZpl, ImageError, type Conversion, type GraphicField } from './image-to-gf.js';

const YES = /^(1|true|yes|on|floyd-steinberg)$/i;
const WORKER_URL = new URL('./graphics-worker.js', import.meta.url);

/** Time one conversion may take in the worker. */
export const GRAPHICS_TIMEOUT_MS = 10_000;
/** Conversions that may wait for the worker; more are a 503. */
export const GRAPHICS_MAX_WAITING = 8;

function queryOf(url: string): URLSearchParams {
  return new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
}

function conversionOf(query: URLSearchParams): { conversion: Conversion; threshold: number } {
  const dither = query.get(GRAPHICS_QUERY.dither.name);
  const thresholdText = query.get(GRAPHICS_QUERY.threshold.name);
  const threshold = thresholdText === null ? 128 : Number(thresholdText);
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 255) {
    throw new PlainHttpError(400, `Invalid threshold ${thresholdText}; expected a whole number from 1 to 255`);
  }
  return { conversion: dither !== null && YES.test(dither) ? 'dither' : 'threshold', threshold };
}

/** A print job's density: `?dpmm=`, or the default. */
function densityOf(query: URLSearchParams): Dpmm {
  const text = query.get(GRAPHICS_QUERY.dpmm.name);
  if (text === null) return GRAPHICS_QUERY.dpmm.default;
  const dpmm = graphicsDensity(text);
  if (dpmm === undefined) throw new PlainHttpError(400, `Unknown print density ${text}; valid values: 6, 8, 12, 24`);
  return dpmm;
}

export interface GraphicsOptions {
  maxBodyBytes: number;
  /** The outputs switched on (router option `outputs`): `zpl` and the printer languages are answered when asked for. */
  outputs: readonly ExtraOutput[];
  /** The router's renderer, which draws a print job. */
  render: RenderFn;
  /** Most pixels one label may have (the router's maxPixels; default the renderer's). */
  maxPixels?: number | undefined;
  /** Time one image conversion may take in the worker. */
  timeoutMs?: number;
}

export interface GraphicsEndpoint {
  handle(req: LegacyRequest, res: LegacyResponse): Promise<void>;
  /** Stops the conversion worker. */
  close(): Promise<void>;
}

export function graphicsEndpoint({
  maxBodyBytes,
  outputs,
  render,
  maxPixels,
  timeoutMs = GRAPHICS_TIMEOUT_MS,
}: GraphicsOptions): GraphicsEndpoint {
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
  /** The field's ZPL drawn as one label of its size at `dpmm`, as a print job in `language`. */
  const printJob = async (
    gf: GraphicField,
    language: PrinterLanguage,
    dpmm: Dpmm,
    res: LegacyResponse,
  ): Promise<Uint8Array> => {
    // A client that hangs up cancels the render.
    const hangUp = new AbortController();
    res.once('close', () => {
      if (!res.writableEnded) hangUp.abort();
    });
    const dpi = dotsPerInch(dpmm);
    const key = requestState(res).key;
    const job = await render(graphicFieldZpl(gf), {
      format: language,
      dpmm,
      widthIn: gf.width / dpi,
      heightIn: gf.height / dpi,
      index: 0,
      signal: hangUp.signal,
      ...(key && { tenant: key.id }),
      ...(maxPixels !== undefined && { maxPixels }),
    });
    return job.body;
  };
  const handle = async (req: LegacyRequest, res: LegacyResponse): Promise<void> => {
    const query = queryOf(req.url ?? '/');
    const { conversion, threshold } = conversionOf(query);
    const answer = graphicsAnswer(header(req, 'Accept'), outputs);
    const dpmm = answer.kind === 'job' ? densityOf(query) : undefined;
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
    if (answer.kind === 'json') {
      const json = {
        totalBytes: gf.totalBytes,
        rowBytes: gf.rowBytes,
        width: gf.width,
        height: gf.height,
        data: gf.data,
      };
      sendBody(res, 200, 'application/json; charset=utf-8', JSON.stringify(json));
    } else if (answer.kind === 'job') {
      const job = await printJob(gf, answer.language, dpmm!, res);
      sendBody(res, 200, mediaTypeOf(answer.language), Buffer.from(job.buffer, job.byteOffset, job.byteLength));
    } else {
      sendBody(res, 200, answer.kind === 'zpl' ? mediaTypeOf('zpl') : 'text/plain; charset=utf-8', graphicFieldZpl(gf));
    }
  };
  return { handle, close: () => worker.close() };
}
