// Output-selecting request headers: Accept, X-Rotation, X-Quality, X-Linter, X-Formatter, X-Target-Dpmm, X-Lossy-Fields.

import type { IncomingMessage } from 'node:http';
import type { Dpmm, LossyFields, OutputFormat, Quality, Rotation } from '../../renderer/index.js';
import {
  CHOICE_HEADERS,
  DPMM_VALUES,
  EXTRA_OUTPUT_TYPES,
  listedValue,
  segmentPattern,
  TARGET_DPMM_HEADER,
  type ChoiceOf,
  type ExtraOutput,
  type RequestHeaderName,
} from '../api-table/index.js';
import { notAcceptableMessage, PlainHttpError } from './http-errors.js';
import { header } from './http.js';

/**
 * How the optional headers of the API table (REQUEST_HEADERS: Accept, X-Rotation, X-Quality, X-Linter, X-Formatter,
 * X-Target-Dpmm, X-Page-*, X-Label-Border) are read: a blank value is no header. The `labelary` Ruby gem sends `X-Rotation:` empty on every
 * request, and the legacy service serves it.
 */
export function apiHeader(req: IncomingMessage, name: RequestHeaderName): string | undefined {
  const value = header(req, name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

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

/** Each output format's media type. */
export const MEDIA_TYPE: Readonly<Record<OutputFormat, string>> = {
  png: 'image/png',
  pdf: 'application/pdf',
  ...EXTRA_OUTPUT_TYPES,
};

/** The Accept sent to the legacy service: the one type we authorized (and would produce), or the client's when none fits. */
export function forwardedAccept(accept: string | undefined, outputs: readonly ExtraOutput[] = []): string | undefined {
  const format = acceptedFormat(accept, outputs);
  return format ? MEDIA_TYPE[format] : accept;
}

const FORMAT_OF_RANGE: Readonly<Record<string, OutputFormat>> = {
  'image/png': 'png',
  'image/*': 'png',
  '*/*': 'png',
  'application/pdf': 'pdf',
  'application/*': 'pdf',
};

/** The extra output a media range names, when it is switched on (router option `outputs`). */
function extraFormat(range: string, outputs: readonly ExtraOutput[]): ExtraOutput | undefined {
  return outputs.find((o) => EXTRA_OUTPUT_TYPES[o] === range);
}

/** The output format the Accept header asks for: PNG when absent, undefined when nothing offered fits. */
export function acceptedFormat(
  accept: string | undefined,
  outputs: readonly ExtraOutput[] = [],
): OutputFormat | undefined {
  const ranges = accept === undefined ? [] : mediaRanges(accept);
  if (ranges.length === 0) return 'png';
  for (const range of ranges) {
    const format = FORMAT_OF_RANGE[range] ?? extraFormat(range, outputs);
    if (format) return format;
  }
  return undefined;
}

/** The output format for scope checks: PDF when asked for, PNG for anything else (JSON and ZPL included). */
export function scopeFormat(accept: string | undefined, outputs: readonly ExtraOutput[] = []): 'png' | 'pdf' {
  return acceptedFormat(accept, outputs) === 'pdf' ? 'pdf' : 'png';
}

/** Negotiated format, or 406. */
export function negotiateFormat(accept: string | undefined, outputs: readonly ExtraOutput[] = []): OutputFormat {
  const format = acceptedFormat(accept, outputs);
  if (!format) throw new PlainHttpError(406, notAcceptableMessage(outputs));
  return format;
}

/** X-Target-Dpmm: absent is no conversion; anything but 6, 8, 12 or 24 (`dpmm` suffix optional) is a 400 naming the header. */
export function parseTargetDpmm(value: string | undefined): Dpmm | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const digits = TARGET_DPMM.exec(trimmed)?.[1];
  const listed = DPMM_VALUES.find((value) => value === digits);
  if (listed === undefined) throw new PlainHttpError(400, TARGET_DPMM_HEADER.refusal(trimmed));
  return DENSITY[listed];
}

const TARGET_DPMM = segmentPattern(TARGET_DPMM_HEADER);

/** The renderer's density for each listed value (the compiler checks every value has one). */
const DENSITY = { 6: 6, 8: 8, 12: 12, 24: 24 } as const satisfies Record<(typeof DPMM_VALUES)[number], Dpmm>;

/** X-Lossy-Fields: absent is `round`; a value it does not list is a 400 naming the header. */
export function parseLossyFields(value: string | undefined): LossyFields {
  if (value === undefined) return 'round';
  const listed = listedValue(CHOICE_HEADERS.lossyFields.name, value.trim());
  if (listed === undefined) throw new PlainHttpError(400, CHOICE_HEADERS.lossyFields.refusal(value.trim()));
  return listed;
}

/** X-Formatter: `On` (any case) lays the ZPL out one field a line; other values leave it as sent. */
export function isFormatterOn(value: string | undefined): boolean {
  return listedValue(CHOICE_HEADERS.formatter.name, value?.trim()) === 'On';
}

const { rotation: ROTATION } = CHOICE_HEADERS;

/** The renderer's rotation for each listed X-Rotation value (the compiler checks every value has one). */
const DEGREES = { 0: 0, 90: 90, 180: 180, 270: 270 } as const satisfies Record<ChoiceOf<'X-Rotation'>, Rotation>;

/** X-Rotation as a number: `90`, ` 90 `, `90.0` and `090` are 90; absent is 0; anything else is a 400. */
export function parseRotation(value: string | undefined): Rotation {
  if (value === undefined) return 0;
  const trimmed = value.trim();
  const listed = trimmed === '' ? undefined : listedValue(ROTATION.name, String(Number(trimmed)));
  if (listed === undefined) throw new PlainHttpError(400, ROTATION.refusal());
  return DEGREES[listed];
}

/** `Bitonal` in any case gives a 1-bit PNG; any other value keeps the default, never an error. */
export function parseQuality(value: string | undefined): Quality {
  return listedValue(CHOICE_HEADERS.quality.name, value?.trim()) === 'Bitonal' ? 'bitonal' : 'grayscale';
}

/** `On` in any case; any other value is off. */
export function isLinterOn(value: string | undefined): boolean {
  return listedValue(CHOICE_HEADERS.linter.name, value?.trim()) === 'On';
}
