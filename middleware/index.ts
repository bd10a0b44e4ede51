// Public API of the Express layer.
export {
  createLegacyRouter,
  LEGACY_MOUNT_PATH,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_LABELS,
  DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND,
  DEFAULT_STORE_TIMEOUT_MS,
} from './router.js';
export type { LegacyRouter, LegacyRouterOptions, RenderFunction } from './router.js';
export { createMemoryStores, createRedisStores, DEFAULT_REDIS_READY_TIMEOUT_MS } from './stores.js';
export type { Stores, OpenedStores, RedisStores, RedisStoresOptions } from './stores.js';
export { storeNames, DEFAULT_STORE_NAMESPACE, STORE_NAMESPACE_PATTERN } from './stores/store-names.js';
export type { StoreNames } from './stores/store-names.js';
export { createPostgresStores, DEFAULT_POSTGRES_READY_TIMEOUT_MS } from './postgres/stores.js';
export type { PostgresStores, PostgresStoresOptions } from './postgres/stores.js';
export { PostgresUsageStore } from './postgres/usage-store.js';
export { PostgresShadowStore } from './postgres/shadow-store.js';
export { KeyvKeyStore, createMemoryKeyStore } from './keys/key-store.js';
export { seedKeys } from './keys/seed.js';
export type { SeedMarker } from './keys/seed-marker.js';
export type { KeyStore, KeyChanges } from './keys/key-store.js';
export { generateKey, hashKey, validateKeyRecord, KEY_SCOPES } from './keys/key-record.js';
export type { KeyRecord, KeyScope, StoredKey } from './keys/key-record.js';
export { loadKeyFile } from './keys/key-file.js';
export { MemoryUsageStore } from './usage/usage-store.js';
export type { ReserveOp, UsageStore } from './usage/usage-store.js';
export { RedisUsageStore } from './usage/redis-usage-store.js';
export { connectRedis, parseSentinel } from './redis-connection.js';
export type { RedisConnection, RedisConnectionOptions, RedisTarget } from './redis-connection.js';
export { StoreUnavailableError } from './deadline.js';
export { UPSTREAM_MODES, DEFAULT_UPSTREAM_TIMEOUT_MS } from './upstream/options.js';
export type { UpstreamMode, UpstreamOptions, ShadowOptions, DivergenceEvent, ShadowOutcome } from './upstream/options.js';
export { EXTRA_OUTPUTS, RENDERER_HEADER, type ExtraOutput } from './api-table.js';
export { DEFAULT_FORWARD_HEADERS } from './upstream/outgoing-headers.js';
export { createOpsRouter } from './ops/ops-router.js';
export type { OpsRouter, OpsRouterOptions } from './ops/ops-router.js';
export { createServiceMetrics } from './ops/metrics.js';
export type { ServiceMetrics, ServiceMetricsOptions } from './ops/metrics.js';
export { observedRenderer, readPoolStats } from './ops/pool-stats.js';
export type { RenderPoolStats, PoolStatsSource } from './ops/pool-stats.js';
export { buildOpenApiDocument } from './ops/openapi.js';
export { createEventSink } from './events/service-events.js';
export type { EventSink, ServiceEvent, ServiceEventType, Emit } from './events/service-events.js';
export { createLogger, logEvents, logEventsAsText, LOG_LEVELS } from './events/log-events.js';
export type { EventLogger, LoggerOptions } from './events/log-events.js';
export { parseCorsOrigins } from './cors.js';
export type { CorsOption } from './cors.js';
export { createPreviewRouter } from './preview/router.js';
export type { PreviewRouter, PreviewRouterOptions, PreviewLayoutFn, PreviewLayout, PreviewLayoutOptions, PreviewElement } from './preview/router.js';
export { SCORE_BUCKETS, shadowOwner, DEFAULT_SHADOW_MAX_CASES, DEFAULT_SHADOW_MAX_BYTES } from './upstream/shadow-store.js';
export type { ShadowSummary, StoredShadowCase, ShadowCaseStore, ShadowCases, ShadowRetention } from './upstream/shadow-store.js';
export { FileShadowStore } from './upstream/shadow-file-store.js';
export { RedisShadowStore } from './upstream/shadow-redis-store.js';
export type { RedisShadowStoreOptions } from './upstream/shadow-redis-store.js';
export { notFoundHandler, answerRouteError, markCutOffAtShutdown } from './host-edge.js';
