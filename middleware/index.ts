// Public API of the Express layer, `zpl-legacy-compat/router`: what a host app (and the standalone server, built as
// one) uses, without the Redis and PostgreSQL backends (their own entries) and without drawing code. The names and
// their stability are listed in README.md ("Stable API"); everything else is internal and may change.

// The router and its migration modes.
export { createLegacyRouter, LEGACY_MOUNT_PATH } from './router/router.js';
export type { LegacyRouter, LegacyRouterOptions, RenderFunction } from './router/router.js';
export { UPSTREAM_MODES } from './upstream/options.js';
export type {
  UpstreamMode,
  UpstreamOptions,
  ShadowOptions,
  DivergenceEvent,
  ShadowOutcome,
} from './upstream/options.js';
export { EXTRA_OUTPUTS } from './api-table/index.js';
export type { ExtraOutput } from './api-table/index.js';
export { DEFAULT_FORWARD_HEADERS } from './upstream/outgoing-headers.js';
export type { CorsOption } from './http/cors.js';
export { parseCorsOrigins } from './http/cors.js';

// Stores: the seam every backend fills (OpenedStores), and the memory backend. Redis and PostgreSQL have entries
// of their own (stores/redis/index.ts, stores/postgres/index.ts), so that the router alone loads neither client.
export type { Stores, OpenedStores } from './stores/opened-stores.js';
export * from './stores/memory/index.js';
export { DEFAULT_STORE_NAMESPACE, STORE_NAMESPACE_PATTERN } from './stores/store-names.js';
export type { StoreNames } from './stores/store-names.js';
// Keys on any Keyv store, counters in this process: the recipe in docs/stores-and-fleets.md.
export { KeyvKeyStore } from './stores/key-store.js';
export type { KeyStore, KeyChanges } from './stores/key-store.js';
export type { ReserveOp, UsageStore } from './stores/usage-store.js';
export { FileShadowStore } from './stores/shadow-file-store.js';
export type {
  ShadowSummary,
  StoredShadowCase,
  ShadowCaseStore,
  ShadowCases,
  ShadowRetention,
} from './stores/shadow-store.js';
export type {
  PrintedLabel,
  PrinterFeed,
  PrinterFeedEvent,
  PrinterFeedLimits,
  PrinterJobRecord,
} from './stores/printer-feed.js';

// API keys.
export { generateKey } from './keys/key-record.js';
export type { KeyRecord, KeyScope, StoredKey } from './keys/key-record.js';
export { loadKeyFile } from './keys/key-file.js';
export { seedKeys } from './stores/seed.js';
export type { SeedMarker } from './stores/seed-marker.js';

// Operations: health, metrics and OpenAPI router, events and logs, the preview page.
export { createOpsRouter } from './ops/ops-router.js';
export type { OpsRouter, OpsRouterOptions } from './ops/ops-router.js';
export type { ServiceMetrics, ServiceMetricsOptions } from './ops/metrics.js';
export { observedRenderer } from './ops/pool-stats.js';
// The render pool the router renders on (worker threads: the drawing code loads in them, never on this thread).
export { createRenderPool, sharedRenderPoolStats } from '../renderer/pool/index.js';
export type { PoolFieldBoxesFn, RenderPool, RenderPoolOptions } from '../renderer/pool/index.js';
export { RenderError } from '../renderer/errors.js';
export type { RenderErrorCode } from '../renderer/errors.js';
export type { RenderPoolStats, PoolStatsSource } from './ops/pool-stats.js';
export { createEventSink } from './events/service-events.js';
export type { EventSink, ServiceEvent, ServiceEventType, Emit } from './events/service-events.js';
export { createLogger, logEvents, LOG_LEVELS } from './events/log-events.js';
export type { EventLogger, LoggerOptions } from './events/log-events.js';
export { createPreviewRouter } from './preview/router.js';
export type {
  PreviewRouter,
  PreviewRouterOptions,
  PreviewLayoutFn,
  PreviewLayout,
  PreviewLayoutOptions,
  PreviewElement,
} from './preview/router.js';

// A bare Node host's edge: its 404, its answer to a route's failure, and answers cut off by shutdown.
export { notFoundHandler, answerRouteError, markCutOffAtShutdown } from './router/host-edge.js';
