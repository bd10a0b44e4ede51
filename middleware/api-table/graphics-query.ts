// POST /graphics's query parameters (ours: the legacy service's endpoint takes none): the endpoint reads them by
// these entries and the OpenAPI document lists them from here.

import type { Dpmm } from '../../renderer/api.js';
import { PATH_PARAMETERS } from './paths.js';
import type { Described } from './table-entry.js';

export interface QueryParameterSpec extends Described {
  name: string;
  /** What a valid value looks like, checked without regard to case (the others read any text). */
  pattern?: string;
  /** What an absent one reads as. */
  default?: unknown;
}

export const GRAPHICS_QUERY = {
  threshold: {
    name: 'threshold',
    description: 'Ink below this grey level (1..255; default 128). Others are a 400.',
  },
  dither: {
    name: 'dither',
    description: '`true` (or 1, yes, on) diffuses greys instead of thresholding.',
  },
  dpmm: {
    name: 'dpmm',
    pattern: PATH_PARAMETERS.dpmm.pattern,
    default: 8 as Dpmm,
    description:
      "A print job's density (`6`, `8`, `12` or `24`, `dpmm` after it or not; default 8): the image is a label of its own " +
      'size in dots at this density. Read only for a print job (ZPL and JSON do not depend on it), where another value is ' +
      'a 400 `Unknown print density`.',
  },
} as const satisfies Record<string, QueryParameterSpec>;

/** `?dpmm=` as the density it names, or undefined for a value that is none. */
export function graphicsDensity(text: string): Dpmm | undefined {
  const match = new RegExp(GRAPHICS_QUERY.dpmm.pattern, 'i').exec(text.trim());
  return match ? (Number(match[1]) as Dpmm) : undefined;
}
