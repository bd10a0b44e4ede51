// createOpsRouter: the operations routes, mounted at the root beside (never under) the legacy prefix, no key:
// GET /healthz, /readyz, /metrics (Prometheus text) and /openapi.json (OpenAPI 3.1 of the legacy API); with a printer
// port, GET /printer/status and POST /printer/status?paused=1&paperOut=1 (to test software's error handling).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import Router from 'router';
import { accessEvents } from '../events/access-events.js';
import type { EventSink } from '../events/service-events.js';
import {
  sendBody,
  type LegacyRequest as Request,
  type LegacyResponse as Response,
  type NextFunction,
} from '../http/http.js';
import type { KeyStore } from '../stores/key-store.js';
import { requestId } from '../http/request-id.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics.js';
import { buildOpenApiDocument, type ApiFeatures } from './openapi.js';
import { isSaturated, readPoolStats, type PoolStatsSource } from './pool-stats.js';
import { packageVersion } from './version.js';

export interface OpsRouterOptions {
  /** The key store the legacy router uses: /readyz is 503 while it is not ready. */
  keyStore: Pick<KeyStore, 'isReady'>;
  /** The render pool: its stats() (or threads and recycled workers, or a stats function); default the shared pools. */
  pool?: PoolStatsSource;
  /** The sink the legacy router(s) emit into: metrics count its events. */
  events?: EventSink;
  /** Where metrics are registered (default: a registry of this router's own, never prom-client's global). */
  registry?: Registry;
  /** Node.js process metrics in the registry (default: only when the registry is this router's own). */
  defaultMetrics?: boolean;
  /** Mount paths of the legacy router(s), the `servers` of the OpenAPI document (default the legacy one). */
  legacyPaths?: readonly string[];
  /** Router options that change the API, for the OpenAPI document (optional key, ?key=, POST /graphics). */
  api?: ApiFeatures;
  /** Reported version (default: this package's). */
  version?: string;
  /**
   * A saturated pool leaves /readyz at 200 (still reported in its body): for orchestrators such as Kubernetes, which
   * would otherwise take every replica out of the Service at once under a load spike. Default false: 503.
   */
  readyWhenSaturated?: boolean;
  /** Why /readyz must answer 503 besides the key store and pool (the host starting or shutting down); undefined when serving. */
  unready?: () => string | undefined;
  /** The printer port (createPrinterListener): its status read and its pause and paper-out set on /printer/status. */
  printer?: PrinterControl;
}

/** What the ops routes use of a printer listener. */
export interface PrinterControl {
  status(): object;
  setConditions(conditions: { paused?: boolean; paperOut?: boolean }): void;
}

/** `1`/`true` or `0`/`false` of a query parameter; undefined when absent, null when neither. */
function switchParam(params: URLSearchParams, name: string): boolean | undefined | null {
  const value = params.get(name);
  if (value === null) return undefined;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  return null;
}

/** A Connect/Express middleware (`app.use(opsRouter)`), typed with Node's own request and response only. */
export interface OpsRouter {
  (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void;
  readonly registry: Registry;
  readonly metrics: ServiceMetrics;
}

type Handler = (req: Request, res: Response, next: NextFunction) => void;

/** A JSON answer the probes give (never cached). */
function sendJson(res: Response, status: number, body: unknown): void {
  res.setHeader('Cache-Control', 'no-store');
  sendBody(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

export function createOpsRouter(options: OpsRouterOptions): OpsRouter {
  const version = options.version ?? packageVersion();
  const poolStats = () => readPoolStats(options.pool);
  const metrics = createServiceMetrics({
    ...(options.registry && { registry: options.registry }),
    ...(options.defaultMetrics !== undefined && { defaultMetrics: options.defaultMetrics }),
    keyStoreReady: () => options.keyStore.isReady(),
    poolStats,
  });
  if (options.events) metrics.subscribe(options.events);
  let openapi: string | undefined; // built on first request: the tables do not change while running

  /** What both probes report. */
  const status = () => {
    const pool = poolStats();
    const keyStoreReady = options.keyStore.isReady();
    const saturated = isSaturated(pool);
    const host = options.unready?.();
    return {
      host,
      ready: keyStoreReady && (!saturated || options.readyWhenSaturated === true) && host === undefined,
      body: {
        version,
        keyStore: { ready: keyStoreReady },
        renderPool: {
          workers: pool.threads,
          busy: pool.busy,
          queueDepth: pool.queued,
          // JSON has no Infinity: an unbounded queue has no limit
          queueLimit: Number.isFinite(pool.queueLimit) ? pool.queueLimit : null,
          recycled: pool.recycled,
          saturated,
        },
      },
    };
  };

  // Only the ops routes get a request id and an access event: every other request passes through untouched.
  const events = options.events;
  const access = (route: string): Handler =>
    events ? accessEvents(events.emit, { route: () => route, operational: true }) : (_req, _res, next) => next();
  const router = Router();
  const common = (route: string): [string, Handler, Handler] => [route, requestId, access(route)];
  router.get(...common('/healthz'), (_req: Request, res: Response) => {
    sendJson(res, 200, { status: 'ok', ...status().body });
  });
  router.get(...common('/readyz'), (_req: Request, res: Response) => {
    const { ready, body, host } = status();
    const reasons = [
      ...(host === undefined ? [] : [host]),
      ...(body.keyStore.ready ? [] : ['key store not ready']),
      ...(body.renderPool.saturated && !options.readyWhenSaturated ? ['render pool saturated'] : []),
    ];
    sendJson(res, ready ? 200 : 503, {
      status: ready ? 'ready' : 'not_ready',
      ...(reasons.length > 0 && { reasons }),
      ...body,
    });
  });
  router.get(...common('/metrics'), async (_req: Request, res: Response) => {
    const text = await metrics.registry.metrics();
    res.setHeader('Cache-Control', 'no-store');
    sendBody(res, 200, metrics.registry.contentType, text);
  });
  router.get(...common('/openapi.json'), (_req: Request, res: Response) => {
    openapi ??= JSON.stringify(
      buildOpenApiDocument({
        version,
        ...(options.legacyPaths && { legacyPaths: options.legacyPaths }),
        ...(options.api && { api: options.api }),
      }),
    );
    sendBody(res, 200, 'application/json; charset=utf-8', openapi);
  });
  const printer = options.printer;
  if (printer) {
    router.get(...common('/printer/status'), (_req: Request, res: Response) => sendJson(res, 200, printer.status()));
    router.post(...common('/printer/status'), (req: Request, res: Response) => {
      const params = new URL(req.url ?? '/', 'http://ops').searchParams;
      const paused = switchParam(params, 'paused');
      const paperOut = switchParam(params, 'paperOut');
      if (paused === null || paperOut === null) {
        sendJson(res, 400, { error: 'paused and paperOut must be 1, 0, true or false' });
        return;
      }
      printer.setConditions({
        ...(paused !== undefined && { paused }),
        ...(paperOut !== undefined && { paperOut }),
      });
      sendJson(res, 200, printer.status());
    });
  }
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
      router(req, res, next);
    },
    { registry: metrics.registry, metrics },
  );
}
