// Package entry: the router factory and the renderer's narrow public surface.
import type { RenderHooks, RenderRequest, RenderResult } from './renderer/index.js';
import type { RenderPngOptions } from './renderer/render-png.js';

export * from './middleware/index.js';
export * from './middleware/stores/redis/index.js';
export * from './middleware/stores/postgres/index.js';
export * from './middleware/printer/index.js';
// Routers stop the render workers they started with router.close(); createRenderPool() is for hosts that run their own.
export { RenderError } from './renderer/errors.js';
export { createRenderPool, sharedRenderPoolStats } from './renderer/pool/index.js';
export { fieldBoxes, fieldBoxesAsync, layout } from './renderer/layout/inspect.js';
export type {
  FieldBox,
  FieldBoxes,
  LayoutOptions,
  LayoutResult,
  LayoutElement,
  PoolFieldBoxesFn,
} from './renderer/index.js';
export type {
  RenderRequest,
  RenderResult,
  Dpmm,
  Rotation,
  Quality,
  OutputFormat,
  RenderFormat,
  PrinterLanguage,
  MediaType,
  Diagnostic,
  RenderErrorCode,
  RenderPool,
  RenderPoolOptions,
  RenderPoolStats,
  RenderHooks,
  RenderPlan,
  PdfMode,
} from './renderer/index.js';
export type { RenderPngOptions } from './renderer/render-png.js';

// The drawing code loads on first use: a host whose render workers draw (the standalone server) never loads it on
// its own thread (about 24 MB).

/** Renders one request on this thread (see renderer/render.ts). */
export async function render(zpl: string | Uint8Array, req: RenderRequest, hooks?: RenderHooks): Promise<RenderResult> {
  return (await import('./renderer/render.js')).render(zpl, req, hooks);
}

/** `renderPng` as the outside contract names it: the same bytes the HTTP API returns for the same inputs. */
export async function renderPng(zpl: string | Uint8Array, opts: RenderPngOptions): Promise<Uint8Array> {
  return (await import('./renderer/render-png.js')).renderPng(zpl, opts);
}
