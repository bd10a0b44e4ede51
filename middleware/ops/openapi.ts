// The OpenAPI 3.1 document of the legacy API, built from the tables the router validates with (api-table/)
// and the renderer-error table (http-errors.ts), so the document says what the code does.

import {
  API_KEY_HEADER,
  ENDPOINTS,
  EXTRA_OUTPUTS,
  FONT_FORM_FIELDS,
  FONTS_ENDPOINT,
  GRAPHICS_ENDPOINT,
  GRAPHICS_QUERY,
  JSON_ERRORS,
  LABEL_RESPONSE_HEADERS,
  PLAIN_ERRORS,
  REQUEST_HEADERS,
  REQUEST_ID_HEADER,
  REQUEST_ID_RESPONSE_HEADER,
  templateParameters,
  type EndpointSpec,
  type ExtraOutput,
  type JsonErrorSpec,
  type QueryParameterSpec,
  type RequestHeaderSpec,
  type ResponseHeaderSpec,
} from '../api-table/index.js';
import { RENDER_ERROR_STATUS } from '../http/http-errors.js';
import { mediaTypeOf } from '../http/request-headers.js';
import { LEGACY_MOUNT_PATH } from '../router/router.js';

type Json = Record<string, unknown>;

/** Router options that change the API (each off by default, as in the router). */
export interface ApiFeatures {
  /** `anonymousKey` is set: a request without a key is served as that key. */
  anonymousKey?: boolean;
  /** `allowQueryKey`: the key may come as `?key=`. */
  allowQueryKey?: boolean;
  /** `graphicsEndpoint`: POST /graphics. */
  graphicsEndpoint?: boolean;
  /** `fontsEndpoint`: POST /fonts. */
  fontsEndpoint?: boolean;
  /** `outputs`: the extra outputs switched on (JSON label data, ZPL). */
  outputs?: readonly ExtraOutput[];
}

export interface OpenApiOptions {
  /** The package version (info.version). */
  version: string;
  /** Mount paths of the legacy router (servers); default the legacy one. */
  legacyPaths?: readonly string[];
  /** Options of the router(s) that change the API. */
  api?: ApiFeatures;
}

/** A pattern that matches its letters in either case (JSON Schema patterns have no `i` flag). */
export function anyCasePattern(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[++i] ?? '');
    } else if (inClass) {
      out += c;
      if (c === ']') inClass = false;
    } else if (c === '[') {
      out += c;
      inClass = true;
    } else if (/[a-z]/i.test(c)) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    } else {
      out += c;
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function headerValueSchema(spec: RequestHeaderSpec): Json {
  if (spec.values && spec.refusal) {
    return {
      type: 'string',
      pattern: anyCasePattern(`^(?:${spec.values.map(escapeRegExp).join('|')})$`),
      examples: [...spec.values],
    };
  }
  if (spec.values)
    return { type: 'string', examples: [...spec.values], ...(spec.default !== undefined && { default: spec.default }) };
  if (spec.pattern)
    return {
      type: 'string',
      pattern: spec.refusal ? anyCasePattern(spec.pattern) : spec.pattern,
      ...(spec.example && { examples: [spec.example] }),
    };
  return { type: 'string' };
}

function headerParameter(spec: RequestHeaderSpec): Json {
  const values = spec.values ? ` Values (any case): ${spec.values.map((v) => `\`${v}\``).join(', ')}.` : '';
  const refused = spec.refusal ? ' Other values are a 400.' : '';
  return {
    name: spec.name,
    in: 'header',
    required: false,
    description: `${spec.description}${values}${refused}${spec.pdfOnly ? ' PDF output only.' : ''}`,
    schema: headerValueSchema(spec),
  };
}

function responseHeader(spec: ResponseHeaderSpec): Json {
  return {
    description: spec.description,
    required: spec.required,
    schema:
      spec.type === 'integer'
        ? { type: 'string', pattern: '^\\d+$' }
        : { type: 'string', ...(spec.pattern && { pattern: spec.pattern }) },
  };
}

function responseHeaders(specs: readonly ResponseHeaderSpec[]): Json {
  return Object.fromEntries([REQUEST_ID_RESPONSE_HEADER, ...specs].map((h) => [h.name, responseHeader(h)]));
}

/** The JSON body schema of one status: its `error` codes and their extra fields. */
function jsonErrorSchema(specs: readonly JsonErrorSpec[]): Json {
  const fields: Record<string, object> = Object.assign({}, ...specs.map((s) => s.fields ?? {}));
  return {
    type: 'object',
    required: ['error', 'message', ...Object.keys(fields)],
    properties: {
      error: { type: 'string', enum: specs.map((s) => s.error) },
      message: { type: 'string' },
      ...fields,
    },
    additionalProperties: false,
  };
}

const PLAIN_ERROR_SCHEMA = { type: 'string', pattern: '^ERROR: ' };

/** Every error status: plain-text ones from the table and the renderer's codes, JSON ones by `error` code. */
function errorResponses(): Record<string, Json> {
  const plain = new Map(PLAIN_ERRORS.map((e) => [e.status, e.description]));
  const standaloneOnly = new Set(PLAIN_ERRORS.filter((e) => e.standaloneOnly).map((e) => e.status));
  for (const [code, status] of Object.entries(RENDER_ERROR_STATUS)) {
    if (!plain.has(status)) plain.set(status, `The renderer failed with \`${code}\`.`);
  }
  const json = new Map<number, JsonErrorSpec[]>();
  for (const spec of JSON_ERRORS) json.set(spec.status, [...(json.get(spec.status) ?? []), spec]);

  const statuses = [...new Set([...plain.keys(), ...json.keys()])].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const jsonSpecs = json.get(status) ?? [];
      const descriptions = [
        ...(plain.has(status) ? [`Plain text: ${plain.get(status)}`] : []),
        ...jsonSpecs.map((s) => `JSON \`${s.error}\`: ${s.description}`),
      ];
      const content: Json = {};
      if (plain.has(status)) content['text/plain'] = { schema: PLAIN_ERROR_SCHEMA };
      if (jsonSpecs.length > 0)
        content['application/json'] = { schema: { $ref: `#/components/schemas/Error${status}` } };
      const plainHeaders = PLAIN_ERRORS.filter((s) => s.status === status).flatMap((s) => s.headers ?? []);
      const headers = [...plainHeaders, ...jsonSpecs.flatMap((s) => s.headers ?? [])];
      return [
        String(status),
        {
          description: descriptions.join(' '),
          ...(standaloneOnly.has(status) && { 'x-standalone-only': true }),
          headers: responseHeaders([...new Map(headers.map((h) => [h.name, h])).values()]),
          content,
        },
      ];
    }),
  );
}

function jsonErrorSchemas(): Json {
  const byStatus = new Map<number, JsonErrorSpec[]>();
  for (const spec of JSON_ERRORS) byStatus.set(spec.status, [...(byStatus.get(spec.status) ?? []), spec]);
  return Object.fromEntries([...byStatus].map(([status, specs]) => [`Error${status}`, jsonErrorSchema(specs)]));
}

const ZPL_TEXT = { type: 'string', description: 'The ZPL document, byte for byte (never form-decoded).' };

const REQUEST_BODY = {
  required: true,
  description:
    'The ZPL document: the raw body (any content type; `application/x-www-form-urlencoded` is read as is), ' +
    'or the `file` field of a multipart form.',
  content: {
    'application/x-www-form-urlencoded': { schema: ZPL_TEXT },
    'text/plain': { schema: ZPL_TEXT },
    'application/octet-stream': { schema: ZPL_TEXT },
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'The ZPL document (a file or a plain field).',
          },
        },
      },
    },
  },
};

/** The label data of the JSON output (`outputs: ['json']`). */
const LABEL_DATA_JSON = {
  type: 'object',
  required: ['labels'],
  properties: {
    labels: {
      type: 'array',
      description:
        'Every printed label (`^PQ` copies included) on the all-labels path; the one label asked for on the others.',
      items: {
        type: 'object',
        required: ['fields'],
        properties: {
          fields: {
            type: 'array',
            description: 'Fields with data (text and barcodes), in drawing order.',
            items: {
              type: 'object',
              required: ['x', 'y', 'data'],
              properties: {
                x: { type: 'integer', description: 'Field origin (`^FO`/`^FT`) in dots, label home applied.' },
                y: { type: 'integer' },
                data: {
                  type: 'string',
                  description:
                    'The data as it prints: `^FH` escapes, `^SN`/`^SF` counting, `^FN` templates and `^CI` decoded.',
                },
              },
            },
          },
        },
      },
    },
  },
};

/** A print job's bytes, in the printer language its media type names. */
function printJob(printer: string): Json {
  return {
    schema: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: `A print job for ${printer}: the label's size and density set up, each label as a graphic, one print per label.`,
    },
  };
}

/** Each extra output's 200 content (the compiler checks every output has one). */
const EXTRA_CONTENT: Readonly<Record<ExtraOutput, Json>> = {
  json: { schema: LABEL_DATA_JSON },
  zpl: {
    schema: {
      type: 'string',
      description: 'The ZPL document, converted (`X-Target-Dpmm`) and laid out (`X-Formatter`) when asked.',
    },
  },
  ipl: printJob('Intermec printers (IPL)'),
  epl: printJob('Eltron and Zebra EPL2 printers'),
  dpl: printJob('Datamax printers (DPL)'),
  sbpl: printJob('SATO printers (SBPL)'),
  pcl5: printJob('HP PCL 5 printers'),
  pcl6: printJob('HP PCL 6 (PCL XL) printers'),
};

/** A 200's content by media type: the picture formats, and the extra outputs switched on. */
function labelContent(formats: readonly string[], outputs: readonly ExtraOutput[]): Json {
  return {
    ...Object.fromEntries(formats.map((f) => [f, { schema: { type: 'string', contentMediaType: f } }])),
    ...Object.fromEntries(outputs.map((o) => [mediaTypeOf(o), EXTRA_CONTENT[o]])),
  };
}

/** The request headers an operation documents: those of outputs switched off are left out. */
function documentedHeaders(outputs: readonly ExtraOutput[]): RequestHeaderSpec[] {
  return REQUEST_HEADERS.filter((h: RequestHeaderSpec) => h.output === undefined || outputs.includes(h.output));
}

function operation(endpoint: EndpointSpec, errors: Record<string, Json>, outputs: readonly ExtraOutput[]): Json {
  // The all-labels path answers PNG (the first label) only with the router option lenientPaths.
  const formats = endpoint.allLabels ? ['application/pdf', 'image/png'] : ['image/png', 'application/pdf'];
  return {
    operationId: endpoint.id,
    summary: endpoint.summary,
    description: endpoint.description,
    parameters: [
      ...templateParameters(endpoint.template).map((p) => ({ $ref: `#/components/parameters/${p.name}` })),
      ...documentedHeaders(outputs).map((h) => ({ $ref: `#/components/parameters/${headerComponentName(h.name)}` })),
    ],
    ...(endpoint.zplFrom === 'query' && { 'x-zpl': 'The raw query string, URL-decoded, is the ZPL document.' }),
    ...(endpoint.zplFrom === 'body' && { requestBody: REQUEST_BODY }),
    responses: {
      200: {
        description: endpoint.allLabels
          ? 'Every label, one PDF page each. With the router option `lenientPaths`, a PNG request here gets the first label (elsewhere a 404).'
          : 'The label.',
        headers: responseHeaders(LABEL_RESPONSE_HEADERS),
        content: labelContent(formats, outputs),
      },
      ...errors,
    },
  };
}

const GRAPHIC_FIELD_JSON = {
  type: 'object',
  required: ['totalBytes', 'rowBytes', 'width', 'height', 'data'],
  properties: {
    totalBytes: { type: 'integer', minimum: 0 },
    rowBytes: { type: 'integer', minimum: 0 },
    width: { type: 'integer', minimum: 1 },
    height: { type: 'integer', minimum: 1 },
    data: { type: 'string', pattern: '^[0-9A-F]*$', description: 'ASCII hex of every row, 1 bits print black.' },
  },
  additionalProperties: false,
};

/** POST /graphics: an image in, ZPL (or JSON, or with the outputs on a print job) out; the errors it can answer. */
function graphicsOperation(errors: Record<string, Json>, outputs: readonly ExtraOutput[]): Json {
  const keep = ['400', '401', '403', '408', '413', '429', '431', '500', '503'];
  // What it answers beyond ZPL text and JSON: ZPL as application/zpl and the print jobs switched on.
  const extra = outputs.filter((o) => o !== 'json');
  // `?dpmm=` is read for print jobs only.
  const { threshold, dither, dpmm } = GRAPHICS_QUERY;
  const query: QueryParameterSpec[] = [threshold, dither, ...(extra.some((o) => o !== 'zpl') ? [dpmm] : [])];
  return {
    operationId: GRAPHICS_ENDPOINT.id,
    summary: GRAPHICS_ENDPOINT.summary,
    description: GRAPHICS_ENDPOINT.description,
    parameters: [
      ...query.map((p) => ({
        name: p.name,
        in: 'query',
        required: false,
        description: p.description,
        schema: { type: 'string', ...(p.pattern !== undefined && { pattern: anyCasePattern(p.pattern) }) },
      })),
      { $ref: `#/components/parameters/${headerComponentName(REQUEST_ID_HEADER.name)}` },
    ],
    requestBody: {
      required: true,
      description: 'The image as the `file` field of a multipart form.',
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        },
      },
    },
    responses: {
      200: {
        description:
          'ZPL with one ^GFA field at the label home (`^XA^FO0,0^GFA,...^FS^XZ`), or the same data as JSON for `Accept: application/json`' +
          (extra.length > 0
            ? '; with the outputs switched on, that ZPL as `application/zpl`, or drawn as a print job of one label the size of the image.'
            : '.'),
        headers: responseHeaders([]),
        content: {
          'text/plain': { schema: { type: 'string', pattern: '^\\^XA\\^FO0,0\\^GFA,' } },
          'application/json': { schema: GRAPHIC_FIELD_JSON },
          ...Object.fromEntries(
            extra.map((o) => [
              mediaTypeOf(o),
              o === 'zpl' ? { schema: { type: 'string', pattern: '^\\^XA\\^FO0,0\\^GFA,' } } : EXTRA_CONTENT[o],
            ]),
          ),
        },
      },
      ...Object.fromEntries(Object.entries(errors).filter(([status]) => keep.includes(status))),
    },
  };
}

/** POST /fonts: a TrueType font and the form's fields in, the ZPL that stores it out; the errors it can answer. */
function fontsOperation(errors: Record<string, Json>): Json {
  const keep = ['400', '401', '403', '408', '413', '429', '431', '500', '503'];
  const fields = Object.values(FONT_FORM_FIELDS).map((f) => [
    f.name,
    {
      type: 'string',
      description: f.description,
      ...('file' in f && { contentMediaType: 'font/ttf' }),
      ...('pattern' in f && { pattern: anyCasePattern(f.pattern) }),
      ...('example' in f && { examples: [f.example] }),
    },
  ]);
  return {
    operationId: FONTS_ENDPOINT.id,
    summary: FONTS_ENDPOINT.summary,
    description: FONTS_ENDPOINT.description,
    parameters: [{ $ref: `#/components/parameters/${headerComponentName(REQUEST_ID_HEADER.name)}` }],
    requestBody: {
      required: true,
      description:
        'A multipart form: the font as the file `file`, the other fields as text. An empty field is one not sent.',
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: Object.values(FONT_FORM_FIELDS)
              .filter((f) => 'required' in f && f.required)
              .map((f) => f.name),
            properties: Object.fromEntries(fields),
          },
        },
      },
    },
    responses: {
      200: {
        description:
          'ZPL, one format: `^XA~DU{path},{bytes},{hex}^XZ`, with `^CW{name},{path}` before `^XZ` when `name` was given. ' +
          'Send it before the labels that use the font (`^A@N,h,w,{path}` or `^A{name}`).',
        headers: responseHeaders([]),
        content: {
          'text/plain': {
            schema: { type: 'string', pattern: '^\\^XA~DU[REBA]:[A-Z0-9]{1,16}\\.TTF,[0-9]+,[0-9A-F]' },
          },
        },
      },
      ...Object.fromEntries(Object.entries(errors).filter(([status]) => keep.includes(status))),
    },
  };
}

function headerComponentName(header: string): string {
  return `header.${header}`;
}

export function buildOpenApiDocument(options: OpenApiOptions): Json {
  const errors = errorResponses();
  // The outputs switched on, in the table's order (a name the router would refuse documents nothing).
  const outputs = EXTRA_OUTPUTS.filter((o) => options.api?.outputs?.includes(o));
  const paths: Record<string, Json> = {};
  for (const endpoint of ENDPOINTS) {
    paths[endpoint.template] = {
      ...paths[endpoint.template],
      [endpoint.method]: operation(endpoint, errors, outputs),
    };
  }
  const api = options.api ?? {};
  if (api.graphicsEndpoint)
    paths[GRAPHICS_ENDPOINT.template] = { [GRAPHICS_ENDPOINT.method]: graphicsOperation(errors, outputs) };
  if (api.fontsEndpoint) paths[FONTS_ENDPOINT.template] = { [FONTS_ENDPOINT.method]: fontsOperation(errors) };
  // Who may call: the X-API-Key header; with the options, `?key=` too, or no key at all (the anonymous key).
  const security = [
    { apiKey: [] },
    ...(api.allowQueryKey ? [{ queryKey: [] }] : []),
    ...(api.anonymousKey ? [{}] : []),
  ];
  const pathParameters = Object.fromEntries(
    ENDPOINTS.flatMap((e) => templateParameters(e.template)).map((p) => [
      p.name,
      {
        name: p.name,
        in: 'path',
        required: true,
        description: p.description,
        schema: { type: 'string', pattern: anyCasePattern(p.pattern) },
        example: p.example,
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Legacy ZPL label-rendering API (zpl-legacy-compat)',
      version: options.version,
      description:
        'Renders ZPL to PNG or PDF like the legacy service. Render errors are `text/plain` bodies beginning ' +
        '`ERROR: `; key and limit errors are JSON. Every answer carries `X-Request-Id`.',
    },
    servers: (options.legacyPaths ?? [LEGACY_MOUNT_PATH]).map((url) => ({ url })),
    security,
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: api.anonymousKey
            ? 'Checked before anything is read or rendered; a request without any key is served as the anonymous key (its scope and limits).'
            : 'Required on every request; checked before anything is read or rendered.',
        },
        ...(api.allowQueryKey && {
          queryKey: {
            type: 'apiKey',
            in: 'query',
            name: 'key',
            description:
              'The key as `?key=` (router option `allowQueryKey`); removed before any log line or upstream request.',
          },
        }),
      },
      parameters: {
        ...pathParameters,
        ...Object.fromEntries(documentedHeaders(outputs).map((h) => [headerComponentName(h.name), headerParameter(h)])),
      },
      schemas: jsonErrorSchemas(),
    },
  };
}
