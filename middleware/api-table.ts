// The legacy API as data: endpoints, path parameters, request headers, response headers and error answers.
// Validation (path-params.ts, request-headers.ts, page-composition.ts), routing, CORS and the OpenAPI document
// all read these tables, so what is checked and what is documented cannot drift apart.

/** Why a table entry exists: its text goes into the OpenAPI document. */
interface Described {
  description: string;
}

// ---------------------------------------------------------------------------------------------------------
// Path parameters

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
    description: 'Print density in dots per millimetre: 6dpmm, 8dpmm, 12dpmm or 24dpmm (the suffix is optional). Anything else is a 400 `Unknown print density`.',
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
    description: 'The ZPL document, URL-encoded (the rest of the path). URLs are limited to about 16 KB; send longer documents with POST.',
  },
} as const satisfies Record<string, PathParameterSpec>;

/** A table pattern as a RegExp: path segments and header values are matched without regard to case. */
export function segmentPattern(spec: { pattern: string }): RegExp {
  return new RegExp(spec.pattern, 'i');
}

// ---------------------------------------------------------------------------------------------------------
// Request headers

export interface RequestHeaderSpec extends Described {
  name: string;
  /** Accepted values, case-insensitive (the first is the default). */
  values?: readonly string[];
  /** Accepted form when not a list of values. */
  pattern?: string;
  /** The 400 answered for a value outside `values`/`pattern`; headers without it never refuse. */
  refusal?: (value: string) => string;
  /** Only PDF output reads it. */
  pdfOnly?: boolean;
  /** Only this extra output reads it (and the OpenAPI document lists it only when that output is on). */
  output?: ExtraOutput;
  example?: string;
}

export const API_KEY_HEADER = 'X-API-Key';

/**
 * The legacy service's outputs besides PNG and PDF, each off by default (router option `outputs`, EXTRA_OUTPUTS):
 * `json` the label data, `zpl` the document itself (laid out, or converted to another density). Off, they are a 406.
 */
export const EXTRA_OUTPUTS = ['json', 'zpl'] as const;
export type ExtraOutput = (typeof EXTRA_OUTPUTS)[number];
export const EXTRA_OUTPUT_TYPES: Readonly<Record<ExtraOutput, string>> = { json: 'application/json', zpl: 'application/zpl' };

export const DPMM_VALUES = ['6', '8', '12', '24'] as const;

/** X-Target-Dpmm: the density a ZPL answer is converted to. */
export const TARGET_DPMM_HEADER = {
  name: 'X-Target-Dpmm',
  pattern: `^(${DPMM_VALUES.join('|')})(?:dpmm)?$`,
  refusal: (value: string) => `Invalid X-Target-Dpmm ${value}; valid values: ${DPMM_VALUES.join(', ')}`,
  output: 'zpl',
  example: '12',
  description: 'ZPL output (`Accept: application/zpl`): the document converted from the path\'s density to this one: every ' +
    'coordinate and size rescaled, barcode module widths kept whole, `^GF`/`~DG` bitmaps resampled. What cannot be converted ' +
    'faithfully is listed in `X-Warnings` (whatever `X-Linter` says). Absent, the document comes back as sent.',
} as const satisfies RequestHeaderSpec;

export const PAGE_SIZE_NAMES = ['letter', 'legal', 'a4', 'a5', 'a6'] as const;
export type PageSizeName = (typeof PAGE_SIZE_NAMES)[number];

export const ROTATION_VALUES = ['0', '90', '180', '270'] as const;

export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:\\-]{1,128}$';

/** Headers whose values are a fixed list (case-insensitive). */
export const CHOICE_HEADERS = {
  rotation: {
    name: 'X-Rotation',
    values: ROTATION_VALUES,
    refusal: () => 'Label rotation must be 0, 90, 180 or 270 degrees',
    description: 'Clockwise rotation of a PNG in degrees; PDF is not rotated.',
  },
  quality: {
    name: 'X-Quality',
    values: ['Grayscale', 'Bitonal'],
    description: '`Bitonal` (any case) gives a 1-bit PNG. Any other value keeps the default, never an error.',
  },
  formatter: {
    name: 'X-Formatter',
    values: ['Off', 'On'],
    output: 'zpl',
    description: 'ZPL output: `On` (any case) lays the document out one field a line, `^XA` and `^XZ` on lines of their own; field data is kept byte for byte.',
  },
  linter: {
    name: 'X-Linter',
    values: ['Off', 'On'],
    description: '`On` (any case) lists the renderer\'s diagnostics in `X-Warnings` (at most 20). Other values mean off.',
  },
  pageSize: {
    name: 'X-Page-Size',
    values: PAGE_SIZE_NAMES,
    refusal: (value: string) => `Invalid page size: ${value}`,
    pdfOnly: true,
    description: 'PDF sheet size (Letter, Legal, A4, A5, A6). Applied with `pageComposition: \'apply\'`; by default only validated and pages stay label-sized.',
  },
  pageOrientation: {
    name: 'X-Page-Orientation',
    values: ['portrait', 'landscape'],
    refusal: (value: string) => `Invalid page orientation: ${value}`,
    pdfOnly: true,
    description: 'PDF sheet orientation. With the router option `pageComposition: \'apply\'` it is applied; by default (`validate`) it is only checked.',
  },
  pageAlign: {
    name: 'X-Page-Align',
    values: ['justify', 'left', 'right', 'center'],
    refusal: (value: string) => `Invalid alignment: ${value}`,
    pdfOnly: true,
    description: 'Horizontal placement of labels on a PDF page (`justify`, the default, spreads the spare space evenly). With the router option `pageComposition: \'apply\'` it is applied; by default (`validate`) it is only checked.',
  },
  pageVerticalAlign: {
    name: 'X-Page-Vertical-Align',
    values: ['justify', 'top', 'bottom', 'center'],
    refusal: (value: string) => `Invalid vertical alignment: ${value}`,
    pdfOnly: true,
    description: 'Vertical placement of labels on a PDF page (`justify` by default). With the router option `pageComposition: \'apply\'` it is applied; by default (`validate`) it is only checked.',
  },
  labelBorder: {
    name: 'X-Label-Border',
    values: ['dashed', 'solid', 'none'],
    refusal: (value: string) => `Invalid label border: ${value}`,
    pdfOnly: true,
    description: 'Border around each label on a PDF page (`dashed` by default). With the router option `pageComposition: \'apply\'` it is applied; by default (`validate`) it is only checked.',
  },
} as const satisfies Record<string, RequestHeaderSpec>;

export const PAGE_LAYOUT_HEADER = {
  name: 'X-Page-Layout',
  pattern: '^0*[1-9]\\d*x0*[1-9]\\d*$',
  refusal: (value: string) => `Invalid page layout: ${value}`,
  pdfOnly: true,
  example: '2x3',
  description: '`{columns}x{rows}` of labels per PDF page, filled row by row; with `X-Page-Size` the rows must fit the page height (else 400). Without `X-Page-Size` the sheet is the grid\'s own size. With the router option `pageComposition: \'apply\'` it is applied; by default (`validate`) it is only checked.',
} as const satisfies RequestHeaderSpec;

/** Every request header the API reads besides X-API-Key (a security scheme in the document); an empty one is absent. */
export const REQUEST_HEADERS: readonly RequestHeaderSpec[] = [
  {
    name: 'Accept',
    values: ['image/png', 'application/pdf'],
    description: 'Output format: `image/png` (also `image/*`, `*/*`, or no header) or `application/pdf` (also `application/*`). ' +
      'Nothing else offered is a 406. The all-labels endpoint answers PDF only. With the router option `outputs` (EXTRA_OUTPUTS), ' +
      'also `application/json` (the label data: every label at the all-labels path, the one asked for elsewhere) and `application/zpl` ' +
      '(the document, see X-Formatter and X-Target-Dpmm); for key scopes both count as PNG.',
  },
  CHOICE_HEADERS.rotation,
  CHOICE_HEADERS.quality,
  CHOICE_HEADERS.linter,
  CHOICE_HEADERS.pageSize,
  CHOICE_HEADERS.pageOrientation,
  PAGE_LAYOUT_HEADER,
  CHOICE_HEADERS.pageAlign,
  CHOICE_HEADERS.pageVerticalAlign,
  CHOICE_HEADERS.labelBorder,
  CHOICE_HEADERS.formatter,
  TARGET_DPMM_HEADER,
  {
    name: 'X-Request-Id',
    pattern: REQUEST_ID_PATTERN,
    example: 'order-42.label-7',
    description: 'Echoed in the answer and written to the logs when it matches the pattern; otherwise a fresh UUID is used.',
  },
];

// ---------------------------------------------------------------------------------------------------------
// Endpoints

/** One operation below the mount point. */
export interface OperationSpec extends Described {
  /** Stable name (OpenAPI operationId, the `route` of logs and metrics is the template). */
  id: string;
  method: 'get' | 'post';
  /** Path below the mount point, parameters in braces. */
  template: string;
  summary: string;
}

/** A render endpoint. */
export interface EndpointSpec extends OperationSpec {
  /** Renders every label into one PDF (no index). */
  allLabels: boolean;
  /** Where the ZPL comes from: the rest of the path or the raw query string (GET), or the body (POST). */
  zplFrom: 'path' | 'query' | 'body';
}

export const ENDPOINTS: readonly EndpointSpec[] = [
  {
    id: 'renderLabelFromPath',
    method: 'get',
    template: '/printers/{dpmm}/labels/{dimensions}/{index}/{zpl}',
    summary: 'Render one label, ZPL in the URL',
    description: 'The label at `index` as PNG (default) or a one-page PDF, per `Accept`.',
    allLabels: false,
    zplFrom: 'path',
  },
  {
    id: 'renderLabelFromQuery',
    method: 'get',
    template: '/printers/{dpmm}/labels/{dimensions}/{index}',
    summary: 'Render one label, ZPL as the raw query string',
    description: 'The legacy service\'s curl example (`GET .../labels/4x6/0/?^xa...`, a trailing slash or not): the whole query ' +
      'string, URL-decoded, is the ZPL. Without a query string the answer is a 404.',
    allLabels: false,
    zplFrom: 'query',
  },
  {
    id: 'renderLabel',
    method: 'post',
    template: '/printers/{dpmm}/labels/{dimensions}/{index}',
    summary: 'Render one label, ZPL in the body',
    description: 'The label at `index` as PNG (default) or a one-page PDF, per `Accept`.',
    allLabels: false,
    zplFrom: 'body',
  },
  {
    id: 'renderAllLabels',
    method: 'post',
    template: '/printers/{dpmm}/labels/{dimensions}',
    summary: 'Render every label into one PDF',
    description: 'Every label of the document, one page each (`Accept: application/pdf`; PNG here is a 404). ' +
      'With the router option `outputs`, also every label\'s data (`application/json`) or the document (`application/zpl`). ' +
      'The same path with a trailing slash is accepted.',
    allLabels: true,
    zplFrom: 'body',
  },
];

/** POST /graphics (router option `graphicsEndpoint`, off by default; not part of the legacy API). */
export const GRAPHICS_ENDPOINT: OperationSpec = {
  id: 'convertImageToGraphicField',
  method: 'post',
  template: '/graphics',
  summary: 'Convert an image to ZPL with one ^GFA field (off by default)',
  description: 'A PNG, JPEG, GIF or BMP as the multipart field `file`; the answer is ZPL text with one `^GFA` field at the label ' +
    'home, or the same data as JSON with `Accept: application/json`. `?threshold=1..255` (default 128) sets the ink threshold, ' +
    '`?dither=true` diffuses greys (Floyd-Steinberg). Images over 4096x4096 pixels are a 413, read from the header before decoding.',
};

const PARAMETER_BY_NAME: Readonly<Record<string, PathParameterSpec>> = PATH_PARAMETERS;

/** The path parameters of a template, in order. */
export function templateParameters(template: string): PathParameterSpec[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => PARAMETER_BY_NAME[m[1]!]!);
}

/** The Express 5 path of a template: `{dpmm}` -> `:dpmm`, a rest parameter -> `*zpl`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (PARAMETER_BY_NAME[name]?.rest ? `*${name}` : `:${name}`));
}

/** The endpoint template a request path (below the mount point) has the shape of, whatever its values. */
export function routeOf(method: string, path: string, operations: readonly OperationSpec[] = ENDPOINTS): string | undefined {
  return routeMatcher(operations)(method, path);
}

/**
 * routeOf for one list of operations, with each template split once: the access line asks it on every request.
 * Literal segments match without regard to case, as the router's routes do (`/PRINTERS/8dpmm/...` is served).
 */
export function routeMatcher(operations: readonly OperationSpec[] = ENDPOINTS): (method: string, path: string) => string | undefined {
  const shapes = operations.map((endpoint) => {
    const parts = endpoint.template.split('/').filter((s) => s !== '').map((part) => part.toLowerCase());
    const rest = parts.length > 0 && PARAMETER_BY_NAME[parts.at(-1)!.slice(1, -1)]?.rest === true;
    return { method: endpoint.method, template: endpoint.template, parts, rest };
  });
  return (method, path) => {
    const segments = path.split('/').filter((s, i, all) => s !== '' || (i > 0 && i < all.length - 1));
    const lower = method.toLowerCase();
    for (const { method: own, template, parts, rest } of shapes) {
      if (own !== lower) continue;
      if (rest ? segments.length < parts.length : segments.length !== parts.length) continue;
      if (parts.every((part, i) => part.startsWith('{') || part === segments[i]!.toLowerCase())) return template;
    }
    return undefined;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Answers

export interface ResponseHeaderSpec extends Described {
  name: string;
  type: 'string' | 'integer';
  /** Always present on the answers that list it. */
  required: boolean;
  pattern?: string;
}

export const RENDERER_HEADER = 'X-Renderer';

export const REQUEST_ID_RESPONSE_HEADER: ResponseHeaderSpec = {
  name: 'X-Request-Id', type: 'string', required: true, pattern: REQUEST_ID_PATTERN,
  description: 'The caller\'s id when it was sane, otherwise a fresh UUID; logs carry the same id.',
};

/** Headers of a rendered label (200). */
export const LABEL_RESPONSE_HEADERS: readonly ResponseHeaderSpec[] = [
  { name: 'X-Total-Count', type: 'integer', required: true, description: 'Labels the ZPL document produces (`^PQ` copies included).' },
  {
    name: 'Content-Disposition', type: 'string', required: true, pattern: '^inline; filename="label\\.(png|pdf|json|zpl)"$',
    description: 'Suggested file name, inline form.',
  },
  {
    name: 'X-Warnings', type: 'string', required: false,
    description: 'With `X-Linter: On` and diagnostics: at most 20 entries `{byteIndex}|{byteSize}|{command}|{param}|{message}`, pipe-joined. ' +
      'A ZPL answer converted with `X-Target-Dpmm` lists what could not be converted faithfully here too, linter or not.',
  },
  { name: RENDERER_HEADER, type: 'string', required: true, pattern: '^(local|upstream)$', description: 'Who drew the label: `local`, or `upstream` (the legacy service, in migration modes).' },
  REQUEST_ID_RESPONSE_HEADER,
];

/** Headers of a 429. */
export const RATE_LIMIT_RESPONSE_HEADERS: readonly ResponseHeaderSpec[] = [
  { name: 'Retry-After', type: 'integer', required: true, description: 'Seconds to wait before retrying.' },
  { name: 'X-RateLimit-Limit', type: 'integer', required: true, description: 'The limit that was exceeded.' },
  { name: 'X-RateLimit-Remaining', type: 'integer', required: true, description: 'Always 0.' },
  { name: 'X-RateLimit-Reset', type: 'integer', required: true, description: 'Unix time in seconds when the limit resets.' },
];

export const RETRY_AFTER_HEADER: ResponseHeaderSpec = {
  name: 'Retry-After', type: 'integer', required: true, description: 'Seconds to wait before retrying.',
};

/** The response headers a browser may read across origins (CORS). */
export const EXPOSED_RESPONSE_HEADERS: readonly string[] = [
  ...new Set([...LABEL_RESPONSE_HEADERS, ...RATE_LIMIT_RESPONSE_HEADERS].map((h) => h.name)),
];

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
    status: 401, error: 'invalid_key',
    description: 'No `X-API-Key` or an empty one, the key is unknown or revoked, or it came as `?key=` where that is off.',
  },
  { status: 401, error: 'key_expired', description: 'The key is past its `expiresAt`.' },
  {
    status: 403, error: 'scope_denied', description: 'The key\'s scope does not allow the requested format (`Accept: application/pdf` is PDF, anything else PNG).',
    fields: { required: { type: 'string', enum: ['png', 'pdf'] }, actual: { type: 'string', enum: ['png', 'pdf', 'all'] } },
  },
  {
    status: 429, error: 'rate_limited', description: 'A rate limit was exceeded; nothing was rendered.',
    fields: {
      limit_type: { type: 'string', enum: ['requests_per_sec', 'pages_per_day'] },
      limit_scope: { type: 'string', enum: ['key', 'organization'] },
      limit: { type: 'integer', minimum: 0 },
      retry_after_seconds: { type: 'integer', minimum: 1 },
    },
    headers: RATE_LIMIT_RESPONSE_HEADERS,
  },
  {
    status: 503, error: 'key_store_unavailable', description: 'The key or usage store is not ready (connecting, down, or not answering in time); retry shortly.',
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
    description: 'A bad path parameter (`Unknown print density 7; valid values: 6, 8, 12, 24`, `Label width is larger than 15.0 inches`...), ' +
      'a bad header value (rotation, page headers), a malformed body, ZPL the renderer refuses (a label too large...), ' +
      'a proxied path leaving the legacy API base, or (standalone server) an HTTP/1.1 request without `Host`.',
  },
  {
    status: 404,
    description: '`no labels generated`, `Requested 3rd label but ZPL only generated 2 labels`, or `HTTP 404 Not Found` ' +
      '(an unknown path, or PNG asked of the all-labels endpoint).',
  },
  { status: 406, description: '`HTTP 406 Not Acceptable` followed by a line `image/png, application/pdf`.' },
  {
    status: 413,
    description: 'The body is over the size limit, the document produces more labels than allowed, or it needs more memory than ' +
      'its budget (`maxDocumentBytes`: decoded graphics, `^XF` replays included, stored objects, rasters; the text names the sizes).',
  },
  {
    status: 408, standaloneOnly: true,
    description: 'Standalone server: the headers or the whole request did not arrive in time (`HEADERS_TIMEOUT_MS`, `REQUEST_TIMEOUT_MS`).',
  },
  {
    status: 431, standaloneOnly: true,
    description: 'Standalone server: the URL or headers are over about 16 KB (`Request URL or headers are too long; send long labels with POST`).',
  },
  {
    status: 500,
    description: 'Rendering failed or took longer than its time budget, the router is closed (`The renderer is shutting down`), ' +
      'or a body parser of the host read the request body before the router (`The request body was already read by ...`: a set-up fault).',
  },
  { status: 502, description: 'Migration modes: the legacy service could not be reached or did not answer in time.' },
  {
    status: 503, headers: [RETRY_AFTER_HEADER],
    description: 'The render queue is full (`The renderer is busy (N renders waiting); retry in 1 s`): nothing was rendered; retry after `Retry-After` seconds.',
  },
];
