// Rendering in worker threads with a per-request time budget (see render-pool.ts).
export { createRenderPool, DEFAULT_RENDER_TIMEOUT_MS } from './render-pool.js';
export type { RenderFn, RenderPool, RenderPoolOptions } from './render-pool.js';
export { closeSharedRenderPools, leaseSharedRenderer, sharedRenderer } from './shared-pool.js';
export type { RendererLease, SharedRendererOptions } from './shared-pool.js';
