// The standalone server behind `npm start`, the `zpl-server` bin and the container: the operations routes at
// the root (/healthz, /readyz, /metrics, /openapi.json; on OPS_PORT instead when set) and the legacy router on
// /compatibility/legacy/v1, built from the environment (config.ts). It runs on node:http and the `router`
// package: no Express at run time. Logs are JSON lines on standard output (pino); the two plain start-up lines
// (`dev API key: ...`, `listening on ...`) stay as they were, since scripts wait for them.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import Router from 'router';
import {
  answerRouteError,
  createEventSink,
  createLegacyRouter,
  createLogger,
  createOpsRouter,
  createPreviewRouter,
  createRenderPool,
  logEvents,
  notFoundHandler,
  observedRenderer,
  type EventSink,
  type LegacyRouterOptions,
  type OpenedStores,
  type PreviewLayoutFn,
  type RenderFunction,
  type RenderPool,
  type RenderPoolStats,
  type ShadowCaseStore,
} from '../middleware/index.js';
import { createPrinterListener, type PrinterListener } from '../middleware/printer/index.js';
import { readServerConfig, type ServerConfig } from './config.js';
import { createHttpServer } from './http-server.js';
import { Lifecycle } from './lifecycle.js';
import { routeConsole } from './library-console.js';
import { createLineWriter, type LineWriter } from './log-writer.js';
import { checkAnonymousKey, developmentKey, openShadowStore, openStores } from './server-stores.js';
import { startupNotes } from './startup-notes.js';

/** How long queued log lines may take to go out at shutdown (within the lifecycle's close grace). */
const LOG_FLUSH_MS = 1000;

/** What the routers share: stores, the event sink, the render pool, and whether the server takes traffic. */
export interface ServiceParts {
  config: ServerConfig;
  stores: OpenedStores;
  events: EventSink;
  renderer: { render: RenderFunction; layout: PreviewLayoutFn; stats(): RenderPoolStats };
  /** Why /readyz must answer 503 besides the stores (starting, shutting down); undefined when serving. */
  unready?: () => string | undefined;
  /** Shadow mode's cases: in the shared store (SHADOW_STORE=redis, postgres) or SHADOW_DIR; none without either. */
  shadowStore?: ShadowCaseStore;
  /** The printer port (PRINTER_PORT): the ops routes read its status and set its pause and paper-out. */
  printer?: PrinterListener;
}

/** The legacy router's options from the config: new router options and their env vars go here. */
function legacyRouterOptions({ config, stores, events, renderer, shadowStore }: ServiceParts): LegacyRouterOptions {
  const { mode, ...upstream } = config.upstream;
  const { legacyPaths: _paths, legacyClients: _switch, ...clientOptions } = config.clients;
  return {
    ...stores,
    events,
    render: renderer.render,
    ...config.limits,
    mode,
    ...(upstream.url !== undefined && { upstream: { ...upstream, url: upstream.url } }),
    shadow: { ...config.shadow, ...(shadowStore && { store: shadowStore }) },
    ...(config.cors && { cors: config.cors }),
    ...(config.forwardHeaders && { forwardHeaders: config.forwardHeaders }),
    ...(config.pdf !== undefined && { pdf: config.pdf }),
    ...(config.pageComposition !== undefined && { pageComposition: config.pageComposition }),
    ...clientOptions,
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The standalone server's request handlers, and `close()` for what its legacy routers started (not the stores or pool). */
export interface ServiceApp {
  /** Every route of the API port (the ops routes too, unless OPS_PORT gives them their own). */
  app: Handler;
  /** The ops routes alone, for OPS_PORT. */
  ops: Handler;
  close(): Promise<void>;
}

/** A `router` stack as a node:http handler: what no route answered gets the API's own 404 text, errors a 500. */
function asHandler(router: ReturnType<typeof Router>, events: EventSink): Handler {
  const unmatched = notFoundHandler(events.emit);
  return (req, res) => {
    router(req as never, res, (err?: unknown) => {
      if (err === undefined || err === 'route' || err === 'router') unmatched(req, res);
      else answerRouteError(res, err, events.emit);
    });
  };
}

/** Every route of the standalone server: the ops router at the root, the legacy router(s) on their paths. */
export function buildApp(parts: ServiceParts): ServiceApp {
  const { config, stores, events, renderer } = parts;
  const { legacyPaths, anonymousKey, allowQueryKey, graphicsEndpoint, fontsEndpoint, outputs } = config.clients;
  // The OpenAPI document describes the API as these options make it (optional key, ?key=, /graphics, /fonts, outputs).
  const api = {
    ...(anonymousKey !== undefined && { anonymousKey: true }),
    allowQueryKey,
    graphicsEndpoint,
    fontsEndpoint,
    outputs,
  };
  const opsRouter = createOpsRouter({
    keyStore: stores.keyStore,
    pool: renderer,
    events,
    legacyPaths,
    api,
    readyWhenSaturated: config.readyWhenSaturated,
    ...(parts.unready && { unready: parts.unready }),
    ...(parts.printer && { printer: parts.printer }),
  });
  const app = Router();
  // With OPS_PORT the ops routes (metrics above all) are not on the API port at all. Label requests, nearly all the
  // traffic, are dispatched first; a legacy router mounted at / would answer every path, so then the ops routes go first.
  const opsOnApiPort = config.opsPort === undefined;
  const legacyAtRoot = legacyPaths.includes('/');
  if (opsOnApiPort && legacyAtRoot) app.use(opsRouter);
  const legacyRouters = legacyPaths.map((path) => {
    const legacy = createLegacyRouter(legacyRouterOptions(parts));
    app.use(path, legacy);
    return legacy;
  });
  if (opsOnApiPort && !legacyAtRoot) app.use(opsRouter);
  // The preview page at /, and the shadow report at /shadow when shadow mode stores its cases.
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      layout: renderer.layout,
      apiPath: legacyPaths[0],
      emit: events.emit,
      // Layouts count against the same per-second limits as the API's requests.
      usageStore: stores.usageStore,
      ...(config.limits.organizationRequestsPerSecond !== undefined && {
        organizationRequestsPerSecond: config.limits.organizationRequestsPerSecond,
      }),
      ...(parts.shadowStore && { shadowStore: parts.shadowStore }),
      // With a printer port, the printer view (/printer) and its jobs, labels and events, from the port's feed.
      ...(parts.printer && { printerFeed: parts.printer.feed }),
      ...(config.limits.maxLabels !== undefined && { maxLabels: config.limits.maxLabels }),
    }),
  );
  const ops = Router();
  ops.use(opsRouter);
  return {
    app: asHandler(app, events),
    ops: asHandler(ops, events),
    close: async () => {
      await Promise.allSettled(legacyRouters.map((legacy) => legacy.close()));
    },
  };
}

// RENDER_THREADS=0 renders and lays out on this thread: the renderer (its drawing code, bwip-js, fontkit) loads on
// the first label then, and never on this thread while workers render.
const inlineRender: RenderFunction = async (zpl, req, hooks) =>
  (await import('../renderer/public-api.js')).render(zpl, req, hooks);
const inlineFieldBoxes: PreviewLayoutFn = async (zpl, opts) =>
  (await import('../renderer/public-api.js')).fieldBoxesAsync(zpl, opts);

/**
 * The render pool (RENDER_THREADS workers; 0 renders on the event loop, with the renderer's `render`) with its
 * stats for the ops routes. The preview page's field boxes are laid out on the same pool: a costly document cannot
 * stall the event loop.
 */
function startRenderer(config: ServerConfig): { renderer: ServiceParts['renderer']; pool?: RenderPool } {
  const pool = config.render.threads === 0 ? undefined : createRenderPool(config.render);
  const layout: PreviewLayoutFn = pool?.fieldBoxes ?? inlineFieldBoxes;
  return { renderer: { ...observedRenderer(pool, inlineRender), layout }, ...(pool && { pool }) };
}

/**
 * The printer port (PRINTER_PORT): drawn on the server's render pool, kept in the stores' printer feed (in memory,
 * or shared by the replicas on Redis and PostgreSQL).
 */
function startPrinter(
  config: ServerConfig,
  stores: OpenedStores,
  render: RenderFunction,
  events: EventSink,
): PrinterListener {
  return createPrinterListener({
    ...config.printer!,
    render,
    emit: events.emit,
    feed: stores.printerFeed,
  });
}

/**
 * Runs the standalone server from the environment until SIGTERM or SIGINT; its log lines go through `logWriter`,
 * and so do the lines libraries print with console.log, info, debug and warn (it owns the process).
 */
export async function runServer(logWriter: LineWriter = createLineWriter()): Promise<void> {
  const config = readServerConfig();
  const events = createEventSink();
  logEvents(events, createLogger({ level: config.logLevel, destination: logWriter }));
  routeConsole(console, (method, message) => events.emit({ type: 'library_output', method, message }));
  const note = (message: string, level: 'info' | 'warn' | 'error' = 'info'): void =>
    events.emit({ type: 'notice', level, message });

  const { backend } = config.fleet.store;
  const devKey = config.apiKeysFile ? undefined : developmentKey(backend.shared);
  const { stores, seeded } = await openStores(config, events, devKey);
  const { renderer, pool } = startRenderer(config);
  const lifecycle = new Lifecycle();
  const shadowStore = openShadowStore(config, stores);
  const printer = config.printer && startPrinter(config, stores, renderer.render, events);
  const service = buildApp({
    config,
    stores,
    events,
    renderer,
    unready: () => lifecycle.unready(),
    ...(shadowStore && { shadowStore }),
    ...(printer && { printer }),
  });

  // Listening comes first, so that /healthz answers (and /readyz says 503) while the stores come up.
  const api = createHttpServer(service.app, config.timeouts);
  const opsServer = config.opsPort === undefined ? undefined : createHttpServer(service.ops, config.timeouts);
  const apiPort = await lifecycle.listen(api, config.port, config.host);
  const opsPort = opsServer && (await lifecycle.listen(opsServer, config.opsPort!, config.host));
  const printerPort = printer && (await printer.listen()).port;
  if (backend.shared)
    note(
      `accepting connections on http://${config.host}:${apiPort}; /readyz answers 503 until ${backend.label} answers and the keys are seeded`,
    );

  lifecycle.onSignal((signal) => {
    // SIGINT is a person at a terminal: no load balancer to tell, so no delay.
    const delayMs = signal === 'SIGTERM' ? config.shutdownDelayMs : 0;
    return (
      lifecycle
        .drain({
          signal,
          servers: [api, ...(opsServer ? [opsServer] : [])],
          delayMs,
          timeoutMs: config.shutdownTimeoutMs,
          emit: events.emit,
        })
        // The routers stop what they started (upstream connections, the shadow queue); the pool and stores are ours.
        .then(() => service.close())
        .then(() => printer?.close())
        .then(() => Promise.allSettled([stores.close(), pool?.close()]))
        // The last lines (the drain's, the cut-off requests') go out unless standard output is not being read.
        .then(() => logWriter.flush(LOG_FLUSH_MS))
        .then(() => undefined)
    );
  });

  await seeded;
  await checkAnonymousKey(config, stores, note);
  if (!lifecycle.ready()) return; // a signal came while starting
  if (devKey) {
    logWriter.write(`dev API key: ${devKey.key}\n`);
    if (devKey.expiresAt)
      note(
        `the dev API key is stored in ${backend.label} until ${devKey.expiresAt}; set API_KEYS_FILE for lasting keys`,
      );
  }
  for (const line of startupNotes(config, opsPort, printerPort)) note(line);
  // Printed once the stores answer and the keys are seeded: the first request after it is served. Through the log
  // writer, like every line before it, so that it comes after them.
  logWriter.write(`listening on http://${config.host}:${apiPort}\n`);
}

/** Runs the server; a start-up failure is one `ERROR: ...` line and exit status 1. */
export function startServer(): void {
  const logWriter = createLineWriter();
  runServer(logWriter).catch(async (err: unknown) => {
    console.error(`ERROR: ${(err as Error).message}`);
    // The lines before the failure (a store that would not answer) say why.
    await logWriter.flush(LOG_FLUSH_MS);
    process.exit(1);
  });
}

// `node dist/server/server.js` runs it too (the bin is the same entry).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) startServer();
