// Path segments of the render endpoints: density, label size in inches, label index (forms: api-table/paths.ts).

import type { Dpmm } from '../../renderer/index.js';
import { MAX_LABEL_INCHES, MIN_LABEL_INCHES, PATH_PARAMETERS, segmentPattern } from '../api-table/index.js';
import { PlainHttpError } from '../http/http-errors.js';

const DENSITY = segmentPattern(PATH_PARAMETERS.dpmm);
const DIMENSIONS = segmentPattern(PATH_PARAMETERS.dimensions);
const INDEX = segmentPattern(PATH_PARAMETERS.index);

/** `8dpmm` or `8` (6, 8, 12, 24). */
export function parseDensity(segment: string): Dpmm {
  const match = DENSITY.exec(segment);
  if (!match) throw new PlainHttpError(400, `Unknown print density ${segment}; valid values: 6, 8, 12, 24`);
  return Number(match[1]) as Dpmm;
}

export interface LabelSize {
  widthIn: number;
  heightIn: number;
}

/** `{width}x{height}` in inches, each within 0.001..15. */
export function parseDimensions(segment: string): LabelSize {
  const match = DIMENSIONS.exec(segment);
  if (!match) {
    throw new PlainHttpError(400, `Invalid label size ${segment}; expected {width}x{height} in inches, e.g. 4x6`);
  }
  const widthIn = Number(match[1]);
  const heightIn = Number(match[2]);
  checkBounds('width', widthIn);
  checkBounds('height', heightIn);
  return { widthIn, heightIn };
}

function checkBounds(name: 'width' | 'height', inches: number): void {
  if (inches > MAX_LABEL_INCHES) throw new PlainHttpError(400, `Label ${name} is larger than 15.0 inches`);
  if (inches < MIN_LABEL_INCHES) throw new PlainHttpError(400, `Label ${name} is less than 0.001 inches`);
}

/** Zero-based label index: digits only. */
export function parseIndex(segment: string): number {
  const index = INDEX.test(segment) ? Number(segment) : NaN;
  if (!Number.isSafeInteger(index)) {
    throw new PlainHttpError(400, `Invalid label index ${segment}; expected a whole number 0 or greater`);
  }
  return index;
}
