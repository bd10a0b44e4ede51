// Rendering in worker threads with a per-request time budget (see render-pool.ts).
export { createRenderPool, DEFAULT_QUEUE_LIMIT, DEFAULT_RENDER_TIMEOUT_MS } from './render-pool.js';
export type { PoolFieldBoxesFn, RenderFn, RenderPool, RenderPoolOptions, RenderPoolStats } from './render-pool.js';
export { closeSharedRenderPools, leaseSharedRenderer, sharedRenderer, sharedRenderPoolStats } from './shared-pool.js';
export type { RendererLease, SharedRendererOptions } from './shared-pool.js';
