// The standalone server behind `npm start`: the operations routes at the root (/healthz, /readyz, /metrics,
// /openapi.json) and the legacy router on /compatibility/legacy/v1, built from the environment (config.ts).
// Logs are JSON lines on standard output (pino); the two plain start-up lines (`dev API key: ...`,
// `listening on ...`) stay as they were, since scripts wait for them.

import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import {
  createEventSink,
  createLegacyRouter,
  createLogger,
  createMemoryStores,
  createOpsRouter,
  createPreviewRouter,
  createRedisStores,
  FileShadowStore,
  generateKey,
  LEGACY_MOUNT_PATH,
  loadKeyFile,
  logEvents,
  observedRenderer,
  RedisShadowStore,
  seedKeys,
  type EventSink,
  type KeyRecord,
  type LegacyRouterOptions,
  type PreviewLayoutFn,
  type RenderFunction,
  type RedisConnection,
  type RenderPoolStats,
  type ServiceEvent,
  type ShadowCaseStore,
  type Stores,
} from '../middleware/index.js';
import { accessEvents } from '../middleware/events/access-events.js';
import { NOT_FOUND_MESSAGE, sendPlainError } from '../middleware/http-errors.js';
import { requestId } from '../middleware/request-id.js';
import { createRenderPool, fieldBoxes as fieldBoxesInline, render as renderInline, type RenderPool } from '../renderer/index.js';
import { readServerConfig, type ServerConfig } from './config.js';
import { createHttpServer } from './http-server.js';
import { keepKeysSeeded } from './key-seeding.js';

/** What the routers share: stores, the event sink, the render pool. */
export interface ServiceParts {
  config: ServerConfig;
  stores: Stores;
  events: EventSink;
  renderer: { render: RenderFunction; layout: PreviewLayoutFn; stats(): RenderPoolStats };
  /** Shadow mode's cases: in Redis (SHADOW_STORE=redis) or SHADOW_DIR; none without either. */
  shadowStore?: ShadowCaseStore;
}

/** The legacy router's options from the config: new router options and their env vars go here. */
function legacyRouterOptions({ config, stores, events, renderer, shadowStore }: ServiceParts): LegacyRouterOptions {
  const { mode, ...upstream } = config.upstream;
  const { legacyPaths: _paths, ...clientOptions } = config.clients;
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
    ...clientOptions,
  };
}

/** The standalone server's app, and `close()` for what its legacy routers started (not the stores or pool). */
export interface ServiceApp {
  app: Express;
  close(): Promise<void>;
}

/** Every route of the standalone server: the ops router at the root, the legacy router(s) on their paths. */
export function buildApp(parts: ServiceParts): ServiceApp {
  const { config, stores, events, renderer } = parts;
  const { legacyPaths, anonymousKey, allowQueryKey, graphicsEndpoint } = config.clients;
  const app = express();
  app.disable('x-powered-by');
  // The OpenAPI document describes the API as these options make it (optional key, ?key=, /graphics).
  const api = { ...(anonymousKey !== undefined && { anonymousKey: true }), allowQueryKey, graphicsEndpoint };
  app.use(createOpsRouter({ keyStore: stores.keyStore, pool: renderer, events, legacyPaths, api }));
  const legacyRouters = legacyPaths.map((path) => {
    const legacy = createLegacyRouter(legacyRouterOptions(parts));
    app.use(path, legacy);
    return legacy;
  });
  // The preview page at /, and the shadow report at /shadow when shadow mode stores its cases.
  app.use(createPreviewRouter({
    keyStore: stores.keyStore,
    layout: renderer.layout,
    apiPath: legacyPaths[0],
    emit: events.emit,
    // Layouts count against the same per-second limits as the API's requests.
    usageStore: stores.usageStore,
    ...(parts.config.limits.organizationRequestsPerSecond !== undefined && { organizationRequestsPerSecond: parts.config.limits.organizationRequestsPerSecond }),
    ...(parts.shadowStore && { shadowStore: parts.shadowStore }),
    ...(parts.config.limits.maxLabels !== undefined && { maxLabels: parts.config.limits.maxLabels }),
  }));
  // Anything else: the API's own 404 text, not Express's HTML page.
  app.use(requestId, accessEvents(events.emit, { route: () => 'unmatched' }), (_req, res) => {
    sendPlainError(res, 404, NOT_FOUND_MESSAGE);
  });
  return { app, close: async () => { await Promise.allSettled(legacyRouters.map((legacy) => legacy.close())); } };
}

/** The development key's record lives this long in a shared Redis: it outlives the process, so it must expire. */
const DEV_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A random all-scope key for a start without API_KEYS_FILE; in Redis it expires (record and all) after DEV_KEY_TTL_MS. */
function developmentKey(inRedis: boolean): KeyRecord {
  const record: KeyRecord = { key: generateKey('zpl_dev_'), scope: 'all' };
  if (inRedis) record.expiresAt = new Date(Date.now() + DEV_KEY_TTL_MS).toISOString();
  return record;
}

/** The stores, seeded from API_KEYS_FILE and the development key (if any). */
async function openStores(config: ServerConfig, events: EventSink, devKey: KeyRecord | undefined): Promise<Stores> {
  const records = config.apiKeysFile ? await loadKeyFile(config.apiKeysFile) : [];
  if (!config.fleet.redis) {
    const stores = createMemoryStores();
    await seedKeys(stores.keyStore, devKey ? [...records, devKey] : records);
    return stores;
  }
  const redis = createRedisStores({ ...config.fleet.redis, log: (message) => events.emit(redisStoreEvent(message)), requireSeed: true });
  // Keys are seeded once Redis answers, and again if it loses them; until then requests get 503, not a hang.
  keepKeysSeeded({
    keyStore: redis.keyStore, records, emit: events.emit,
    ...(config.apiKeysFile && { apiKeysFile: config.apiKeysFile }),
    ...(devKey && { expiring: devKey }),
  }, redis.connection.connected);
  return redis;
}

/** The Redis stores' log lines as events: connection state, or the key store finding its seeding gone. */
function redisStoreEvent(message: string): ServiceEvent {
  if (/^key store lost its data/.test(message)) return { type: 'key_seeding', outcome: 'lost', message };
  return { type: 'store_state', ready: / available again$/.test(message), message };
}

/** Where shadow mode keeps its cases: the Redis every replica shares, or SHADOW_DIR (SHADOW_STORE, fleet-config.ts). */
function openShadowStore(config: ServerConfig, stores: Stores): ShadowCaseStore | undefined {
  if (config.upstream.mode !== 'shadow') return undefined;
  const { shadowStore, shadowMaxCases, shadowMaxBytes } = config.fleet;
  const caps = { ...(shadowMaxCases !== undefined && { maxCases: shadowMaxCases }), ...(shadowMaxBytes !== undefined && { maxBytes: shadowMaxBytes }) };
  if (shadowStore === 'redis' && 'connection' in stores) return new RedisShadowStore(stores.connection as RedisConnection, caps);
  return config.shadow.storeDir === undefined ? undefined : new FileShadowStore(config.shadow.storeDir, caps);
}

/**
 * The render pool (RENDER_THREADS workers; 0 renders on the event loop) with its stats for the ops routes.
 * The preview page's field boxes are laid out on the same pool: a costly document cannot stall the event loop.
 */
function startRenderer(config: ServerConfig): { renderer: ServiceParts['renderer']; pool?: RenderPool } {
  const pool = config.render.threads === 0 ? undefined : createRenderPool(config.render);
  return { renderer: { ...observedRenderer(pool, renderInline), layout: pool?.fieldBoxes ?? fieldBoxesInline }, ...(pool && { pool }) };
}

async function main(): Promise<void> {
  const config = readServerConfig();
  const events = createEventSink();
  logEvents(events, createLogger({ level: config.logLevel }));
  const note = (message: string, level: 'info' | 'warn' | 'error' = 'info'): void => events.emit({ type: 'notice', level, message });

  const devKey = config.apiKeysFile ? undefined : developmentKey(config.fleet.redis !== undefined);
  const stores = await openStores(config, events, devKey);
  const { renderer, pool } = startRenderer(config);
  const shadowStore = openShadowStore(config, stores);
  const service = buildApp({ config, stores, events, renderer, ...(shadowStore && { shadowStore }) });
  const { legacyPaths } = config.clients;
  if (legacyPaths.join() !== LEGACY_MOUNT_PATH) note(`LEGACY_PATHS: legacy API at ${legacyPaths.join(', ')}`);
  if (config.upstream.mode !== 'off') note(`UPSTREAM_MODE=${config.upstream.mode}: legacy service at ${redactUrl(config.upstream.url!)}`);

  const server = createHttpServer(service.app, config.timeouts);
  server.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    // Printed once listening, so that a failed start prints its one ERROR line and nothing else.
    if (devKey) {
      console.log(`dev API key: ${devKey.key}`);
      if (devKey.expiresAt) note(`the dev API key is stored in Redis until ${devKey.expiresAt}; set API_KEYS_FILE for lasting keys`);
    }
    console.log(`listening on http://${config.host}:${port}`);
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    console.error(`ERROR: ${server.listening ? err.message : listenFailure(err, config.host, config.port)}`);
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    // The line comes after the listener is closed: whoever reads it finds new connections refused.
    server.close(() => {
      // The routers stop what they started (upstream connections, the shadow queue); the pool and stores are ours.
      service.close()
        .then(() => Promise.allSettled([stores.close(), pool?.close()]))
        .finally(() => process.exit(0));
    });
    note(`${signal}: shutting down`);
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), config.shutdownTimeoutMs).unref(); // in-flight requests get this long
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** One line for a listen that failed: the cause a newcomer can act on, never a stack trace. */
function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'EADDRINUSE': return `port ${port} is already in use`;
    case 'EACCES': return `no permission to listen on port ${port}`;
    case 'EADDRNOTAVAIL': return `cannot listen on ${host}: no such local address`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `cannot listen on ${host}: unknown host`;
    default: return `cannot listen on ${host}:${port}: ${err.message}`;
  }
}

/** The URL without credentials, for the log. */
function redactUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

main().catch((err: unknown) => {
  console.error(`ERROR: ${(err as Error).message}`);
  process.exit(1);
});
