// The printer view's routes: the jobs the printer port received, each label's PNG and PDF, and a live stream of
// the feed's events (server-sent events) for the page. Any key may read them: the printer is the service's, not an
// organization's, and its jobs hold no output a scope would restrict.

import type { Server } from 'node:http';
import type Router from 'router';
import { PlainHttpError } from '../http/http-errors.js';
import {
  sendBody,
  setHeaders,
  type LegacyRequest as Request,
  type LegacyResponse as Response,
  type NextFunction,
} from '../http/http.js';
import type { PrinterFeed, PrinterFeedEvent } from '../stores/printer-feed.js';

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;

export interface PrinterRoutesOptions {
  feed: PrinterFeed;
  /** What runs before each keyed route: request id, key check, rate limits. */
  withKey: readonly [Handler, ...Handler[]];
  /** Serves the printer page. */
  page: Handler;
  /** Comment lines keep the event stream open through proxies that close quiet connections (default 15 s). */
  heartbeatMs?: number;
}

export const DEFAULT_PRINTER_JOBS_LIMIT = 50;
export const MAX_PRINTER_JOBS_LIMIT = 1000;
export const DEFAULT_PRINTER_HEARTBEAT_MS = 15_000;
/** A stream whose client reads slower than the feed writes is ended past this; the page reconnects and lists again. */
const MAX_STREAM_BACKLOG_BYTES = 1024 * 1024;
/** How often a stream checks that its server still listens: a server shutting down ends its streams first. */
const LISTENING_CHECK_MS = 1000;
const LABEL_FILE = /^(\d{1,6})\.(png|pdf)$/;
const CONTENT_TYPES = { png: 'image/png', pdf: 'application/pdf' } as const;

function readLimit(url: string | undefined): number {
  const text = new URL(url ?? '/', 'http://preview').searchParams.get('limit');
  if (text === null) return DEFAULT_PRINTER_JOBS_LIMIT;
  const limit = Number(text);
  if (!/^\d{1,4}$/.test(text) || limit < 1 || limit > MAX_PRINTER_JOBS_LIMIT)
    throw new PlainHttpError(400, `limit must be a whole number from 1 to ${MAX_PRINTER_JOBS_LIMIT}, not ${text}`);
  return limit;
}

export function addPrinterRoutes(router: ReturnType<typeof Router>, options: PrinterRoutesOptions): void {
  const { feed, withKey } = options;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_PRINTER_HEARTBEAT_MS;

  router.get('/printer', options.page);

  router.get('/printer/jobs', ...withKey, async (req: Request, res: Response) => {
    const jobs = await feed.list(readLimit(req.url));
    setHeaders(res, { 'Cache-Control': 'no-store' });
    sendBody(res, 200, 'application/json; charset=utf-8', JSON.stringify({ jobs }));
  });

  router.get('/printer/jobs/:id/labels/:file', ...withKey, async (req: Request, res: Response, next: NextFunction) => {
    const match = LABEL_FILE.exec(String(req.params.file));
    if (!match) return next();
    const type = match[2] as 'png' | 'pdf';
    const image = await feed.label(String(req.params.id), Number(match[1]), type);
    if (!image) return next();
    setHeaders(res, { 'Cache-Control': 'no-store' });
    sendBody(res, 200, CONTENT_TYPES[type], Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  });

  router.get('/printer/events', ...withKey, async (req: Request, res: Response) => {
    let ended = false;
    const queued: PrinterFeedEvent[] = [];
    let open = false;
    const write = (event: PrinterFeedEvent): void => {
      if (ended) return;
      if (!open) {
        queued.push(event); // heard while the stream was being opened: written right after its first line
        return;
      }
      if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) return end();
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event.job)}\n\n`);
    };
    const unsubscribe = feed.subscribe(write);
    const server = (req.socket as { server?: Server }).server;
    const tick = Math.min(LISTENING_CHECK_MS, heartbeatMs);
    let sinceBeat = 0;
    const timer = setInterval(() => {
      if (server && !server.listening) return end();
      sinceBeat += tick;
      if (sinceBeat < heartbeatMs || !open) return;
      sinceBeat = 0;
      res.write(': heartbeat\n\n');
    }, tick);
    timer.unref();
    function end(): void {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      unsubscribe();
      if (!res.writableEnded) res.end();
    }
    res.once('close', end);
    // Events from other replicas reach this stream from here on: the page lists the jobs once it is open.
    await feed.whenSubscribed?.().catch(() => undefined);
    if (ended) return;
    setHeaders(res, {
      'Cache-Control': 'no-store',
      'Content-Type': 'text/event-stream; charset=utf-8',
      'X-Accel-Buffering': 'no',
      // A stream ended by a shutdown leaves no idle connection behind to hold the server's close.
      Connection: 'close',
    });
    res.statusCode = 200;
    res.flushHeaders();
    res.write(': connected\n\n');
    open = true;
    for (const event of queued.splice(0)) write(event);
  });
}
