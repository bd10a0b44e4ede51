// Output-selecting request headers: Accept, X-Rotation, X-Quality, X-Linter.

import type { OutputFormat, Quality, Rotation } from '../renderer/index.js';
import { CHOICE_HEADERS } from './api-table.js';
import { NOT_ACCEPTABLE_MESSAGE, PlainHttpError } from './http-errors.js';

/**
 * Media ranges in an Accept header, in order, lower-cased, parameters dropped. A range with `q=0` says "not
 * this one" and is left out; other q-values do not reorder: the first range we can produce decides.
 */
function mediaRanges(accept: string): string[] {
  return accept
    .split(',')
    .map((range) => range.split(';'))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(?:\.0{0,3})?\s*$/i.test(p)))
    .map(([type]) => type!.trim().toLowerCase())
    .filter((range) => range.length > 0);
}

const MEDIA_TYPE: Readonly<Record<OutputFormat, string>> = { png: 'image/png', pdf: 'application/pdf', json: 'application/json', zpl: 'application/zpl' };

/** The Accept sent to the legacy service: the one type we authorized (and would produce), or the client's when none fits. */
export function forwardedAccept(accept: string | undefined): string | undefined {
  const format = acceptedFormat(accept);
  return format ? MEDIA_TYPE[format] : accept;
}

const FORMAT_OF_RANGE: Readonly<Record<string, OutputFormat>> = {
  'image/png': 'png',
  'image/*': 'png',
  '*/*': 'png',
  'application/pdf': 'pdf',
  'application/*': 'pdf',
};

/** The output format the Accept header asks for: PNG when absent, undefined when nothing offered fits. */
export function acceptedFormat(accept: string | undefined): OutputFormat | undefined {
  const ranges = accept === undefined ? [] : mediaRanges(accept);
  if (ranges.length === 0) return 'png';
  for (const range of ranges) {
    const format = FORMAT_OF_RANGE[range];
    if (format) return format;
  }
  return undefined;
}

/** The output format for scope checks: PDF when asked for, PNG for anything else. */
export function scopeFormat(accept: string | undefined): OutputFormat {
  return acceptedFormat(accept) === 'pdf' ? 'pdf' : 'png';
}

/** Negotiated format, or 406. */
export function negotiateFormat(accept: string | undefined): OutputFormat {
  const format = acceptedFormat(accept);
  if (!format) throw new PlainHttpError(406, NOT_ACCEPTABLE_MESSAGE);
  return format;
}

const { rotation: ROTATION } = CHOICE_HEADERS;

export function parseRotation(value: string | undefined): Rotation {
  if (value === undefined) return 0;
  const trimmed = value.trim();
  if (!(ROTATION.values as readonly string[]).includes(String(Number(trimmed))) || trimmed === '') {
    throw new PlainHttpError(400, ROTATION.refusal());
  }
  return Number(trimmed) as Rotation;
}

/** `Bitonal` in any case gives a 1-bit PNG; any other value keeps the default, never an error. */
export function parseQuality(value: string | undefined): Quality {
  return value?.trim().toLowerCase() === 'bitonal' ? 'bitonal' : 'grayscale';
}

export function isLinterOn(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'on';
}
