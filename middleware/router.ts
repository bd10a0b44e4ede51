// createLegacyRouter: the legacy label API as a router for Express 4 or 5 (or any Connect-style host),
// mounted at /compatibility/legacy/v1. Built on `router`, the package inside Express 5, so the package
// brings no Express of its own. Per request: request id -> authorize -> request-rate limits -> validate ->
// read body -> pages/day -> render -> respond. With an upstream (migration modes) the legacy service
// answers some or all requests, or shadows ours.

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import Router from 'router';
import {
  leaseSharedRenderer, RenderError, type OutputFormat, type PdfMode, type RenderHooks, type RenderPlan, type RenderRequest, type RenderResult,
} from '../renderer/index.js';
import { ENDPOINTS, expressPath, GRAPHICS_ENDPOINT, routeOf, type EndpointSpec } from './api-table.js';
import { authorize, requestKey, requestKeyLabel } from './authorize.js';
import { corsMiddleware, type CorsOption } from './cors.js';
import { StoreUnavailableError } from './deadline.js';
import { accessEvents, noteRendered, renderTiming } from './events/access-events.js';
import { createLogger, logEvents, logEventsAsText, type EventLogger } from './events/log-events.js';
import { createEventSink, type EventSink } from './events/service-events.js';
import { graphicsEndpoint } from './graphics/endpoint.js';
import { inFlightRequests } from './in-flight.js';
import {
  NOT_FOUND_MESSAGE,
  PlainHttpError,
  sendPlainError,
  sendStoreUnavailable,
} from './http-errors.js';
import type { KeyStore } from './keys/key-store.js';
import { asksForPageComposition, pageComposition, validatePageHeaders } from './page-composition.js';
import { header, locals, setHeaders, type LegacyRequest as Request, type LegacyResponse as Response, type NextFunction } from './http.js';
import { parseDensity, parseDimensions, parseIndex } from './path-params.js';
import { limitRequestRate, PageAccount, PagesExceededError, sendRateLimited } from './rate-limits.js';
import { sendRenderError } from './render-errors.js';
import { readRequestBody, readZplBody } from './request-body.js';
import { isLinterOn, negotiateFormat, parseQuality, parseRotation } from './request-headers.js';
import { requestId } from './request-id.js';
import { RENDERER_HEADER, type Forward } from './upstream/forward.js';
import type { DivergenceEvent, ShadowOptions, UpstreamMode, UpstreamOptions } from './upstream/options.js';
import { shadowOwner } from './upstream/shadow-store.js';
import { linkUpstream } from './upstream/upstream.js';
import { labelUpstreamPath, proxiedPath, tryLabelUpstreamPath, type LabelTarget } from './upstream/upstream-path.js';
import { MemoryUsageStore, type UsageStore } from './usage/usage-store.js';
import { formatWarnings } from './warnings.js';

export const LEGACY_MOUNT_PATH = '/compatibility/legacy/v1';

/**
 * `hooks.admit` is where the router reserves the document's pages; a renderer that never calls it is booked after.
 * `hooks.started` ends the render's time in a queue (metrics and access lines count queueing and rendering apart).
 */
export type RenderFunction = (zpl: Uint8Array | string, req: RenderRequest, hooks?: RenderHooks) => Promise<RenderResult>;

/**
 * The router: a Connect/Express middleware (`app.use(LEGACY_MOUNT_PATH, router)` in Express 4 or 5, or
 * called from a bare `http.createServer`), typed with Node's own request and response only.
 */
export interface LegacyRouter {
  (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void;
  /**
   * Stops what the router started: its render workers (once no other router shares them), the shadow
   * queue with its comparison worker, kept-alive upstream connections. Stores and a `render` function
   * the host passed in are left alone. Requests in flight are answered first; requests that arrive once
   * the renderer has gone get `500 ERROR: The renderer is shutting down`.
   */
  close(): Promise<void>;
}

export interface LegacyRouterOptions {
  /** Where API keys are looked up (see createMemoryStores / createRedisStores). */
  keyStore: KeyStore;
  /** Counters for the rate limits; default: in this process. */
  usageStore?: UsageStore;
  /** Largest accepted request body in bytes (default 1 MiB); more is a 413. */
  maxBodyBytes?: number;
  /** Most labels one document may produce (default 50); more is a 413. */
  maxLabels?: number;
  /** Most pixels one label may have (default: the renderer's). */
  maxPixels?: number;
  /** Requests per second shared by all keys of one organization (default 100; 0 turns it off). */
  organizationRequestsPerSecond?: number;
  /** Time budget for key and counter look-ups before answering 503 (default 75 ms). */
  storeTimeoutMs?: number;
  /**
   * Where the service's events go: the router emits into this sink and subscribes no logger of its own
   * unless `logger` or `log` is given (see createOpsRouter for metrics). Default: a sink of its own.
   */
  events?: EventSink;
  /** A pino (or pino-compatible) logger for the JSON lines: access, refusals, timeouts, outages, upstream. */
  logger?: EventLogger;
  /**
   * Older plain-function log: gets only the lines it always did (unexpected failures, store outages,
   * upstream errors as text; upstream_fallback and shadow lines as JSON), no access lines. Without
   * `log`, `logger` or `events` the router logs with pino to standard output at `info`.
   */
  log?: (message: string) => void;
  /** CORS for browser clients (default off): `true` for any origin, or `{ origins }`. */
  cors?: CorsOption;
  /** The renderer (default: this package's, in a worker pool shared by the process; see renderThreads). */
  render?: RenderFunction;
  /** Worker threads of the default renderer (default: one per core); 0 renders on the event loop, without a time budget. */
  renderThreads?: number;
  /** Time one render may take in the default renderer before it fails with a 500 (default 10 s). */
  renderTimeoutMs?: number;
  /** Working with the legacy service during a migration (default `off`); other modes need `upstream`. */
  mode?: UpstreamMode;
  /** The legacy service: base URL, the key we send it, its time budget. */
  upstream?: UpstreamOptions;
  /** Shadow mode: sampling, queue bounds, divergence threshold, where divergent images go. */
  shadow?: ShadowOptions;
  /** Shadow mode: called for every label the legacy service drew differently (also logged as JSON). */
  onDivergence?: (event: DivergenceEvent) => void;
  /**
   * Paths that are not legacy routes (anything not under `/printers/`) go to the host's next handler,
   * untouched and without a key check; for mounting at `/` or on a prefix the host shares (default false:
   * every path under the mount point is the legacy API's, unknown ones get its 404).
   */
  fallthrough?: boolean;
  /**
   * Request headers sent to the legacy service (proxy, fallback, shadow); replaces the default allowlist:
   * Accept, Content-Type, Content-Length and the legacy X-* headers. Our X-API-Key and X-Request-Id always go.
   */
  forwardHeaders?: string[];
  /** Id of a stored key (as `zpl-keys list` prints it) serving requests without X-API-Key, with its scope and limits (default none: 401). */
  anonymousKey?: string;
  /** Accept the API key as `?key=` too (default false); it is removed before any log line or upstream forward. */
  allowQueryKey?: boolean;
  /** Paths real clients send that the spec leaves open (default false): `/labels/4x6//` (empty index) is every label. */
  lenientPaths?: boolean;
  /** `POST /graphics`: an image in, ZPL with one ^GFA field out (default false; not part of the legacy API spec). */
  graphicsEndpoint?: boolean;
  /** Clock (tests). */
  now?: () => Date;
  /** How PDF pages are drawn: `vector` paths and searchable text (default), or `raster`, each label one 1-bit image. */
  pdf?: PdfMode;
  /** X-Page-* and X-Label-Border: `validate` only (default, as the spec says) or `apply` (labels placed on sheets). */
  pageComposition?: 'validate' | 'apply';
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_LABELS = 50;
export const DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND = 100;
export const DEFAULT_STORE_TIMEOUT_MS = 75;

/** What one render endpoint takes from the path; the ZPL comes from the path or the raw query (GET) or the body (POST). */
type Endpoint = Pick<EndpointSpec, 'allLabels' | 'zplFrom'>;

let defaultLogger: EventLogger | undefined;

/** The sink the router emits into, with the log writer the options ask for subscribed. */
function eventSink(options: LegacyRouterOptions): EventSink {
  const events = options.events ?? createEventSink();
  if (options.logger) logEvents(events, options.logger);
  else if (options.log) logEventsAsText(events, options.log);
  else if (!options.events) logEvents(events, (defaultLogger ??= createLogger()));
  return events;
}

/** The query string of a URL, undecoded ('' when there is none). */
function rawQuery(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/** `GET .../labels/4x6/0/?^xa...` (the legacy service's own curl example): the whole query string is the ZPL. */
function zplFromQuery(url: string): string {
  try {
    return decodeURIComponent(rawQuery(url));
  } catch {
    throw new PlainHttpError(400, 'Malformed request URL');
  }
}


const NO_BODY = Buffer.alloc(0);

/** Pages the legacy service rendered for a successful answer: every label for all-labels PDFs, else one. */
function pagesAnswered(endpoint: Endpoint, headers: IncomingHttpHeaders): number {
  if (!endpoint.allLabels) return 1;
  const count = Number(headers['x-total-count']);
  return Number.isSafeInteger(count) && count >= 0 ? count : 1;
}

/** `/printers/...` below the mount point: the legacy API's namespace (matched raw and case-insensitively, as routes are). */
function isLegacyPath(url: string, graphics: boolean): boolean {
  return /^\/printers\//i.test(url) || (graphics && /^\/graphics\/?(?:\?|$)/i.test(url));
}

export function createLegacyRouter(options: LegacyRouterOptions): LegacyRouter {
  const settings = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxLabels: options.maxLabels ?? DEFAULT_MAX_LABELS,
    storeTimeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
    now: options.now ?? (() => new Date()),
  };
  const usageStore = options.usageStore ?? new MemoryUsageStore();
  // The default renderer's workers start with the first render, not here; close() lets go of them.
  const lease = options.render ? undefined : leaseSharedRenderer({ threads: options.renderThreads, timeoutMs: options.renderTimeoutMs });
  const render = options.render ?? lease!.render;
  const { emit } = eventSink(options);
  const upstream = linkUpstream(options, emit);
  const notCounted = (res: Response, booking: Error | undefined): void => {
    if (booking) emit({ type: 'pages_not_counted', requestId: String(locals(res).requestId), message: booking.message });
  };

  // The operations served: the render endpoints, and POST /graphics when it is on (routes, access lines).
  const operations = options.graphicsEndpoint ? [...ENDPOINTS, GRAPHICS_ENDPOINT] : ENDPOINTS;
  const router = Router();
  if (options.fallthrough) {
    router.use((req: Request, _res: Response, next: (to?: 'router') => void) => {
      if (isLegacyPath(req.url ?? '/', options.graphicsEndpoint ?? false)) next();
      else next('router'); // leaves the router: the host's next handler gets the request as it came
    });
  }
  const inFlight = inFlightRequests();
  router.use(inFlight.track);
  router.use(requestId);
  router.use(accessEvents(emit, { route: (req) => routeOf(req.method ?? 'GET', pathOf(req.url), operations) ?? 'unmatched' }));
  const cors = corsMiddleware(options.cors);
  if (cors) router.use(cors);
  router.use(authorize({
    keyStore: options.keyStore,
    ...settings,
    emit,
    ...(options.anonymousKey !== undefined && { anonymousKey: options.anonymousKey }),
    allowQueryKey: options.allowQueryKey ?? false,
  }));
  router.use(limitRequestRate({
    usageStore,
    organizationRequestsPerSecond: options.organizationRequestsPerSecond ?? DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND,
    ...settings,
    emit,
  }));

  /** Sends the request to the legacy service and books the pages it rendered against the day's account. */
  const forwardCounted = async (
    forward: Forward, req: Request, res: Response, request: { path: string; body: Buffer }, pages: PageAccount, endpoint: Endpoint,
  ): Promise<void> => {
    let rendered = 0;
    try {
      await forward(req, res, {
        ...request,
        onAnswer: (status, headers) => {
          rendered = status === 200 ? pagesAnswered(endpoint, headers) : 0;
          const labels = Number(headers['x-total-count']);
          noteRendered(res, { pages: rendered, ...(Number.isSafeInteger(labels) && { labels }) });
        },
      });
    } finally {
      notCounted(res, await pages.settle(rendered));
    }
  };

  /** Proxy mode: no validation or rendering here, only the body limit and the pages-per-day account. */
  const passThrough = async (forward: Forward, req: Request, res: Response, endpoint: Endpoint): Promise<void> => {
    const path = proxiedPath(req.originalUrl, req.url ?? '/');
    const body = await readRequestBody(req, settings.maxBodyBytes);
    const pages = new PageAccount(usageStore, requestKey(res), settings.now(), settings.storeTimeoutMs);
    const exceeded = await pages.open();
    if (exceeded) {
      sendRateLimited(res, exceeded, emit);
      return;
    }
    await forwardCounted(forward, req, res, { path, body }, pages, endpoint);
  };

  const handle = (endpoint: Endpoint) => async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (upstream.mode === 'proxy') return passThrough(upstream.forward, req, res, endpoint);
    if (endpoint.zplFrom === 'query' && rawQuery(req.url ?? '') === '') return next(); // no ZPL at all: 404 as before
    const params = req.params as Record<string, string | string[]>;
    const dpmm = parseDensity(params.dpmm as string);
    const size = parseDimensions(params.dimensions as string);
    const index = endpoint.allLabels ? undefined : parseIndex(params.index as string);
    const format: OutputFormat = negotiateFormat(header(req, 'Accept'));
    if (endpoint.allLabels && format !== 'pdf') throw new PlainHttpError(404, NOT_FOUND_MESSAGE);
    const rotation = parseRotation(header(req, 'X-Rotation'));
    if (format === 'pdf') validatePageHeaders((name) => header(req, name), size, rotation);

    const body = endpoint.zplFrom === 'body' ? await readZplBody(req, settings.maxBodyBytes) : undefined;
    const zpl = body?.zpl ?? (endpoint.zplFrom === 'path' ? (params.zpl as string[]).join('/') : zplFromQuery(req.url ?? ''));
    // The legacy service only ever sees this request rebuilt from what was validated above.
    const target: LabelTarget = {
      dpmm, ...size, ...(index !== undefined && { index }), ...(endpoint.zplFrom === 'path' && { zplSegments: params.zpl as string[] }),
      ...(endpoint.zplFrom === 'query' && { zplQuery: zpl as string }),
    };

    const pages = new PageAccount(usageStore, requestKey(res), settings.now(), settings.storeTimeoutMs);
    const exceeded = await pages.open();
    if (exceeded) {
      sendRateLimited(res, exceeded, emit);
      return;
    }
    // Fallback: what we cannot produce goes to the legacy service, with the body bytes we received.
    const fallback = upstream.mode === 'fallback' ? upstream.forward : undefined;
    const forwardInstead = async (forward: Forward, reason: string, commands: string[]): Promise<void> => {
      let path: string;
      try {
        path = labelUpstreamPath(target);
      } catch (err) {
        await pages.settle(0);
        throw err;
      }
      emit({ type: 'fallback_forward', requestId: String(locals(res).requestId), keyId: requestKeyLabel(res), reason, commands });
      await forwardCounted(forward, req, res, { path, body: body?.received ?? NO_BODY }, pages, endpoint);
    };
    const composes = format === 'pdf' && asksForPageComposition((name) => header(req, name));
    const page = composes && options.pageComposition === 'apply' ? pageComposition((name) => header(req, name)) : undefined;
    if (fallback && composes && !page) {
      await forwardInstead(fallback, 'PDF page composition', ['page-composition']);
      return;
    }
    // A client that hangs up cancels its render: dropped while queued, stopped while drawing.
    const hangUp = new AbortController();
    res.once('close', () => { if (!res.writableEnded) hangUp.abort(); });
    let result: RenderResult;
    const timing = renderTiming();
    try {
      result = await render(zpl, {
        dpmm,
        ...size,
        format,
        ...(index !== undefined && { index }),
        ...(format === 'png' && { rotation, quality: parseQuality(header(req, 'X-Quality')) }),
        ...(format === 'pdf' && options.pdf !== undefined && { pdf: options.pdf }),
        ...(page && { page }),
        maxLabels: settings.maxLabels,
        ...(options.maxPixels !== undefined && { maxPixels: options.maxPixels }),
        signal: hangUp.signal,
        tenant: requestKey(res).id,
      }, {
        started: timing.started,
        // The whole document's pages are reserved once known, before drawing: concurrent documents
        // overshoot the day's limit by at most one document.
        ...(pages.limited && {
          admit: async (plan: RenderPlan) => {
            const exceeded = await pages.reserve(plan.pages);
            if (exceeded) throw new PagesExceededError(exceeded);
          },
        }),
      });
    } catch (err) {
      noteRendered(res, timing.done());
      await pages.settle(0);
      if (err instanceof PagesExceededError) {
        sendRateLimited(res, err.exceeded, emit);
        return;
      }
      throw err;
    }
    const times = timing.done();
    if (fallback && result.unsupported.length > 0) {
      await forwardInstead(fallback, `unsupported ${result.unsupported.join(' ')}`, result.unsupported);
      return;
    }
    emit({
      type: 'render', requestId: String(locals(res).requestId), dpmm, format,
      labels: result.totalCount, pages: result.pages, durationMs: times.renderMs, queuedMs: times.queuedMs,
    });
    noteRendered(res, { labels: result.totalCount, pages: result.pages, ...times });
    notCounted(res, await pages.settle(result.pages));

    res.statusCode = 200;
    setHeaders(res, {
      'Content-Type': result.contentType,
      'Content-Length': String(result.body.byteLength),
      'X-Total-Count': String(result.totalCount),
      'Content-Disposition': `inline; filename="label.${format}"`,
      [RENDERER_HEADER]: 'local',
    });
    if (isLinterOn(header(req, 'X-Linter')) && result.warnings.length > 0) {
      res.setHeader('X-Warnings', formatWarnings(result.warnings));
    }
    res.end(Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength));

    // A GET whose ZPL has a dot segment has no path the legacy service would read the same: not shadowed.
    const shadowPath = upstream.mode === 'shadow' && format === 'png' ? tryLabelUpstreamPath(target) : undefined;
    if (upstream.mode === 'shadow' && shadowPath !== undefined) {
      upstream.shadow.offer({
        requestId: String(locals(res).requestId),
        method: req.method ?? 'GET',
        path: shadowPath,
        headers: req.headers,
        body: body?.received ?? NO_BODY,
        index: index ?? 0,
        local: { png: result.body, labels: result.totalCount },
        owner: shadowOwner(requestKey(res)),
      });
    }
  };

  // Lenient paths: an empty index (`/labels/4x6//`) is read as the all-labels endpoint's trailing-slash form.
  if (options.lenientPaths) {
    router.use((req: Request, _res: Response, next: NextFunction) => {
      req.url = (req.url ?? '/').replace(/^(\/printers\/[^/?]+\/labels\/[^/?]+\/)\/+(?=\?|$)/, '$1');
      next();
    });
  }
  for (const endpoint of ENDPOINTS) router[endpoint.method](expressPath(endpoint.template), handle(endpoint));
  if (options.graphicsEndpoint) router.post(GRAPHICS_ENDPOINT.template, graphicsEndpoint(settings.maxBodyBytes));

  router.use(async (req: Request, res: Response) => {
    if (upstream.mode !== 'proxy') return sendPlainError(res, 404, NOT_FOUND_MESSAGE);
    // Proxy mode forwards every path that stays below the upstream base; paths that render nothing count no pages.
    const path = proxiedPath(req.originalUrl, req.url ?? '/');
    await upstream.forward(req, res, { path, body: await readRequestBody(req, settings.maxBodyBytes) });
  });
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof PlainHttpError) {
      // An upload still arriving past the drain bound (request-body.ts) is cut off after the answer.
      if (err.status === 413 && !req.complete) res.setHeader('Connection', 'close');
      // a set-up fault the operator must see
      if (err.status >= 500) emit({ type: 'setup_fault', requestId: String(locals(res).requestId), status: err.status, message: err.message });
      sendPlainError(res, err.status, err.message);
    } else if (err instanceof RenderError) {
      sendRenderError(res, err, emit);
    } else if (err instanceof StoreUnavailableError) {
      emit({ type: 'unavailable', requestId: String(locals(res).requestId), cause: err.store.replace(' ', '_'), message: err.message });
      sendStoreUnavailable(res);
    } else if (isClientError(err)) {
      sendPlainError(res, err.status, err.status === 400 ? 'Malformed request URL' : `HTTP ${err.status}`);
    } else {
      emit({ type: 'failure', requestId: String(locals(res).requestId), detail: err instanceof Error ? err.stack ?? err.message : String(err) });
      sendPlainError(res, 500, 'Internal server error');
    }
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= (async () => {
    await inFlight.idle(); // requests in flight are answered before the renderer goes
    await Promise.all([lease?.release(), upstream.close()]);
  })());
  return Object.assign((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    router(req, res, next);
  }, { close });
}

/** The path of a request URL (below the mount point), without its query. */
function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!;
  return path === '' ? '/' : path;
}

/** Express's own 4xx errors (e.g. an undecodable path parameter). */
function isClientError(err: unknown): err is { status: number } {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
