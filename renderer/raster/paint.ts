// The raster backend: a display list painted into an 8-bit coverage raster, element by element in order.

import { UNMETERED, type DecodeMeter } from '../decode/meter.js';
import { modeOf, type DisplayElement, type DisplayList, type PrintArea } from '../display/display-list.js';
import { fillPath } from './fill-path.js';
import { glyphMask, maskGroup } from './glyph-mask.js';
import { Raster } from './raster.js';
import { rowOrder, settle, type RowOrder } from './row-order.js';
import { finish, type Steps } from '../steps.js';

/** `ink`, when given, is `width * height` zeros to paint on (a reused buffer, raster/scratch.ts); default a fresh one. */
export function paint(list: DisplayList, ink?: Uint8Array, meter?: DecodeMeter): Raster {
  return finish(paintSteps(list, ink, meter));
}

/** paint() as steps: it may pause between elements when the meter's slice is spent. */
export function* paintSteps(list: DisplayList, ink?: Uint8Array, meter?: DecodeMeter): Steps<Raster> {
  const { raster, order } = yield* paintRowsSteps(list, ink, meter);
  return settle(raster, order);
}

/** The label drawn but not yet mirrored or turned (^PM Y, ^PO I): `order` says how to read its rows. */
export function paintRows(
  list: DisplayList,
  ink?: Uint8Array,
  meter?: DecodeMeter,
): { raster: Raster; order: RowOrder } {
  return finish(paintRowsSteps(list, ink, meter));
}

/** paintRows() as steps: it may pause between elements when the meter's slice is spent. */
export function* paintRowsSteps(
  list: DisplayList,
  ink?: Uint8Array,
  meter?: DecodeMeter,
): Steps<{ raster: Raster; order: RowOrder }> {
  const raster = new Raster(list.width, list.height, ink, true); // rows' painted ranges kept for the encoder
  const m = meter ?? UNMETERED;
  for (const el of list.elements) {
    m.charge(elementUnits(el));
    paintElement(raster, el, m);
    if (m.sliceDue) yield;
  }
  if (list.printArea) clearOutside(raster, list.printArea);
  return { raster, order: rowOrder(list.mirror, list.invert) };
}

/** About the pixels an element's painting touches (a glyph run: its glyphs' boxes), charged before it is painted. */
function elementUnits(el: DisplayElement): number {
  switch (el.kind) {
    case 'rect':
      return el.box.width * el.box.height;
    case 'bitmap':
      return el.width * el.height * el.scaleX * el.scaleY;
    case 'glyphRun':
      return el.glyphs.length * 64;
    default:
      // A path is filled over its box, row by row.
      return el.box.width * el.box.height;
  }
}

/** Paints one element; the coverage a path or a new glyph needs is claimed on `meter` while it is made. */
function paintElement(r: Raster, el: DisplayElement, meter: DecodeMeter): void {
  const mode = modeOf(el);
  switch (el.kind) {
    case 'rect':
      r.fillRect(el.box.x, el.box.y, el.box.width, el.box.height, mode);
      return;
    case 'path':
      fillPath(r, el.contours, mode, meter);
      return;
    case 'bitmap':
      r.blitBits(el.bits, el.stride, el.width, el.height, el.x, el.y, mode, el.scaleX, el.scaleY);
      return;
    case 'glyphRun': {
      const group = maskGroup(el.font, el.orientation, el.crisp);
      for (const g of el.glyphs) {
        const m = glyphMask(group, el, g, meter);
        if (m) r.blitCoverage(m.cov, m.w, m.h, g.x + m.x, g.y + m.y, mode, m.view);
      }
    }
  }
}

/** Paper left of the print area and right of it. */
function clearOutside(r: Raster, area: PrintArea): void {
  const x0 = Math.max(0, Math.min(area.x, r.width)),
    x1 = Math.max(x0, Math.min(area.x + area.width, r.width));
  for (let y = 0; y < r.height; y++) {
    r.ink.fill(0, y * r.width, y * r.width + x0);
    r.ink.fill(0, y * r.width + x1, (y + 1) * r.width);
  }
}
