// Shared helpers for barcode drawers (linear and 2D): symbol frames, bars, interpretation lines, field data.

export * from './frame.js';
export * from './bars.js';
export * from './interpretation.js';
export * from './field-data.js';
