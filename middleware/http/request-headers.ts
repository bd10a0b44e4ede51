// Request headers read by the table (api-table/request-headers.ts): one reader for "one of these values", one for
// a pattern, and Accept's content negotiation; the request's options record is read through them.

import type { IncomingMessage } from 'node:http';
import { OUTPUT_TYPES, type OutputFormat } from '../../renderer/api.js';
import {
  COMPOSED_OPTIONS,
  REQUEST_HEADERS,
  segmentPattern,
  type ComposedOption,
  type ExtraOutput,
  type HeaderValue,
  type ReadSpec,
  type RequestHeaderName,
  type RequestHeaderSpec,
  type RequestOptions,
} from '../api-table/index.js';
import { notAcceptableMessage, PlainHttpError } from './http-errors.js';
import { header } from './http.js';

/**
 * How the API table's headers (REQUEST_HEADERS) are read: a blank value is no header. The `labelary` Ruby gem sends
 * `X-Rotation:` empty on every request, and the legacy service serves it.
 */
export function apiHeader(req: IncomingMessage, name: RequestHeaderName): string | undefined {
  const value = header(req, name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A request's header by name; blank values are absent (`apiHeader`). */
export type HeaderLookup = (name: RequestHeaderName) => string | undefined;

/**
 * Media ranges in an Accept header, in order, lower-cased, parameters dropped. A range with `q=0` says "not
 * this one" and is left out; other q-values do not reorder: the first range we can produce decides.
 */
export function mediaRanges(accept: string): string[] {
  return accept
    .split(',')
    .map((range) => range.split(';'))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(?:\.0{0,3})?\s*$/i.test(p)))
    .map(([type]) => type!.trim().toLowerCase())
    .filter((range) => range.length > 0);
}

/** An output format's media type (the renderer's OUTPUT_TYPES). */
export function mediaTypeOf(format: OutputFormat): string {
  return OUTPUT_TYPES[format].mediaType;
}

/** The Accept sent to the legacy service: the one type we authorized (and would produce), or the client's when none fits. */
export function forwardedAccept(accept: string | undefined, outputs: readonly ExtraOutput[] = []): string | undefined {
  const format = acceptedFormat(accept, outputs);
  return format ? mediaTypeOf(format) : accept;
}

const FORMAT_OF_RANGE: Readonly<Record<string, OutputFormat>> = {
  'image/png': 'png',
  'image/*': 'png',
  '*/*': 'png',
  'application/pdf': 'pdf',
  'application/*': 'pdf',
};

/** The extra output a media range names, when it is switched on (router option `outputs`). */
export function extraFormat(range: string, outputs: readonly ExtraOutput[]): ExtraOutput | undefined {
  return outputs.find((o) => mediaTypeOf(o) === range);
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

/** The output format for scope checks: PDF when asked for, PNG for anything else (JSON, ZPL and print jobs included). */
export function scopeFormat(accept: string | undefined, outputs: readonly ExtraOutput[] = []): 'png' | 'pdf' {
  return acceptedFormat(accept, outputs) === 'pdf' ? 'pdf' : 'png';
}

/** Negotiated format, or 406. */
export function negotiateFormat(accept: string | undefined, outputs: readonly ExtraOutput[] = []): OutputFormat {
  const format = acceptedFormat(accept, outputs);
  if (!format) throw new PlainHttpError(406, notAcceptableMessage(outputs));
  return format;
}

/** Each pattern of the table compiled once. */
const PATTERNS = new Map<string, RegExp>();

function compiled(spec: { pattern: string }): RegExp {
  let pattern = PATTERNS.get(spec.pattern);
  if (pattern === undefined) PATTERNS.set(spec.pattern, (pattern = segmentPattern(spec)));
  return pattern;
}

/** A listed value as the option: what `means` gives it, or itself. */
function meaning(spec: RequestHeaderSpec, listed: string | undefined): unknown {
  return listed === undefined || spec.means === undefined ? listed : spec.means[listed];
}

/**
 * A header's value read by its table entry: `oneOf` finds the listed value it names (any case; as a number when
 * `numeric`), `pattern` matches; absent is the default (or no value), and anything else the entry's refusal (a 400),
 * or the default for an entry that never refuses.
 */
export function readHeaderValue<S extends ReadSpec>(entry: S, text: string | undefined): HeaderValue<S> {
  const spec: RequestHeaderSpec = entry; // every field of an entry, optional
  if (spec.read === 'pattern') {
    const match = text === undefined ? null : compiled(spec as { pattern: string }).exec(text);
    if (text !== undefined && match === null && spec.refusal) throw new PlainHttpError(400, spec.refusal(text));
    return (match === null ? undefined : spec.parse!(match)) as HeaderValue<S>;
  }
  if (text === undefined) return meaning(spec, spec.default) as HeaderValue<S>;
  const asked = (spec.numeric ? String(Number(text)) : text).toLowerCase();
  const listed = spec.values!.find((value) => value.toLowerCase() === asked);
  if (listed === undefined && spec.refusal) throw new PlainHttpError(400, spec.refusal(text));
  return meaning(spec, listed ?? spec.default) as HeaderValue<S>;
}

/** The options the generic readers read here (Accept and the page headers have steps of their own). */
export type HeaderOptions = Omit<RequestOptions, 'format' | ComposedOption>;

const ENTRIES: readonly RequestHeaderSpec[] = REQUEST_HEADERS;
const COMPOSED: readonly string[] = COMPOSED_OPTIONS;
const readHere = (spec: RequestHeaderSpec): boolean =>
  (spec.read === 'oneOf' || spec.read === 'pattern') && !COMPOSED.includes(spec.option!);
/** Read only for some outputs. */
const forSomeOutputs = (spec: RequestHeaderSpec): boolean =>
  spec.output !== undefined || spec.pdfOnly === true || spec.requires !== undefined;

/**
 * The entries read here, those only some outputs read first: a ZPL request's bad X-Target-Dpmm is the answer before
 * its bad X-Rotation.
 */
const READ_HERE = [
  ...ENTRIES.filter((spec) => readHere(spec) && forSomeOutputs(spec)),
  ...ENTRIES.filter((spec) => readHere(spec) && !forSomeOutputs(spec)),
] as readonly (RequestHeaderSpec & ReadSpec)[];

/** Whether an output reads an entry, given the options read so far. */
function reads(spec: RequestHeaderSpec, format: OutputFormat, options: Partial<Record<string, unknown>>): boolean {
  return (
    (spec.output === undefined || spec.output === format) &&
    (!spec.pdfOnly || format === 'pdf') &&
    (spec.requires === undefined || options[spec.requires] !== undefined)
  );
}

/**
 * The options the headers set for an output: each entry read when the output reads it (and the option it
 * `requires` is set), its option set when it has a value and `appliesTo` the output. A value is compared trimmed.
 */
export function readHeaderOptions(header: HeaderLookup, format: OutputFormat): HeaderOptions {
  const options: Partial<Record<string, unknown>> = {};
  for (const spec of READ_HERE) {
    if (!reads(spec, format, options)) continue;
    const value = readHeaderValue(spec, header(spec.name as RequestHeaderName)?.trim());
    if (value !== undefined && (spec.appliesTo === undefined || spec.appliesTo.includes(format))) {
      options[spec.option!] = value;
    }
  }
  return options as HeaderOptions;
}
