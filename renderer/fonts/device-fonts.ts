// The fixed-cell device fonts A-H and GS: cell sizes and glyph boxes measured from the legacy renderer,
// glyph shapes from DejaVu Sans Mono scaled into those boxes. Magnification is by whole multiples.

import type { OutlineFont, OutlineGlyph } from '../decode/outline-font.js';
import { dejaVuSansMono, dejaVuSansMonoBold, dejaVuSansCondensedBold, ocrA, ocrB, withGlyph } from './builtin.js';
import { cachedOutline, type Face } from './face.js';
import { placeOutline, type PlacedOutline } from './place.js';
import { deviceMetrics, type DeviceGlyphBox } from './device-metrics.js';
import { deviceModel, type DeviceGlyphModel } from './device-model.js';
import { adjustOutline, type GlyphAdjustment } from './embolden.js';

export interface DeviceFont {
  /** Base cell height (the unit of height magnification and the ^FB line pitch), in dots. */
  cellHeight: number;
  /** Nominal character width of the Zebra font table (the unit of ^A width magnification). */
  width: number;
  /** Heavier DejaVu shapes for the bold-looking fonts. */
  bold: boolean;
  /** OCR fonts: E is OCR-B, H is OCR-A. */
  ocr?: 'A' | 'B';
  /** Font B has no lower case: lower-case letters print as capitals. */
  upperOnly?: boolean;
  /** Font B's full-width glyphs start at the pen (its H, E, L, C, J all do), not where DejaVu Mono centres them. */
  leftAligned?: boolean;
}

/** Zebra's font matrices at 8 dpmm (cell height x character width); measured metrics are in device-metrics.ts. */
export const deviceFonts: Readonly<Record<string, DeviceFont>> = {
  A: { cellHeight: 9, width: 5, bold: false },
  B: { cellHeight: 11, width: 7, bold: true, upperOnly: true, leftAligned: true },
  C: { cellHeight: 18, width: 10, bold: false },
  D: { cellHeight: 18, width: 10, bold: false },
  E: { cellHeight: 28, width: 15, bold: false, ocr: 'B' },
  F: { cellHeight: 26, width: 13, bold: false },
  G: { cellHeight: 60, width: 40, bold: false },
  H: { cellHeight: 21, width: 13, bold: false, ocr: 'A' },
  GS: { cellHeight: 24, width: 24, bold: false },
};

/** The measured box of M: the cap height, baseline and full glyph width of a font. */
function referenceBox(name: string, f: DeviceFont): DeviceGlyphBox {
  return deviceMetrics[name]?.[0x4d] ?? [f.width + 1, 0, f.width, 0, Math.round(f.cellHeight * 0.78)];
}

/** Whole-number magnification for a requested size: the nearest multiple of the base, at least 1. */
export function magnification(requested: number, base: number): number {
  return requested > 0 ? Math.max(1, Math.round(requested / base)) : 0;
}

function shapeFont(f: DeviceFont): ReadonlyArray<() => OutlineFont | null> {
  if (f.ocr) return [f.ocr === 'A' ? ocrA : ocrB, dejaVuSansMono, dejaVuSansCondensedBold];
  return f.bold ? [dejaVuSansMonoBold, dejaVuSansCondensedBold] : [dejaVuSansMono, dejaVuSansCondensedBold];
}

/** Horizontal and vertical magnification of a font for a requested height and width (a missing one follows the other). */
export function deviceMagnification(f: DeviceFont, height: number, width: number): { mx: number; my: number } {
  let my = magnification(height, f.cellHeight);
  let mx = magnification(width, f.width);
  if (!my && !mx) my = mx = 1;
  else if (!my) my = mx;
  else if (!mx) mx = my;
  return { mx, my };
}

/** `cp` of font `name` at magnification (mx, my), stretched into its measured box, before the glyph model adjusts it. */
export function placeDeviceGlyph(name: string, cp: number, mx: number, my: number): PlacedOutline | null {
  const f = deviceFonts[name];
  if (!f) return null;
  const ref = referenceBox(name, f);
  const baseline = Math.round(ref[4]);
  const font = withGlyph(cp, shapeFont(f));
  const g = font?.glyph(cp);
  const m = font?.glyph(0x4d);
  if (!font || !g || !m || !g.contours.length) return null;
  const box = deviceMetrics[name]?.[cp];
  if (box) {
    // Stretch the outline onto the measured ink box (y measured down from the cell top).
    const sx = ((box[2] - box[1]) * mx) / Math.max(1, g.maxX - g.minX);
    const sy = ((box[4] - box[3]) * my) / Math.max(1, g.maxY - g.minY);
    return placeOutline(g, sx, { sy, oy: (box[4] - baseline) * my + g.minY * sy }, box[1] * mx - g.minX * sx);
  }
  // Unmeasured glyph: scaled as M is, or as a measured glyph of its kind: a digit stands as tall as a measured digit
  // does. OCR designs share one lower-case scale, so there a letter stands as a measured lower-case letter does (fE
  // "M5i" rotated 0.954-0.959 -> 0.983-0.988); DejaVu Mono's letters do not (carriers' lower case lost up to 0.0015).
  const kin = isDigit(cp) ? measuredDigit(name, font) : f.ocr && isLower(cp) ? measuredLower(name, font) : null;
  const { sx, x } = unmeasuredAcross(f, ref, g, m, kin, mx);
  if (kin) {
    const sy = ((kin.box[4] - kin.box[3]) * my) / Math.max(1, kin.glyph.maxY - kin.glyph.minY);
    return placeOutline(g, sx, { sy, oy: (kin.box[4] - baseline) * my + kin.glyph.minY * sy }, x);
  }
  const sy = ((ref[4] - ref[3]) * my) / Math.max(1, m.maxY - m.minY);
  return placeOutline(g, sx, { sy, oy: 0 }, x);
}

/**
 * The width scale of an unmeasured glyph and where its outline origin goes across the cell. The OCR fonts' outlines are
 * the legacy designs, so a glyph keeps M's scale and its own place beside M (centred, fE "M5i" rotated fell 0.959 ->
 * 0.923). DejaVu Mono only stands in, so its glyphs are centred on M's measured box (rotated fG "M5i" 0.979 -> 0.9997,
 * dhlparceluk_ver 0.908 -> 0.965; 11 of 26 carriers rose, 5 fell by at most 0.0004), and its digits take a measured
 * digit's width and centre (fC_snap "505" 0.988 -> 1, fF_snap 0.944 -> 0.954). Font B's wide glyphs start at the pen.
 */
function unmeasuredAcross(
  f: DeviceFont,
  ref: DeviceGlyphBox,
  g: OutlineGlyph,
  m: OutlineGlyph,
  kin: MeasuredGlyph | null,
  mx: number,
): { sx: number; x: number } {
  const scaleOf = (on: MeasuredGlyph): number =>
    ((on.box[2] - on.box[1]) * mx) / Math.max(1, on.glyph.maxX - on.glyph.minX);
  const sx = scaleOf({ box: ref, glyph: m });
  if (f.leftAligned && g.maxX - g.minX >= 0.7 * (m.maxX - m.minX)) return { sx, x: ref[1] * mx - g.minX * sx };
  if (f.ocr) return { sx, x: ref[1] * mx - m.minX * sx };
  const on = kin ?? { box: ref, glyph: m };
  const s = kin ? scaleOf(kin) : sx;
  return { sx: s, x: ((on.box[1] + on.box[2]) / 2) * mx - ((g.minX + g.maxX) / 2) * s };
}

const isDigit = (cp: number): boolean => cp >= 0x30 && cp <= 0x39;
const isLower = (cp: number): boolean => cp >= 0x61 && cp <= 0x7a;

/** A measured ink box and the glyph's outline in the shape font. */
interface MeasuredGlyph {
  box: DeviceGlyphBox;
  glyph: OutlineGlyph;
}

/** A glyph of font `name` of one kind with a measured ink box. */
function measuredOfKind(name: string, font: OutlineFont, kind: (cp: number) => boolean): MeasuredGlyph | null {
  for (const [cp, box] of Object.entries(deviceMetrics[name] ?? {})) {
    const glyph = kind(Number(cp)) ? font.glyph(Number(cp)) : null;
    if (glyph) return { box, glyph };
  }
  return null;
}

const measuredDigit = (name: string, font: OutlineFont) => measuredOfKind(name, font, isDigit);
const measuredLower = (name: string, font: OutlineFont) => measuredOfKind(name, font, isLower);

/**
 * The fitted weights and offset of `cp` in font `name` at magnification (mx, my), in dots; null when none, or below the
 * lowest magnification fitted. Above the fitted ones an entry holds: the legacy glyphs are magnified bitmaps.
 */
export function deviceAdjustment(
  name: string,
  cp: number,
  mx: number,
  my: number,
  model: Readonly<Record<string, Readonly<Record<number, DeviceGlyphModel>>>> = deviceModel,
): GlyphAdjustment | null {
  const m = model[name]?.[cp];
  if (!m || Math.min(mx, my) < m[4]) return null;
  return { weightX: m[0] * mx, weightY: m[1] * my, dx: m[2] * mx, dy: m[3] * my };
}

export function deviceFace(name: string, height: number, width: number): Face | null {
  const f = deviceFonts[name];
  if (!f) return null;
  const { mx, my } = deviceMagnification(f, height, width);
  const key = `${name}:${mx}:${my}`;
  const mapChar = f.upperOnly ? (cp: number) => (cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp) : undefined;
  const ref = referenceBox(name, f);
  const baseline = Math.round(ref[4]);
  const place = (cp: number): PlacedOutline | null => {
    const placed = placeDeviceGlyph(name, cp, mx, my);
    const adjust = placed && deviceAdjustment(name, cp, mx, my);
    return adjust ? adjustOutline(placed, adjust) : placed;
  };
  return {
    key,
    height: f.cellHeight * my,
    baseline: baseline * my,
    antialias: true,
    mapChar,
    advance: () => Math.round(ref[0]) * mx,
    outline: (cp) => cachedOutline(key, cp, place),
  };
}
