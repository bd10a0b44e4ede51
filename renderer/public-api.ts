// `zpl-legacy-compat/renderer`: the renderer alone, without the router, its HTTP packages or the stores. Its names
// are the renderer's row of README.md's Stable API; loading it loads the drawing code (use the render pool's
// workers, or the package root's lazy `render`, to keep that off a thread that serves requests).

export { render } from './render.js';
export { renderPng } from './render-png.js';
export type { RenderPngOptions } from './render-png.js';
export { RenderError } from './errors.js';
export type { RenderErrorCode } from './errors.js';
export { fieldBoxes, fieldBoxesAsync, layout } from './layout/inspect.js';
export type { FieldBox, FieldBoxes, LayoutElement, LayoutOptions, LayoutResult } from './layout/inspect.js';
export { createRenderPool, sharedRenderPoolStats } from './pool/index.js';
export type { PoolFieldBoxesFn, RenderPool, RenderPoolOptions, RenderPoolStats } from './pool/index.js';
export type {
  Dpmm,
  LossyFields,
  OutputFormat,
  PageComposition,
  PdfMode,
  Quality,
  RenderHooks,
  RenderPlan,
  RenderRequest,
  RenderResult,
  Rotation,
} from './api.js';
export type { Diagnostic, DiagnosticsOmitted } from './diagnostics.js';
