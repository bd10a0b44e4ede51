// Names of stored objects (`R:LOGO.GRF`) and looking them up the way a printer searches its drives.

import type { StoredObject } from '../model.js';

/** Drives in the order a printer searches them when a name has no drive letter. */
export const DRIVES = ['R', 'E', 'B', 'A'] as const;

/**
 * Normalises `d:o.x` to upper case with a drive (default `R:`) and an extension (default `defaultExt`),
 * e.g. `logo` -> `R:LOGO.GRF`. Returns the name and whether the drive was written.
 */
export function objectName(raw: string, defaultExt: string): { name: string; driveGiven: boolean } {
  let s = raw.trim().toUpperCase();
  let drive = 'R';
  let driveGiven = false;
  const m = /^([A-Z]):/.exec(s);
  if (m) { drive = m[1]; s = s.slice(2); driveGiven = true; }
  if (!/\.[A-Z0-9]{1,3}$/.test(s)) s += '.' + defaultExt;
  return { name: `${drive}:${s}`, driveGiven };
}

/** Finds an object by name; without an explicit drive every drive is searched (R:, E:, B:, A:). */
export function findObject(objects: ReadonlyMap<string, StoredObject>, raw: string, defaultExt: string): StoredObject | undefined {
  const { name, driveGiven } = objectName(raw, defaultExt);
  const hit = objects.get(name);
  if (hit || driveGiven) return hit;
  const rest = name.slice(2);
  for (const d of DRIVES) {
    const o = objects.get(`${d}:${rest}`);
    if (o) return o;
  }
  return undefined;
}

/** Whether an object of this name is stored on any drive, with any extension (a font's .TTF, .FNT or .TTE). */
export function hasObjectNamed(objects: ReadonlyMap<string, StoredObject>, raw: string): boolean {
  const stem = (name: string): string => name.replace(/^[A-Z]:/, '').replace(/\.[A-Z0-9]{1,3}$/, '');
  const wanted = stem(objectName(raw, '').name);
  for (const name of objects.keys()) if (stem(name) === wanted) return true;
  return false;
}

/** `^ID` patterns: `*` matches any run of characters in the name or extension. */
export function namePattern(raw: string, defaultExt: string): RegExp {
  const { name } = objectName(raw, defaultExt);
  const escaped = name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}
