// TrueType/OpenType fonts downloaded with ~DU/~DY (or named by ^A@ / ^CW): drawn at the ^A height,
// the em square scaled so that ascent + descent fill the cell, the width parameter stretching it.

import type { StoredObject } from '../model.js';
import { cachedOutline, type Face } from './face.js';
import { placeOutline, type PlacedOutline } from './place.js';

/** Looks a font up by name as ^A@ / ^CW give it (`E:ARIAL.TTF`, `ARIAL.TTF`, `E:ARIAL`). */
export function findFontObject(objects: ReadonlyMap<string, StoredObject>, name: string): StoredObject | undefined {
  const n = name.trim().toUpperCase();
  const withDrive = /^[A-Z]:/.test(n) ? n : `R:${n}`;
  const bare = withDrive.slice(2);
  const direct = objects.get(n) ?? objects.get(withDrive);
  if (direct?.kind === 'font') return direct;
  for (const obj of objects.values()) {
    if (obj.kind !== 'font') continue;
    const objBare = obj.name.replace(/^[A-Z]:/, '');
    if (objBare === bare || objBare.replace(/\.[A-Z]+$/, '') === bare.replace(/\.[A-Z]+$/, '')) return obj;
  }
  return undefined;
}

export function downloadedFace(obj: StoredObject, height: number, width: number): Face | null {
  const font = obj.outlines;
  if (!font) return null;
  const h = Math.max(1, height);
  const sy = h / Math.max(1, font.ascent - font.descent);
  const sx = width > 0 ? (sy * width) / h : sy;
  const key = `${font.id}:${h}:${width}`;
  const place = (cp: number): PlacedOutline | null => {
    const g = font.glyph(cp);
    return g ? placeOutline(g, sx, { sy, oy: 0 }, 0) : null;
  };
  return {
    key,
    height: h,
    baseline: Math.round(font.ascent * sy),
    antialias: true,
    advance: (cp) => (font.glyph(cp)?.advance ?? font.unitsPerEm / 2) * sx,
    outline: (cp) => cachedOutline(key, cp, place),
  };
}
