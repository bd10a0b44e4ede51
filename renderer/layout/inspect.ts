// `layout()`: one label's display list as JSON-ready data; `fieldBoxes()`: its fields as boxes (the preview page
// connects what it shows to the ZPL bytes that made it). Synchronous and in process (`fieldBoxesAsync` gives the event
// loop turns); errors are RenderErrors exactly as render() throws them.

import { DEFAULT_SLICE_MS, type Dpmm, type RenderClock } from '../api.js';
import type { Diagnostic } from '../diagnostics.js';
import {
  checkIndex,
  openDocument,
  openDocumentSteps,
  requestMeter,
  type DocumentHooks,
  type LaidOutDocument,
} from './document.js';
import { finishSliced } from '../steps.js';
import type {
  BitmapElement,
  Box,
  DisplayElement,
  DisplayList,
  OutputKind,
  PrintArea,
  Span,
} from '../display/display-list.js';

export interface LayoutOptions extends RenderClock {
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
  /** ^PW narrower than the label: no ink outside these columns (dots). */
  printArea?: PrintArea;
  /** Diagnostics of the whole document (the X-Warnings of a render). */
  warnings: Diagnostic[];
  unsupported: string[];
}

/** What a caller may add while a label is laid out: a checkpoint before each label and field (cancel, time budget). */
export type LayoutHooks = Pick<DocumentHooks, 'checkpoint'>;

/** The document opened and the wanted label laid out, or the legacy error for an index it does not have. */
function laidOutLabel(
  zpl: Uint8Array | string,
  options: LayoutOptions & { output?: OutputKind },
  hooks: LayoutHooks,
): { doc: LaidOutDocument; index: number; list: DisplayList } {
  const doc = openDocument(zpl, options, hooks.checkpoint ? { checkpoint: hooks.checkpoint } : {});
  const index = options.index ?? 0;
  checkIndex(index, doc.totalCount);
  return { doc, index, list: doc.label(index) };
}

export function layout(zpl: Uint8Array | string, options: LayoutOptions, hooks: LayoutHooks = {}): LayoutResult {
  const { doc, index, list } = laidOutLabel(zpl, options, hooks);
  return {
    totalCount: doc.totalCount,
    index,
    width: list.width,
    height: list.height,
    elements: list.elements.map(toJson),
    mirror: list.mirror,
    invert: list.invert,
    ...(list.printArea && { printArea: list.printArea }),
    warnings: doc.plan.log.entries,
    unsupported: doc.unsupported(),
  };
}

function toJson(e: DisplayElement): LayoutElement {
  return e.kind === 'bitmap'
    ? { ...e, bits: Buffer.from(e.bits.buffer, e.bits.byteOffset, e.bits.byteLength).toString('base64') }
    : e;
}

/** What the preview page shows of a label: per field (its byte span) and element kind, one box around all it drew. */
export interface FieldBoxes {
  totalCount: number;
  index: number;
  width: number;
  height: number;
  mirror: boolean;
  invert: boolean;
  elements: FieldBox[];
}

export interface FieldBox {
  kind: DisplayElement['kind'];
  box: Box;
  span: Span;
}

/**
 * One label's fields as boxes, in the order each first drew. A QR code's modules or a 3,000-box ^GB loop are one
 * box each, so what travels to the page stays in proportion to the fields, not to what they drew.
 */
export function fieldBoxes(zpl: Uint8Array | string, options: LayoutOptions, hooks: LayoutHooks = {}): FieldBoxes {
  const { doc, index, list } = laidOutLabel(zpl, { ...options, output: 'raster' }, hooks); // boxes only: no curves
  return boxesOf(doc, index, list);
}

/**
 * fieldBoxes() on the caller's event loop, giving it a turn between commands and fields every `sliceMs` (default
 * DEFAULT_SLICE_MS): how a server that renders on its own thread lays out a costly document and keeps answering.
 */
export async function fieldBoxesAsync(
  zpl: Uint8Array | string,
  options: LayoutOptions,
  hooks: LayoutHooks & { sliceMs?: number } = {},
): Promise<FieldBoxes> {
  const meter = requestMeter(options, hooks.checkpoint, hooks.sliceMs ?? DEFAULT_SLICE_MS);
  const doc = await finishSliced(openDocumentSteps(zpl, { ...options, output: 'raster' }, { meter }), meter);
  const index = options.index ?? 0;
  checkIndex(index, doc.totalCount);
  return boxesOf(doc, index, await finishSliced(doc.labelSteps(index), meter));
}

function boxesOf(doc: LaidOutDocument, index: number, list: DisplayList): FieldBoxes {
  return {
    totalCount: doc.totalCount,
    index,
    width: list.width,
    height: list.height,
    mirror: list.mirror,
    invert: list.invert,
    elements: mergeByField(list.elements),
  };
}

function mergeByField(elements: readonly DisplayElement[]): FieldBox[] {
  const merged = new Map<string, FieldBox>();
  for (const { kind, box, span } of elements) {
    const key = `${span.start}:${span.end}:${kind}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { kind, box: { ...box }, span: { ...span } });
      continue;
    }
    seen.box = unionBox(seen.box, box);
  }
  return [...merged.values()];
}

/** The smallest box holding both. */
export function unionBox(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x),
    y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}
