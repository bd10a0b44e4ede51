// Error answers: JSON bodies by `error` code (keys and limits) and plain-text `ERROR: ` answers by status.

import { RATE_LIMIT_RESPONSE_HEADERS, RETRY_AFTER_HEADER, type ResponseHeaderSpec } from './response-headers.js';
import type { Described } from './table-entry.js';

/** JSON error bodies: each `error` code with its status and the fields beyond `error` and `message`. */
export interface JsonErrorSpec extends Described {
  status: number;
  error: string;
  /** Extra fields, each a JSON Schema. */
  fields?: Readonly<Record<string, object>>;
  headers?: readonly ResponseHeaderSpec[];
}

export const JSON_ERRORS: readonly JsonErrorSpec[] = [
  {
    status: 401,
    error: 'invalid_key',
    description:
      'No `X-API-Key` or an empty one, the key is unknown or revoked, or it came as `?key=` where that is off.',
  },
  { status: 401, error: 'key_expired', description: 'The key is past its `expiresAt`.' },
  {
    status: 403,
    error: 'scope_denied',
    description:
      "The key's scope does not allow the requested format (`Accept: application/pdf` is PDF, anything else PNG).",
    fields: {
      required: { type: 'string', enum: ['png', 'pdf'] },
      actual: { type: 'string', enum: ['png', 'pdf', 'all'] },
    },
  },
  {
    status: 429,
    error: 'rate_limited',
    description: 'A rate limit was exceeded; nothing was rendered.',
    fields: {
      limit_type: { type: 'string', enum: ['requests_per_sec', 'pages_per_day'] },
      limit_scope: { type: 'string', enum: ['key', 'organization'] },
      limit: { type: 'integer', minimum: 0 },
      retry_after_seconds: { type: 'integer', minimum: 1 },
    },
    headers: RATE_LIMIT_RESPONSE_HEADERS,
  },
  {
    status: 503,
    error: 'key_store_unavailable',
    description: 'The key or usage store is not ready (connecting, down, or not answering in time); retry shortly.',
    headers: [RETRY_AFTER_HEADER],
  },
];

/** Plain-text `ERROR: ` answers: each status and when it happens. */
export interface PlainErrorSpec extends Described {
  status: number;
  headers?: readonly ResponseHeaderSpec[];
  /** Answered by the standalone server's HTTP parser handling, not by the router. */
  standaloneOnly?: boolean;
}

export const PLAIN_ERRORS: readonly PlainErrorSpec[] = [
  {
    status: 400,
    description:
      'A bad path parameter (`Unknown print density 7; valid values: 6, 8, 12, 24`, `Label width is larger than 15.0 inches`...), ' +
      'a bad header value (rotation, page headers), a malformed body, ZPL the renderer refuses (a label too large...), ' +
      'a proxied path leaving the legacy API base, or (standalone server) an HTTP/1.1 request without `Host`.',
  },
  {
    status: 404,
    description:
      '`no labels generated`, `Requested 3rd label but ZPL only generated 2 labels`, or `HTTP 404 Not Found` ' +
      '(an unknown path, or PNG asked of the all-labels endpoint).',
  },
  { status: 406, description: '`HTTP 406 Not Acceptable` followed by a line `image/png, application/pdf`.' },
  {
    status: 413,
    description:
      'The body is over the size limit, the document produces more labels than allowed, or it needs more memory than ' +
      'its budget (`maxDocumentBytes`: decoded graphics, `^XF` replays included, stored objects, rasters; the text names the sizes).',
  },
  {
    status: 408,
    standaloneOnly: true,
    description:
      'Standalone server: the headers or the whole request did not arrive in time (`HEADERS_TIMEOUT_MS`, `REQUEST_TIMEOUT_MS`).',
  },
  {
    status: 431,
    standaloneOnly: true,
    description:
      'Standalone server: the URL or headers are over about 16 KB (`Request URL or headers are too long; send long labels with POST`).',
  },
  {
    status: 500,
    description:
      'Rendering failed or took longer than its time budget, the router is closed (`The renderer is shutting down`), ' +
      'or a body parser of the host read the request body before the router (`The request body was already read by ...`: a set-up fault).',
  },
  { status: 502, description: 'Migration modes: the legacy service could not be reached or did not answer in time.' },
  {
    status: 503,
    headers: [RETRY_AFTER_HEADER],
    description:
      'The render queue is full (`The renderer is busy (N renders waiting); retry in 1 s`): nothing was rendered; retry after `Retry-After` seconds.',
  },
];
