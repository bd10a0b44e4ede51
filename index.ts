// Package entry: the router factory and the renderer's narrow public surface.
export { render, RenderError } from './renderer/index.js';
export type { RenderRequest, RenderResult, Dpmm, Rotation, Quality, OutputFormat, Diagnostic } from './renderer/index.js';
export { renderPng } from './renderer/render-png.js';
