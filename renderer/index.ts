// Renderer entry point: ZPL bytes in, PNG or PDF bytes out.
export type {
  Dpmm,
  LossyFields,
  Rotation,
  Quality,
  OutputFormat,
  RenderFormat,
  PrinterLanguage,
  MediaType,
  PdfMode,
  PageComposition,
  RenderLimits,
  RenderOptions,
  RenderRequest,
  RenderResult,
  RenderHooks,
  RenderPlan,
} from './api.js';
export { OUTPUT_TYPES, PRINTER_LANGUAGES, isPrinterLanguage, drawsEveryLabel } from './api.js';
export type { Diagnostic, DiagnosticsOmitted } from './diagnostics.js';
export { RenderError, ordinal } from './errors.js';
export type { RenderErrorCode } from './errors.js';
export { render, DEFAULT_MAX_LABELS } from './render.js';
export { fieldBoxes, layout } from './layout/inspect.js';
export type {
  FieldBox,
  FieldBoxes,
  LayoutOptions,
  LayoutResult,
  LayoutElement,
  LayoutHooks,
} from './layout/inspect.js';
export {
  createRenderPool,
  sharedRenderer,
  leaseSharedRenderer,
  sharedRenderPoolStats,
  closeSharedRenderPools,
  DEFAULT_RENDER_TIMEOUT_MS,
} from './pool/index.js';
export type {
  PoolFieldBoxesFn,
  RenderFn,
  RenderPool,
  RenderPoolOptions,
  RenderPoolStats,
  RendererLease,
  SharedRendererOptions,
} from './pool/index.js';
export { readImageHeader } from './decode/image-header.js';
export type { ImageHeader, ImageFormat, ImageSize } from './decode/image-header.js';
