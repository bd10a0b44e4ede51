// Package entry: the router factory and the renderer's narrow public surface.
export * from './middleware/index.js';
// Routers stop the render workers they started with router.close(); createRenderPool() is for hosts that run their own.
export { render, RenderError, createRenderPool, sharedRenderPoolStats } from './renderer/index.js';
export { fieldBoxes, layout } from './renderer/index.js';
export type { FieldBox, FieldBoxes, LayoutOptions, LayoutResult, LayoutElement, PoolFieldBoxesFn } from './renderer/index.js';
export type { RenderRequest, RenderResult, Dpmm, Rotation, Quality, OutputFormat, Diagnostic, RenderErrorCode, RenderPool, RenderPoolOptions, RenderPoolStats, RenderHooks, RenderPlan } from './renderer/index.js';
export { renderPng } from './renderer/render-png.js';
export type { RenderPngOptions } from './renderer/render-png.js';
