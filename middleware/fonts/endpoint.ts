// POST /fonts (off by default): a multipart TrueType `file` in, with optional `path`, `name`, `chars` and `unicodes`;
// out, ZPL text that stores the font with ~DU (and names it with ^CW). The form is checked here; the font is read,
// checked and subset in a worker with a time and a memory budget.

import { PlainHttpError } from '../http/http-errors.js';
import { sendBody, type LegacyRequest, type LegacyResponse } from '../http/http.js';
import { readMultipartForm } from '../http/request-body.js';
import { createTaskWorker, TaskRefusedError } from '../workers/task-worker.js';
import { readFontRequest } from './font-request.js';
import type { FontReply, FontTask } from './fonts-worker.js';

const WORKER_URL = new URL('./fonts-worker.js', import.meta.url);

/** Time one font may take in the worker (subsetting DejaVu Sans whole takes under a second). */
export const FONTS_TIMEOUT_MS = 10_000;
/** Fonts that may wait for the worker; more are a 503. */
export const FONTS_MAX_WAITING = 8;

export interface FontsEndpoint {
  handle(req: LegacyRequest, res: LegacyResponse): Promise<void>;
  /** Stops the font worker. */
  close(): Promise<void>;
}

export function fontsEndpoint(maxBodyBytes: number, timeoutMs = FONTS_TIMEOUT_MS): FontsEndpoint {
  const worker = createTaskWorker<FontTask, FontReply>(WORKER_URL, {
    timeoutMs,
    maxWaiting: FONTS_MAX_WAITING,
    // A font is at most the body limit; fontkit's parsed tables and the subset's copies a few times that.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  const convert = async (task: FontTask): Promise<FontReply> => {
    try {
      return await worker.run(task);
    } catch (err) {
      if (!(err instanceof TaskRefusedError)) throw err;
      if (err.reason === 'busy') throw new PlainHttpError(503, 'The font converter is busy; retry shortly');
      if (err.reason === 'timeout')
        throw new PlainHttpError(500, `The font could not be converted within ${timeoutMs} ms`);
      if (err.reason === 'crashed')
        throw new PlainHttpError(413, 'The font could not be converted within the memory budget');
      if (err.reason === 'closed') throw new PlainHttpError(500, 'The font converter is shutting down');
      throw new PlainHttpError(400, `The font could not be read (${err.message})`);
    }
  };
  const handle = async (req: LegacyRequest, res: LegacyResponse): Promise<void> => {
    const { font, order } = readFontRequest(await readMultipartForm(req, maxBodyBytes));
    const reply = await convert({ font, order });
    if ('refused' in reply) throw new PlainHttpError(400, reply.refused.message);
    sendBody(res, 200, 'text/plain; charset=utf-8', reply.download.zpl);
  };
  return { handle, close: () => worker.close() };
}
