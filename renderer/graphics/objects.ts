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
  if (m) {
    drive = m[1];
    s = s.slice(2);
    driveGiven = true;
  }
  if (!/\.[A-Z0-9]{1,3}$/.test(s)) s += '.' + defaultExt;
  return { name: `${drive}:${s}`, driveGiven };
}

/** Finds an object by name; without an explicit drive every drive is searched (R:, E:, B:, A:). */
export function findObject(
  objects: ReadonlyMap<string, StoredObject>,
  raw: string,
  defaultExt: string,
): StoredObject | undefined {
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

/** A `d:o.x` pattern split into its parts, each `*` where the text leaves it out (^TO defaults). */
interface ObjectPattern {
  drive?: string;
  name: string;
  ext: string;
}

function splitPattern(raw: string): ObjectPattern {
  let s = raw.trim().toUpperCase();
  let drive: string | undefined;
  const m = /^([A-Z]):/.exec(s);
  if (m) {
    drive = m[1];
    s = s.slice(2);
  }
  const dot = s.lastIndexOf('.');
  const name = dot >= 0 ? s.slice(0, dot) : s;
  const ext = dot >= 0 ? s.slice(dot + 1) : '';
  return { drive, name: name || '*', ext: ext || '*' };
}

/** `*` as a capture of any run of characters, the rest literal. */
function globCapture(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('(.*)')}$`,
  );
}

/** `glob` with each `*` replaced by the next of `parts` (what the source's `*` matched); a glob without one as is. */
function fillGlob(glob: string, parts: readonly string[]): string {
  let k = 0;
  return glob.replace(/\*/g, () => parts[k++] ?? '');
}

/** Why a ^TO is ignored, or the pairs of stored names it copies (`from` -> `to`). */
export type Transfer = { ignored: string; param: number } | { copies: Array<{ from: string; to: string }> };

/**
 * ^TOs:o.x,d:o.x as the ZPL II guide gives it: the source's name and extension default to `*`, the destination's to
 * the source's own; `*` in the destination takes what `*` matched in the source (LOGO*.GRF -> NEW*.GRF). The
 * destination drive must be given and differ from the source's; Zebra's own Z: files are not transferred.
 */
export function transferPairs(names: Iterable<string>, rawSource: string, rawDest: string): Transfer {
  const src = splitPattern(rawSource);
  const dst = splitPattern(rawDest);
  if (!dst.drive) return { ignored: 'Destination drive missing; ignored', param: 2 };
  if (src.drive === 'Z') return { ignored: 'Zebra files (Z:) cannot be transferred; ignored', param: 1 };
  if (src.drive === dst.drive) return { ignored: 'Source and destination drives must differ; ignored', param: 2 };
  const nameRe = globCapture(src.name),
    extRe = globCapture(src.ext);
  const copies: Array<{ from: string; to: string }> = [];
  for (const key of names) {
    const drive = key[0],
      dot = key.lastIndexOf('.');
    if (drive === dst.drive || drive === 'Z' || (src.drive && drive !== src.drive)) continue;
    const n = nameRe.exec(key.slice(2, dot)),
      e = extRe.exec(key.slice(dot + 1));
    if (!n || !e) continue;
    const name = dst.name === '*' && !src.name.includes('*') ? n[0] : fillGlob(dst.name, n.slice(1));
    const ext = dst.ext === '*' && !src.ext.includes('*') ? e[0] : fillGlob(dst.ext, e.slice(1));
    copies.push({ from: key, to: `${dst.drive}:${name || key.slice(2, dot)}.${ext || key.slice(dot + 1)}` });
  }
  return { copies };
}
