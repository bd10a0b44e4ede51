// `layout()`: one label's display list as JSON-ready data (the preview page connects what it shows to the
// ZPL bytes that made it). Synchronous and in process; errors are RenderErrors exactly as render() throws them.

import type { Dpmm } from '../api.js';
import type { Diagnostic } from '../diagnostics.js';
import { checkIndex, openDocument } from './document.js';
import type { BitmapElement, DisplayElement } from './display-list.js';

export interface LayoutOptions {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  /** Zero-based label index (^PQ copies count); default 0. */
  index?: number;
  maxLabels?: number;
  maxPixels?: number;
}

/** A display-list element as JSON: a bitmap's `bits` are base64 (rows MSB first, `stride` bytes a row). */
export type LayoutElement = Exclude<DisplayElement, BitmapElement> | (Omit<BitmapElement, 'bits'> & { bits: string });

export interface LayoutResult {
  /** Every label the document produces, ^PQ copies included. */
  totalCount: number;
  index: number;
  /** Label size in dots. */
  width: number;
  height: number;
  /** In drawing order: later elements lie over earlier ones (reverse ink flips what is under it). */
  elements: LayoutElement[];
  /** ^PM Y mirrors and ^PO I turns the finished label (180 degrees); element coordinates are before either. */
  mirror: boolean;
  invert: boolean;
  /** Diagnostics of the whole document (the X-Warnings of a render). */
  warnings: Diagnostic[];
  unsupported: string[];
}

export function layout(zpl: Uint8Array | string, options: LayoutOptions): LayoutResult {
  const doc = openDocument(zpl, options);
  const index = options.index ?? 0;
  checkIndex(index, doc.totalCount);
  const list = doc.label(index);
  return {
    totalCount: doc.totalCount, index, width: list.width, height: list.height,
    elements: list.elements.map(toJson), mirror: list.mirror, invert: list.invert,
    warnings: doc.plan.log.entries, unsupported: doc.unsupported,
  };
}

function toJson(e: DisplayElement): LayoutElement {
  return e.kind === 'bitmap' ? { ...e, bits: Buffer.from(e.bits.buffer, e.bits.byteOffset, e.bits.byteLength).toString('base64') } : e;
}
