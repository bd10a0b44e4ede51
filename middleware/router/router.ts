// createLegacyRouter: the legacy label API as a router for Express 4 or 5 (or any Connect-style host),
// mounted at /compatibility/legacy/v1. Built on `router`, the package inside Express 5, so the package
// brings no Express of its own. This file only wires the steps: request id -> access line -> CORS ->
// authorize -> request-rate limits -> the label routes (parse -> render under the page account -> send ->
// shadow) -> errors. The upstream mode picks the label routes' handlers once, here.

import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'router';
import { ENDPOINTS, expressPath, FONTS_ENDPOINT, GRAPHICS_ENDPOINT, routeMatcher } from '../api-table/index.js';
import { authorize } from '../limits/authorize.js';
import { corsMiddleware } from '../http/cors.js';
import { accessEvents } from '../events/access-events.js';
import { fontsEndpoint } from '../fonts/endpoint.js';
import { graphicsEndpoint } from '../graphics/endpoint.js';
import { inFlightRequests } from './in-flight.js';
import { NOT_FOUND_MESSAGE, sendPlainError } from '../http/http-errors.js';
import type { LegacyRequest as Request, LegacyResponse as Response, NextFunction } from '../http/http.js';
import { parseLabelRequest, type Endpoint } from '../label-route/label-request.js';
import { normaliseTarget } from '../http/normalise-path.js';
import { limitRequestRate } from '../limits/rate-limits.js';
import { renderLabel, sendLabel, type RenderContext } from '../label-route/render-label.js';
import { requestId } from '../http/request-id.js';
import { requestState } from '../http/request-state.js';
import { answerErrors } from './router-errors.js';
import { resolveOptions, type LegacyRouterOptions, type RouterConfig } from './router-config.js';
import { forwardLabel, passThrough, passThroughOther, shadowLabel } from '../label-route/label-upstream.js';
import { shadowOwner } from '../stores/shadow-store.js';
import type { UpstreamLink } from '../upstream/upstream.js';

export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_LABELS,
  DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND,
  DEFAULT_STORE_TIMEOUT_MS,
} from './router-config.js';
export type { LegacyRouterOptions, RenderFunction } from './router-config.js';

export const LEGACY_MOUNT_PATH = '/compatibility/legacy/v1';

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

type Handler = (req: Request, res: Response, next: NextFunction) => Promise<void>;

/**
 * `/printers/...` below the mount point, and the conversion endpoints switched on: the legacy API's namespace
 * (matched raw and case-insensitively, as routes are).
 */
function isLegacyPath(url: string, config: { graphicsEndpoint: boolean; fontsEndpoint: boolean }): boolean {
  return (
    /^\/printers\//i.test(url) ||
    (config.graphicsEndpoint && /^\/graphics\/?(?:\?|$)/i.test(url)) ||
    (config.fontsEndpoint && /^\/fonts\/?(?:\?|$)/i.test(url))
  );
}

/** The path of a request URL (below the mount point), without its query. */
function pathOf(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!;
  return path === '' ? '/' : path;
}

/** The handler of each render endpoint, and of paths no route takes, for the upstream mode. */
function labelHandlers(
  config: RouterConfig,
  link: UpstreamLink,
): { route: (endpoint: Endpoint) => Handler; other: Handler } {
  if (link.mode === 'proxy') {
    return {
      route: (endpoint) => passThrough(link.forward, endpoint, config),
      other: passThroughOther(link.forward, config.maxBodyBytes),
    };
  }
  const fallback = link.mode === 'fallback' ? link.forward : undefined;
  const shadow = link.mode === 'shadow' ? link.shadow : undefined;
  const ctx: RenderContext = { ...config, canForward: fallback !== undefined };
  const route =
    (endpoint: Endpoint): Handler =>
    async (req, res, next) => {
      const label = await parseLabelRequest(endpoint, req, config);
      if (!label) return next(); // a GET without ZPL: 404
      // A client that hangs up cancels its render: dropped while queued, stopped while drawing.
      const hangUp = new AbortController();
      res.once('close', () => {
        if (!res.writableEnded) hangUp.abort();
      });
      const state = requestState(res);
      const outcome = await renderLabel(label, state, hangUp.signal, ctx);
      if (outcome.kind === 'forward') return forwardLabel(fallback!, req, res, label, outcome, config.emit);
      sendLabel(res, label, outcome.result);
      if (shadow)
        shadowLabel(shadow, req, label, outcome.result, { requestId: state.requestId, owner: shadowOwner(state.key!) });
    };
  return { route, other: async (_req, res) => sendPlainError(res, 404, NOT_FOUND_MESSAGE) };
}

export function createLegacyRouter(options: LegacyRouterOptions): LegacyRouter {
  const config = resolveOptions(options);
  // The operations served: the render endpoints, and POST /graphics and POST /fonts when on (routes, access lines).
  const operations = [
    ...ENDPOINTS,
    ...(config.graphicsEndpoint ? [GRAPHICS_ENDPOINT] : []),
    ...(config.fontsEndpoint ? [FONTS_ENDPOINT] : []),
  ];
  const router = Router();
  // Normalised once, before routes, access lines and limits see the path (a refusal is answered after authorize).
  router.use((req: Request, res: Response, next: (to?: 'router') => void) => {
    const normal = normaliseTarget(req.url ?? '/', config.lenientPaths);
    // Not a legacy path under `fallthrough`: it leaves the router, and the host's next handler gets it as it came.
    if (config.fallthrough && !isLegacyPath('url' in normal ? normal.url : (req.url ?? '/'), config))
      return next('router');
    if ('refusal' in normal) requestState(res).pathRefusal = normal.refusal;
    else if (normal.url !== req.url) {
      req.url = normal.url;
      req.originalUrl = (req.baseUrl ?? '') + normal.url;
    }
    next();
  });
  const inFlight = inFlightRequests();
  router.use(inFlight.track);
  router.use(requestId);
  const routeOf = routeMatcher(operations);
  router.use(
    accessEvents(config.emit, { route: (req) => routeOf(req.method ?? 'GET', pathOf(req.url)) ?? 'unmatched' }),
  );
  const cors = corsMiddleware(config.cors);
  if (cors) router.use(cors);
  router.use(authorize(config));
  router.use((_req: Request, res: Response, next: NextFunction) => next(requestState(res).pathRefusal));
  router.use(limitRequestRate(config));
  const handlers = labelHandlers(config, config.upstream);
  for (const endpoint of ENDPOINTS) router[endpoint.method](expressPath(endpoint.template), handlers.route(endpoint));
  const graphics = config.graphicsEndpoint ? graphicsEndpoint(config) : undefined;
  if (graphics) router.post(GRAPHICS_ENDPOINT.template, graphics.handle);
  const fonts = config.fontsEndpoint ? fontsEndpoint(config.maxBodyBytes) : undefined;
  if (fonts) router.post(FONTS_ENDPOINT.template, fonts.handle);
  router.use(handlers.other);
  router.use(answerErrors(config.emit));

  let closing: Promise<void> | undefined;
  // Requests in flight are answered before the renderer goes.
  const close = (): Promise<void> =>
    (closing ??= inFlight
      .idle()
      .then(() => Promise.all([config.lease?.release(), config.upstream.close(), graphics?.close(), fonts?.close()]))
      .then(() => {}));
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
      router(req, res, next);
    },
    { close },
  );
}
