// Renderer entry point: ZPL bytes in, PNG or PDF bytes out.
export type { Dpmm, Rotation, Quality, OutputFormat, PdfMode, PageComposition, RenderLimits, RenderRequest, RenderResult } from './api.js';
export type { Diagnostic } from './diagnostics.js';
export { RenderError, ordinal } from './errors.js';
export type { RenderErrorCode } from './errors.js';
export { render } from './render.js';
export { layout } from './layout/api.js';
export type { LayoutOptions, LayoutResult, LayoutElement } from './layout/api.js';
export { createRenderPool, sharedRenderer, leaseSharedRenderer, closeSharedRenderPools, DEFAULT_RENDER_TIMEOUT_MS } from './pool/index.js';
export type { RenderFn, RenderPool, RenderPoolOptions, RendererLease, SharedRendererOptions } from './pool/index.js';
