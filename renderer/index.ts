// Renderer entry point (work in progress: the interpreter lands next; this renders blank labels).
export type { Dpmm, Rotation, Quality, OutputFormat, RenderLimits, RenderRequest, RenderResult } from './api.js';
export type { Diagnostic } from './diagnostics.js';
export { RenderError, ordinal } from './errors.js';
export { render } from './render.js';
