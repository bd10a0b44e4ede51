// Field data as barcode drawers read it, and the one way they report data they cannot encode.

import { fieldDataSpan } from '../../diagnostics.js';
import type { FieldBase } from '../../model.js';
import type { DrawEnv } from '../../display/drawer.js';
import { latin1 } from '../../zpl/params.js';

/** Field data as a byte string (one char per byte, Latin-1), empty when the field has none. */
export function fieldText(field: Pick<FieldBase, 'data'>): string {
  return field.data ? latin1(field.data) : '';
}

/** Logs a diagnostic for a barcode field whose data (or part of it) the symbology cannot encode. */
export function reportUnencodable(env: DrawEnv, field: FieldBase, command: string, message: string): void {
  env.log?.add({ ...fieldDataSpan(field), command, param: 0, message });
}
