// Response headers the API writes: the OpenAPI document, CORS exposure and the writers (setResponseHeaders) read
// this one table, so a header is named, typed and documented once.

import { OUTPUT_TYPES } from '../../renderer/api.js';
import { REQUEST_ID_PATTERN } from './request-headers.js';
import type { Described } from './table-entry.js';

export interface ResponseHeaderSpec extends Described {
  name: string;
  type: 'string' | 'integer';
  /** Always present on the answers that list it. */
  required: boolean;
  pattern?: string;
  /** The values it takes, when a fixed list. */
  values?: readonly string[];
}

const RENDERERS = ['local', 'upstream'] as const;

/** Every API response header, by what it says. */
export const RESPONSE_HEADERS = {
  totalCount: {
    name: 'X-Total-Count',
    type: 'integer',
    required: true,
    description: 'Labels the ZPL document produces (`^PQ` copies included).',
  },
  contentDisposition: {
    name: 'Content-Disposition',
    type: 'string',
    required: true,
    pattern: `^inline; filename="label\\.(${Object.values(OUTPUT_TYPES)
      .map((t) => t.extension)
      .join('|')})"$`,
    description: 'Suggested file name, inline form.',
  },
  warnings: {
    name: 'X-Warnings',
    type: 'string',
    required: false,
    description:
      'With `X-Linter: On` and diagnostics: at most 20 entries `{byteIndex}|{byteSize}|{command}|{param}|{message}`, pipe-joined. ' +
      'A ZPL answer converted with `X-Target-Dpmm` lists what could not be converted faithfully here too, linter or not.',
  },
  warningsOmitted: {
    name: 'X-Warnings-Omitted',
    type: 'integer',
    required: false,
    description:
      'With `X-Linter: On`, when some diagnostics are not in `X-Warnings`: how many (those past its 20 records or its size, ' +
      'and those the renderer only counted past the first 100 it keeps). Absent when `X-Warnings` lists every one.',
  },
  warningsOmittedCommands: {
    name: 'X-Warnings-Omitted-Commands',
    type: 'string',
    required: false,
    description:
      'Sent with `X-Warnings-Omitted`: the same count by command, most first, as `{command}|{count}` pairs, pipe-joined ' +
      '(at most 10; `*` counts the rest together).',
  },
  renderer: {
    name: 'X-Renderer',
    type: 'string',
    required: true,
    values: RENDERERS,
    pattern: `^(${RENDERERS.join('|')})$`,
    description: 'Who drew the label: `local`, or `upstream` (the legacy service, in migration modes).',
  },
  requestId: {
    name: 'X-Request-Id',
    type: 'string',
    required: true,
    pattern: REQUEST_ID_PATTERN,
    description: "The caller's id when it was sane, otherwise a fresh UUID; logs carry the same id.",
  },
  retryAfter: { name: 'Retry-After', type: 'integer', required: true, description: 'Seconds to wait before retrying.' },
  rateLimitLimit: {
    name: 'X-RateLimit-Limit',
    type: 'integer',
    required: true,
    description: 'The limit that was exceeded.',
  },
  rateLimitRemaining: { name: 'X-RateLimit-Remaining', type: 'integer', required: true, description: 'Always 0.' },
  rateLimitReset: {
    name: 'X-RateLimit-Reset',
    type: 'integer',
    required: true,
    description: 'Unix time in seconds when the limit resets.',
  },
} as const satisfies Record<string, ResponseHeaderSpec>;

const H = RESPONSE_HEADERS;

export const RENDERER_HEADER = H.renderer.name;
export const REQUEST_ID_RESPONSE_HEADER: ResponseHeaderSpec = H.requestId;
export const RETRY_AFTER_HEADER: ResponseHeaderSpec = H.retryAfter;

/** Headers of a rendered label (200). */
export const LABEL_RESPONSE_HEADERS: readonly ResponseHeaderSpec[] = [
  H.totalCount,
  H.contentDisposition,
  H.warnings,
  H.warningsOmitted,
  H.warningsOmittedCommands,
  H.renderer,
  H.requestId,
];

/** Headers of a 429. */
export const RATE_LIMIT_RESPONSE_HEADERS: readonly ResponseHeaderSpec[] = [
  H.retryAfter,
  H.rateLimitLimit,
  H.rateLimitRemaining,
  H.rateLimitReset,
];

/** The response headers a browser may read across origins (CORS). */
export const EXPOSED_RESPONSE_HEADERS: readonly string[] = [
  ...new Set([...LABEL_RESPONSE_HEADERS, ...RATE_LIMIT_RESPONSE_HEADERS].map((h) => h.name)),
];

type ResponseSpec = (typeof RESPONSE_HEADERS)[keyof typeof RESPONSE_HEADERS];
type WrittenAs<S> = S extends { values: readonly (infer V)[] } ? V : S extends { type: 'integer' } ? number : string;

/** Response header values by name, typed by the table: `{ 'X-Renderer': 'local', 'X-Total-Count': 3 }`. */
export type ResponseHeaderValues = { readonly [S in ResponseSpec as S['name']]?: WrittenAs<S> };

/** Writes table headers in the order given (an integer as its decimal text); an undefined value is left unset. */
export function setResponseHeaders(
  res: { setHeader(name: string, value: string): unknown },
  headers: ResponseHeaderValues,
): void {
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) res.setHeader(name, String(value));
  }
}
