// The raster backend: a display list painted into an 8-bit coverage raster, element by element in order.

import { modeOf, type DisplayElement, type DisplayList } from '../layout/display-list.js';
import { fillPath } from './fill-path.js';
import { glyphMask } from './glyph-mask.js';
import { Raster } from './raster.js';

export function paint(list: DisplayList): Raster {
  const raster = new Raster(list.width, list.height);
  for (const el of list.elements) paintElement(raster, el);
  if (list.mirror) mirrorInPlace(raster);
  if (list.invert) rotate180InPlace(raster);
  return raster;
}

function paintElement(r: Raster, el: DisplayElement): void {
  const mode = modeOf(el);
  switch (el.kind) {
    case 'rect': r.fillRect(el.box.x, el.box.y, el.box.width, el.box.height, mode); return;
    case 'path': fillPath(r, el.contours, mode); return;
    case 'bitmap': r.blitBits(el.bits, el.stride, el.width, el.height, el.x, el.y, mode, el.scaleX, el.scaleY); return;
    case 'glyphRun':
      for (const g of el.glyphs) {
        const key = `${g.cp}:${g.shift}`;
        const m = glyphMask(`${el.font}:${key}`, el.outlines[key], el.orientation, el.crisp);
        if (m) r.blitCoverage(m.cov, m.w, m.h, g.x + m.x, g.y + m.y, mode);
      }
  }
}

function mirrorInPlace(r: Raster): void {
  for (let y = 0; y < r.height; y++) r.ink.subarray(y * r.width, (y + 1) * r.width).reverse();
}

function rotate180InPlace(r: Raster): void {
  r.ink.reverse();
}
