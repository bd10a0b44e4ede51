// Path parameters of the render endpoints: what a valid segment looks like (checked in path-params.ts).

import type { Described } from './table-entry.js';

export interface PathParameterSpec extends Described {
  /** Name in the path template (`{dpmm}`) and in Express (`:dpmm`). */
  name: string;
  /** What a valid segment looks like; checked case-insensitively. */
  pattern: string;
  example: string;
  /** Takes the rest of the path, slashes included (the ZPL of GET). */
  rest?: boolean;
}

const NUMBER = '(\\d+(?:\\.\\d*)?|\\.\\d+)';

export const MAX_LABEL_INCHES = 15;
export const MIN_LABEL_INCHES = 0.001;

export const PATH_PARAMETERS = {
  dpmm: {
    name: 'dpmm',
    pattern: '^(6|8|12|24)(?:dpmm)?$',
    example: '8dpmm',
    description:
      'Print density in dots per millimetre: 6dpmm, 8dpmm, 12dpmm or 24dpmm (the suffix is optional). Anything else is a 400 `Unknown print density`.',
  },
  dimensions: {
    name: 'dimensions',
    pattern: `^${NUMBER}x${NUMBER}$`,
    example: '4x6',
    description: `Label size \`{width}x{height}\` in inches, each ${MIN_LABEL_INCHES} to ${MAX_LABEL_INCHES}.`,
  },
  index: {
    name: 'index',
    pattern: '^\\d+$',
    example: '0',
    description: 'Zero-based index of the label to render; past the last label is a 404.',
  },
  zpl: {
    name: 'zpl',
    pattern: '^.+$',
    example: '%5EXA%5EFO50%2C50%5EGB100%2C100%2C100%5EFS%5EXZ',
    rest: true,
    description:
      'The ZPL document, URL-encoded (the rest of the path). URLs are limited to about 16 KB; send longer documents with POST.',
  },
} as const satisfies Record<string, PathParameterSpec>;

/** A path parameter by the name a template gives it in braces. */
export const PARAMETER_BY_NAME: Readonly<Record<string, PathParameterSpec>> = PATH_PARAMETERS;
