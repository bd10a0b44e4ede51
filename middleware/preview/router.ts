// createPreviewRouter: the label preview page, the shadow report and the printer view, outside the legacy prefix.
// Pages and scripts need no key; what shows a label (layout, stored shadow cases, printed jobs) asks for one.

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Router from 'router';
import type { Dpmm, FieldBox, FieldBoxes } from '../../renderer/index.js';
import { RenderError } from '../../renderer/errors.js';
import { requestKey } from '../http/request-state.js';
import { authorize } from '../limits/authorize.js';
import { StoreUnavailableError } from '../stores/deadline.js';
import { PlainHttpError, sendPlainError, sendStoreUnavailable } from '../http/http-errors.js';
import { sendRenderError } from '../label-route/render-errors.js';
import {
  sendBody,
  setHeaders,
  type LegacyRequest as Request,
  type LegacyResponse as Response,
  type NextFunction,
} from '../http/http.js';
import type { Emit } from '../events/service-events.js';
import type { KeyStore } from '../stores/key-store.js';
import { FONT_NAME_LETTERS, MAX_LABEL_INCHES, MIN_LABEL_INCHES } from '../api-table/index.js';
import { parseDensity, parseDimensions, parseIndex } from '../label-route/path-params.js';
import { limitRequestRate } from '../limits/rate-limits.js';
import { readRequestBody } from '../http/request-body.js';
import { requestId } from '../http/request-id.js';
import {
  LEGACY_MOUNT_PATH,
  DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND,
  DEFAULT_STORE_TIMEOUT_MS,
} from '../router/router.js';
import type { UsageStore } from '../stores/usage-store.js';
import { FileShadowStore } from '../stores/shadow-file-store.js';
import { shadowOwner, type ShadowCaseStore } from '../stores/shadow-store.js';
import { readShadowReport } from './shadow-report.js';
import type { PrinterFeed } from '../stores/printer-feed.js';
import { addPrinterRoutes } from './printer-routes.js';

export interface PreviewLayoutOptions {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index: number;
  maxLabels?: number;
  maxPixels?: number;
  /** Aborted when the client hangs up: a layout on a worker pool stops. */
  signal?: AbortSignal;
  /** The key's id: a pool schedules layouts fairly across keys, as it does renders. */
  tenant?: string;
}

/** What the page needs of a layout: the label's size and each field's box and source span (the renderer's `fieldBoxes()`). */
export type PreviewLayout = FieldBoxes;
export type PreviewElement = FieldBox;

export type PreviewLayoutFn = (
  zpl: Uint8Array,
  options: PreviewLayoutOptions,
) => PreviewLayout | Promise<PreviewLayout>;

export interface PreviewRouterOptions {
  /** Keys that may see layouts and shadow cases (the legacy router's key store). */
  keyStore: KeyStore;
  /**
   * From the renderer: element boxes and ZPL spans for hover highlighting. A render pool's `fieldBoxes` keeps costly
   * documents off the event loop; the in-process `fieldBoxes()` is for hosts without one.
   */
  layout: PreviewLayoutFn;
  /** Where the page finds the legacy API (default /compatibility/legacy/v1). */
  apiPath?: string;
  /** Shadow mode's `storeDir`: serves the shadow report at /shadow when set. */
  shadowDir?: string;
  /** Shadow mode's `store` (e.g. in Redis), in place of `shadowDir`: serves the shadow report at /shadow. */
  shadowStore?: ShadowCaseStore;
  /**
   * The printer port's job feed: serves the printer view at /printer, the jobs at /printer/jobs, each label's PNG
   * and PDF, and the feed's events at /printer/events (server-sent events).
   */
  printerFeed?: PrinterFeed;
  /** How often the printer event stream sends a comment line while quiet (default 15 s). */
  printerHeartbeatMs?: number;
  /** Largest ZPL document the layout endpoint reads (default 256 KiB). */
  maxBodyBytes?: number;
  maxLabels?: number;
  maxPixels?: number;
  /**
   * The legacy router's usage store: when given, each layout and each read of the shadow report or its images counts
   * as a request against the key's requests per second (and `organizationRequestsPerSecond`, default 100), as renders
   * do, so the page cannot spend worker or store time past them. Without it layouts are only queued fairly.
   */
  usageStore?: UsageStore;
  organizationRequestsPerSecond?: number;
  /** The clock of the per-second windows (default: the system's). */
  now?: () => Date;
  storeTimeoutMs?: number;
  /** The service's event sink (refusals, failures); default: events go nowhere but failures to `log`. */
  emit?: Emit;
  log?: (message: string) => void;
}

const DEFAULT_LAYOUT_BODY_BYTES = 256 * 1024;
const WEB_DIR = new URL('../../../web/', import.meta.url);
const SCRIPT_DIR = new URL('../../web/', import.meta.url);
const SCRIPT_NAME = /^[a-z-]+\.js$/;

/**
 * The pages' own headers: scripts, styles and requests from this origin only (the page holds a key, so no inline
 * script, no other origin, no framing), pictures from here or the page's own blobs, and no Referer: a permalink's
 * address carries the label's ZPL.
 */
export const PAGE_SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** A Connect-style handler: mount it at the root of an Express 4 or 5 app (or any Connect host). */
export type PreviewRouter = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

export function createPreviewRouter(options: PreviewRouterOptions): PreviewRouter {
  const apiPath = (options.apiPath ?? LEGACY_MOUNT_PATH).replace(/\/+$/, '');
  const log = options.log ?? ((message: string) => console.error(message));
  const router = Router();
  const emit: Emit = options.emit ?? (() => {});
  // Each keyed route gets a request id first, as the legacy API's answers do.
  const storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const withKey = [requestId, authorize({ keyStore: options.keyStore, storeTimeoutMs, now, emit })] as const;
  const counted = options.usageStore
    ? [
        limitRequestRate({
          usageStore: options.usageStore,
          organizationRequestsPerSecond:
            options.organizationRequestsPerSecond ?? DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND,
          storeTimeoutMs,
          now,
          emit,
        }),
      ]
    : [];

  // What the pages are told by the server: where the API is, and the API's own limits, so the page states them.
  const pageValues: Record<string, string> = {
    API_PATH: apiPath,
    LABEL_INCHES: `${MIN_LABEL_INCHES} ${MAX_LABEL_INCHES}`,
    FONT_NAMES: FONT_NAME_LETTERS,
  };
  const page =
    (file: string) =>
    async (_req: Request, res: Response): Promise<void> => {
      const html = await readFile(new URL(file, WEB_DIR), 'utf8');
      setHeaders(res, { 'Cache-Control': 'no-store', ...PAGE_SECURITY_HEADERS });
      sendBody(
        res,
        200,
        'text/html; charset=utf-8',
        html.replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => pageValues[name] ?? whole),
      );
    };
  router.get('/', page('index.html'));
  router.get('/preview/style.css', async (_req: Request, res: Response) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    sendBody(res, 200, 'text/css; charset=utf-8', await readFile(new URL('style.css', WEB_DIR)));
  });
  router.get('/preview/:script', async (req: Request, res: Response, next: NextFunction) => {
    const name = String(req.params.script);
    if (!SCRIPT_NAME.test(name)) return next();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    sendBody(res, 200, 'text/javascript; charset=utf-8', await readFile(new URL(name, SCRIPT_DIR)));
  });

  router.post('/preview/layout/:dpmm/:dims/:index', ...withKey, ...counted, async (req: Request, res: Response) => {
    // A client that hangs up cancels its layout, as it does a render.
    const hangUp = new AbortController();
    res.once('close', () => {
      if (!res.writableEnded) hangUp.abort();
    });
    const layoutOptions: PreviewLayoutOptions = {
      dpmm: parseDensity(String(req.params.dpmm)),
      ...parseDimensions(String(req.params.dims)),
      index: parseIndex(String(req.params.index)),
      ...(options.maxLabels !== undefined && { maxLabels: options.maxLabels }),
      ...(options.maxPixels !== undefined && { maxPixels: options.maxPixels }),
      signal: hangUp.signal,
      tenant: requestKey(res).id,
    };
    const zpl = await readRequestBody(req, options.maxBodyBytes ?? DEFAULT_LAYOUT_BODY_BYTES);
    const { totalCount, index, width, height, mirror, invert, elements } = await options.layout(zpl, layoutOptions);
    // Boxes and spans are all the page needs; outlines and bitmaps stay here.
    sendJson(res, {
      totalCount,
      index,
      width,
      height,
      mirror: mirror === true,
      invert: invert === true,
      elements: elements.map(({ kind, box, span }) => ({ kind, box, span })),
    });
  });

  const shadowStore =
    options.shadowStore ?? (options.shadowDir !== undefined ? new FileShadowStore(options.shadowDir) : undefined);
  if (shadowStore) {
    // Any key may read its own organization's cases (its own, without one): the report is not an output format.
    // Each read counts against the key's requests per second like every other keyed route.
    const withAnyKey = [
      requestId,
      authorize({ keyStore: options.keyStore, storeTimeoutMs, now, emit, anyScope: true }),
      ...counted,
    ] as const;
    router.get('/shadow', page('shadow.html'));
    router.get('/shadow/cases.json', ...withAnyKey, async (_req: Request, res: Response) => {
      sendJson(
        res,
        await readShadowReport(shadowStore, shadowOwner(requestKey(res)), (id, reason) => {
          emit({ type: 'shadow_problem', problem: 'shadow_case_unreadable', case: id, reason });
        }),
      );
    });
    router.get('/shadow/images/:file', ...withAnyKey, async (req: Request, res: Response, next: NextFunction) => {
      const name = String(req.params.file);
      const png = await shadowStore.image(shadowOwner(requestKey(res)), name); // stored image names only, never a path
      if (!png) return next();
      res.setHeader('Cache-Control', 'no-store');
      sendBody(res, 200, 'image/png', Buffer.from(png.buffer, png.byteOffset, png.byteLength));
    });
  }

  if (options.printerFeed) {
    // Any key may watch the printer; each read, and each stream opened, counts against its requests per second.
    addPrinterRoutes(router, {
      feed: options.printerFeed,
      withKey: [
        requestId,
        authorize({ keyStore: options.keyStore, storeTimeoutMs, now, emit, anyScope: true }),
        ...counted,
      ],
      page: page('printer.html'),
      ...(options.printerHeartbeatMs !== undefined && { heartbeatMs: options.printerHeartbeatMs }),
    });
  }

  router.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.destroy();
    } else if (err instanceof PlainHttpError) {
      sendPlainError(res, err.status, err.message);
    } else if (err instanceof RenderError) {
      sendRenderError(res, err, emit);
    } else if (err instanceof StoreUnavailableError) {
      sendStoreUnavailable(res);
    } else {
      log(`preview: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      sendPlainError(res, 500, 'Internal server error');
    }
  });
  return (req, res, next) => router(req, res, next);
}

function sendJson(res: Response, body: unknown): void {
  setHeaders(res, { 'Cache-Control': 'no-store' });
  sendBody(res, 200, 'application/json; charset=utf-8', JSON.stringify(body));
}
