// X-Lossy-Fields: bitmap. A field that has no whole-dot form at the target density (a module width of 4.49 dots, a
// device font between two cells) is drawn as it prints at the source density and scaled by its ink's edges, so
// the converted label keeps the source's geometry; ^GF carries the result.

import { claimBytes, decodeMeter, UNMETERED, type DecodeMeter } from '../decode/meter.js';
import type { DisplayList } from '../display/display-list.js';
import type { LaidOutDocument } from '../layout/document.js';
import type { Bits, Field } from '../model.js';
import { paint } from '../raster/paint.js';

/** A 1-bit image at its place on the label (dots, before ^PM and ^PO turn it). */
export interface PlacedBits {
  x: number;
  y: number;
  bits: Bits;
}

/** One-bit ink over a `width` x `height` grid. */
export interface InkGrid {
  width: number;
  height: number;
  ink(x: number, y: number): boolean;
}

/** Columns [x0, x1) and rows [y0, y1) of a grid. */
export interface GridBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The ink of `box` scaled by `scale` onto a `width` x `height` target: each edge of each ink run lands on the
 * nearest target pixel boundary of the whole label (rows, then columns), a run at least one pixel, so a crop
 * scales exactly as the label it comes from would. Returns the target box it covers as 0/1 bytes, row-major; both
 * grids (the runs scaled across, then down) are claimed on `meter`.
 */
export function scaleByEdges(
  src: InkGrid,
  box: GridBox,
  scale: number,
  width: number,
  height: number,
  meter: DecodeMeter = UNMETERED,
): { box: GridBox; mask: Uint8Array } {
  const edge = (v: number): number => Math.round(v * scale);
  const tx0 = Math.min(width, edge(box.x0)),
    tx1 = Math.min(width, Math.max(tx0 + 1, edge(box.x1)));
  const ty0 = Math.min(height, edge(box.y0)),
    ty1 = Math.min(height, Math.max(ty0 + 1, edge(box.y1)));
  const w = Math.max(0, tx1 - tx0),
    h = Math.max(0, ty1 - ty0);
  const rows = box.y1 - box.y0;
  const across = claimBytes(meter, w * rows, 'A field scaled for its bitmap');
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; ) {
      if (!src.ink(x, y)) {
        x++;
        continue;
      }
      const a = x;
      while (x < box.x1 && src.ink(x, y)) x++;
      const x0 = Math.min(tx1, edge(a)),
        x1 = Math.min(tx1, Math.max(edge(a) + 1, edge(x)));
      if (x1 > x0) across.fill(1, (y - box.y0) * w + x0 - tx0, (y - box.y0) * w + x1 - tx0);
    }
  }
  const mask = claimBytes(meter, w * h, 'A field scaled for its bitmap');
  for (let x = 0; x < w; x++) {
    for (let r = 0; r < rows; ) {
      if (!across[r * w + x]) {
        r++;
        continue;
      }
      const a = r;
      while (r < rows && across[r * w + x]) r++;
      for (
        let ty = edge(box.y0 + a), end = Math.min(ty1, Math.max(edge(box.y0 + a) + 1, edge(box.y0 + r)));
        ty < end;
        ty++
      ) {
        if (ty >= ty0) mask[(ty - ty0) * w + x] = 1;
      }
    }
  }
  return { box: { x0: tx0, y0: ty0, x1: tx0 + w, y1: ty0 + h }, mask };
}

/** What drawing fields as bitmaps needs of the source document: the memory budget, and a checkpoint. */
export interface FieldInkHooks {
  claim?: (bytes: number, what: string) => void;
  release?: (bytes: number) => void;
  checkpoint?: () => void;
  /** The request's meter: each field's painting, ink scan and scaling charged before they run. */
  meter?: DecodeMeter;
}

/**
 * For a field of `doc`, its drawing alone, scaled by `scale` onto a `target`-sized label by ink edges: undefined
 * when it drew nothing. Each label is laid out once; the field's own display-list elements are painted on a blank
 * label.
 */
export function fieldBitmaps(
  doc: LaidOutDocument,
  target: { width: number; height: number },
  scale: number,
  hooks: FieldInkHooks = {},
): (field: Field) => PlacedBits | undefined {
  const firstCopy = new Map<number, number>(); // field offset -> printed index of its label's first copy
  let printed = 0;
  for (const label of doc.plan.labels) {
    for (const f of label.fields) if (!firstCopy.has(f.at)) firstCopy.set(f.at, printed);
    printed += label.copies;
  }
  let held: { index: number; list: DisplayList } | undefined;
  // A field's scaling grids are given back with its painted label when it is done; its packed bits are kept.
  let scratch = 0;
  const scaling = decodeMeter((n, what) => {
    hooks.claim?.(n, what);
    scratch += n;
  });
  const keeping = decodeMeter(hooks.claim);
  return (field) => {
    const index = firstCopy.get(field.at);
    if (index === undefined) return undefined;
    if (held?.index !== index) {
      const list = doc.label(index);
      held = { index, list: { ...list, elements: [...list.elements] } };
    }
    const list = held.list;
    const elements = list.elements.filter((e) => e.span.start === field.at && e.span.end === field.end);
    if (!elements.length) return undefined;
    const bytes = list.width * list.height;
    hooks.claim?.(bytes, 'A field drawn for its bitmap');
    scratch = bytes;
    try {
      // Painted, scanned for ink and scaled by edges: about three passes over the label and one over the target.
      hooks.meter?.charge(bytes * 3 + Math.ceil(bytes * scale * scale));
      hooks.checkpoint?.();
      // Unturned: the converted label is turned by its own ^PM and ^PO.
      const raster = paint({
        width: list.width,
        height: list.height,
        elements,
        mirror: false,
        invert: false,
        ...(list.printArea && { printArea: list.printArea }),
      });
      const grid: InkGrid = {
        width: raster.width,
        height: raster.height,
        ink: (x, y) => raster.ink[y * raster.width + x]! >= 128,
      };
      const box = inkBox(grid);
      if (!box) return undefined;
      const scaled = scaleByEdges(grid, box, scale, target.width, target.height, scaling);
      return {
        x: scaled.box.x0,
        y: scaled.box.y0,
        bits: packBits(scaled.mask, scaled.box.x1 - scaled.box.x0, scaled.box.y1 - scaled.box.y0, keeping),
      };
    } finally {
      hooks.release?.(scratch);
    }
  };
}

/** The smallest box holding every ink pixel, or undefined for none. */
function inkBox(grid: InkGrid): GridBox | undefined {
  let x0 = grid.width,
    y0 = grid.height,
    x1 = 0,
    y1 = 0;
  for (let y = 0; y < grid.height; y++) {
    for (let x = 0; x < grid.width; x++) {
      if (!grid.ink(x, y)) continue;
      if (x < x0) x0 = x;
      if (x >= x1) x1 = x + 1;
      if (y < y0) y0 = y;
      y1 = y + 1;
    }
  }
  return x1 > x0 ? { x0, y0, x1, y1 } : undefined;
}

/** 0/1 bytes as rows of bits, MSB first, claimed on `meter`. */
function packBits(mask: Uint8Array, width: number, height: number, meter: DecodeMeter): Bits {
  const stride = Math.max(1, Math.ceil(width / 8));
  const data = claimBytes(meter, stride * height, 'A field drawn as a bitmap');
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (mask[y * width + x]) data[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  return { data, stride, width: Math.max(1, width), height };
}
