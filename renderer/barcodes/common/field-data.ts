// Field data as barcode drawers read it, and the one way they report data they cannot encode.

import type { DrawEnv, Field } from '../../model.js';

/** Field data as a byte string (one char per byte, Latin-1), empty when the field has none. */
export function fieldText(field: Field): string {
  const d = field.data;
  if (!d) return '';
  let s = '';
  for (let i = 0; i < d.length; i++) s += String.fromCharCode(d[i]);
  return s;
}

/** Logs a diagnostic for a barcode field whose data (or part of it) the symbology cannot encode. */
export function reportUnencodable(env: DrawEnv, field: Field, command: string, message: string): void {
  env.log?.add({ byteIndex: field.at, byteSize: field.data?.length ?? 0, command, param: 0, message });
}
