// Request headers the API reads, with their accepted values and the option each sets: validation, the options
// record the renderer takes, the forwarded-header list, CORS preflights and the OpenAPI document all come from here.

import {
  OUTPUT_TYPES,
  PRINTER_LANGUAGES,
  type Dpmm,
  type OutputFormat,
  type PageComposition,
  type RenderOptions,
  type Rotation,
} from '../../renderer/api.js';
import type { Described } from './table-entry.js';

/**
 * How a header is read into the request's options (middleware/request-headers.ts): `oneOf` its `values`, any case;
 * `pattern` its `pattern`; `accept` by content negotiation (the router's `outputs` decide what is on offer).
 */
export type HeaderReader = 'oneOf' | 'pattern' | 'accept';

/** Options of the answer rather than of the drawing. */
export interface AnswerOptions {
  /** The renderer's diagnostics go in X-Warnings. */
  linter?: boolean;
}

/** What a header can set: an option of the renderer (RenderOptions) or of the answer. */
export type OptionName = keyof RenderOptions | keyof AnswerOptions;

export interface RequestHeaderSpec extends Described {
  name: string;
  /** Accepted values, case-insensitive. */
  values?: readonly string[];
  /** What an absent (or, for headers that never refuse, an unlisted) value reads as; without one, absent means no value. */
  default?: string;
  /** Accepted form when not a list of values. */
  pattern?: string;
  /** The 400 answered for a value outside `values`/`pattern`; headers without it never refuse. */
  refusal?: (value: string) => string;
  /** Only PDF output reads it. */
  pdfOnly?: boolean;
  /** Only this extra output reads it (and the OpenAPI document lists it only when that output is on). */
  output?: ExtraOutput;
  example?: string;
  /** How it is read; a header without one sets no option (X-Request-Id is read where the id is given). */
  read?: HeaderReader;
  /** The option it sets. */
  option?: OptionName;
  /** `oneOf`: what each listed value sets the option to (`On` is true); without it, the listed value itself. */
  means?: Readonly<Record<string, unknown>>;
  /** `oneOf`: values compared as numbers (`90.0` and `090` are `90`). */
  numeric?: boolean;
  /** `pattern`: what a matching value sets the option to. */
  parse?: (match: RegExpExecArray) => unknown;
  /** Its option is set for these outputs only; the header is still read, and a bad value refused, for every output. */
  appliesTo?: readonly OutputFormat[];
  /** Read only when this option is set. */
  requires?: OptionName;
}

export const API_KEY_HEADER = 'X-API-Key';

/** The outputs always served (the spec's two). */
const SPEC_OUTPUTS = ['png', 'pdf'] as const satisfies readonly OutputFormat[];
export type ExtraOutput = Exclude<OutputFormat, (typeof SPEC_OUTPUTS)[number]>;

/**
 * The legacy service's outputs besides PNG and PDF, each off by default (router option `outputs`, EXTRA_OUTPUTS):
 * `json` the label data, `zpl` the document (laid out, or converted to another density), and a print job in each
 * printer language (`ipl`, `epl`, `dpl`, `sbpl`, `pcl5`, `pcl6`). Off, they are a 406. Every format of the renderer's
 * OUTPUT_TYPES but the two, in its order: their media types and file extensions are that table's.
 */
export const EXTRA_OUTPUTS: readonly ExtraOutput[] = (Object.keys(OUTPUT_TYPES) as OutputFormat[]).filter(
  (format): format is ExtraOutput => !(SPEC_OUTPUTS as readonly string[]).includes(format),
);

/** The outputs drawn as dots that X-Rotation turns: PNG and the print jobs. */
const TURNED_OUTPUTS = ['png', ...PRINTER_LANGUAGES] as const satisfies readonly OutputFormat[];

export const DPMM_VALUES = ['6', '8', '12', '24'] as const;

/** The renderer's density for each listed value (the compiler checks every value has one). */
const DENSITY = { 6: 6, 8: 8, 12: 12, 24: 24 } as const satisfies Record<(typeof DPMM_VALUES)[number], Dpmm>;

/** X-Target-Dpmm: the density a ZPL answer is converted to. */
export const TARGET_DPMM_HEADER = {
  name: 'X-Target-Dpmm',
  read: 'pattern',
  option: 'targetDpmm',
  pattern: `^(${DPMM_VALUES.join('|')})(?:dpmm)?$`,
  parse: (match) => DENSITY[match[1] as (typeof DPMM_VALUES)[number]],
  refusal: (value: string) => `Invalid X-Target-Dpmm ${value}; valid values: ${DPMM_VALUES.join(', ')}`,
  output: 'zpl',
  example: '12',
  description:
    "ZPL output (`Accept: application/zpl`): the document converted from the path's density to this one: every " +
    'coordinate and size rescaled, barcode module widths kept whole, `^GF`/`~DG` bitmaps resampled. What cannot be converted ' +
    'faithfully is listed in `X-Warnings` (whatever `X-Linter` says). Absent, the document comes back as sent.',
} as const satisfies RequestHeaderSpec;

export const PAGE_SIZE_NAMES = ['letter', 'legal', 'a4', 'a5', 'a6'] as const;
export type PageSizeName = (typeof PAGE_SIZE_NAMES)[number];

export const ROTATION_VALUES = ['0', '90', '180', '270'] as const;

/** The renderer's rotation for each listed X-Rotation value (the compiler checks every value has one). */
const DEGREES = { 0: 0, 90: 90, 180: 180, 270: 270 } as const satisfies Record<
  (typeof ROTATION_VALUES)[number],
  Rotation
>;

/** Off and On as the option's boolean. */
const SWITCH = { Off: false, On: true } as const;

export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:\\-]{1,128}$';

/** Headers whose values are a fixed list (case-insensitive). */
export const CHOICE_HEADERS = {
  rotation: {
    name: 'X-Rotation',
    read: 'oneOf',
    option: 'rotation',
    values: ROTATION_VALUES,
    numeric: true,
    means: DEGREES,
    default: '0',
    appliesTo: TURNED_OUTPUTS,
    refusal: () => 'Label rotation must be 0, 90, 180 or 270 degrees',
    description: 'Clockwise rotation of a PNG or a print job in degrees; PDF is not rotated.',
  },
  quality: {
    name: 'X-Quality',
    read: 'oneOf',
    option: 'quality',
    values: ['Grayscale', 'Bitonal'],
    means: { Grayscale: 'grayscale', Bitonal: 'bitonal' },
    default: 'Grayscale',
    appliesTo: ['png'],
    description: '`Bitonal` (any case) gives a 1-bit PNG. Any other value keeps the default, never an error.',
  },
  formatter: {
    name: 'X-Formatter',
    read: 'oneOf',
    option: 'formatter',
    values: ['Off', 'On'],
    means: SWITCH,
    default: 'Off',
    output: 'zpl',
    description:
      'ZPL output: `On` (any case) lays the document out one field a line, `^XA` and `^XZ` on lines of their own; field data is kept byte for byte.',
  },
  linter: {
    name: 'X-Linter',
    read: 'oneOf',
    option: 'linter',
    values: ['Off', 'On'],
    means: SWITCH,
    default: 'Off',
    description:
      "`On` (any case) lists the renderer's diagnostics in `X-Warnings` (at most 20), and how many it leaves out in " +
      '`X-Warnings-Omitted`. Other values mean off.',
  },
  lossyFields: {
    name: 'X-Lossy-Fields',
    read: 'oneOf',
    option: 'lossyFields',
    values: ['round', 'bitmap'],
    default: 'round',
    refusal: (value: string) => `Invalid X-Lossy-Fields ${value}; valid values: round, bitmap`,
    output: 'zpl',
    requires: 'targetDpmm',
    description:
      'With `X-Target-Dpmm`, not a header of the legacy service: how a field with no whole-dot form at the target is written ' +
      '(a module width of 3 dots is 4.5 at 12 dpmm; a device font between two cell multiples). `round` (the default) rounds it, the ' +
      'symbol or text a little larger or smaller; `bitmap` writes it as a `^GF` graphic of its drawing at the source density, scaled, ' +
      'so the label keeps its geometry (Data Matrix, Aztec and MaxiCode symbols, reverse, serialised and stored-format fields are ' +
      'rounded still). Either way `X-Warnings` says what was done to each such field.',
  },
  pageSize: {
    name: 'X-Page-Size',
    read: 'oneOf',
    option: 'page',
    values: PAGE_SIZE_NAMES,
    refusal: (value: string) => `Invalid page size: ${value}`,
    pdfOnly: true,
    description:
      "PDF sheet size (Letter, Legal, A4, A5, A6). Applied with `pageComposition: 'apply'`; by default only validated and pages stay label-sized.",
  },
  pageOrientation: {
    name: 'X-Page-Orientation',
    read: 'oneOf',
    option: 'page',
    values: ['portrait', 'landscape'],
    default: 'portrait',
    refusal: (value: string) => `Invalid page orientation: ${value}`,
    pdfOnly: true,
    description:
      "PDF sheet orientation. With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
  pageAlign: {
    name: 'X-Page-Align',
    read: 'oneOf',
    option: 'page',
    values: ['justify', 'left', 'right', 'center'],
    default: 'justify',
    refusal: (value: string) => `Invalid alignment: ${value}`,
    pdfOnly: true,
    description:
      "Horizontal placement of labels on a PDF page (`justify`, the default, spreads the spare space evenly). With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
  pageVerticalAlign: {
    name: 'X-Page-Vertical-Align',
    read: 'oneOf',
    option: 'page',
    values: ['justify', 'top', 'bottom', 'center'],
    default: 'justify',
    refusal: (value: string) => `Invalid vertical alignment: ${value}`,
    pdfOnly: true,
    description:
      "Vertical placement of labels on a PDF page (`justify` by default). With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
  labelBorder: {
    name: 'X-Label-Border',
    read: 'oneOf',
    option: 'page',
    values: ['dashed', 'solid', 'none'],
    default: 'dashed',
    refusal: (value: string) => `Invalid label border: ${value}`,
    pdfOnly: true,
    description:
      "Border around each label on a PDF page (`dashed` by default). With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
} as const satisfies Record<string, RequestHeaderSpec>;

export const PAGE_LAYOUT_HEADER = {
  name: 'X-Page-Layout',
  read: 'pattern',
  option: 'page',
  pattern: '^0*[1-9]\\d*x0*[1-9]\\d*$',
  parse: (match) => {
    const [columns, rows] = match[0].split(/x/i).map(Number) as [number, number];
    return { columns, rows };
  },
  refusal: (value: string) => `Invalid page layout: ${value}`,
  pdfOnly: true,
  example: '2x3',
  description:
    "`{columns}x{rows}` of labels per PDF page, filled row by row; with `X-Page-Size` the rows must fit the page height (else 400). Without `X-Page-Size` the sheet is the grid's own size. With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
} as const satisfies RequestHeaderSpec;

export const ACCEPT_HEADER = {
  name: 'Accept',
  read: 'accept',
  option: 'format',
  values: ['image/png', 'application/pdf'],
  default: 'image/png',
  description:
    'Output format: `image/png` (also `image/*`, `*/*`, or no header) or `application/pdf` (also `application/*`). ' +
    'Nothing else offered is a 406. The all-labels endpoint answers PDF only. With the router option `outputs` (EXTRA_OUTPUTS), ' +
    'also `application/json` (the label data: every label at the all-labels path, the one asked for elsewhere), `application/zpl` ' +
    '(the document, see X-Formatter and X-Target-Dpmm) and a print job for a printer of another language: `application/ipl` ' +
    '(Intermec), `application/epl` (Eltron/Zebra EPL2), `application/dpl` (Datamax), `application/sbpl` (SATO), ' +
    '`application/pcl5` and `application/pcl6` (HP), the label at its size and density, one print per label (every label at the ' +
    'all-labels path), turned by X-Rotation; for key scopes all of them count as PNG.',
} as const satisfies RequestHeaderSpec;

export const REQUEST_ID_HEADER = {
  name: 'X-Request-Id',
  pattern: REQUEST_ID_PATTERN,
  example: 'order-42.label-7',
  description:
    'Echoed in the answer and written to the logs when it matches the pattern; otherwise a fresh UUID is used.',
} as const satisfies RequestHeaderSpec;

/** The legacy API's optional X- headers (service spec, "Request headers"): what a client sends the legacy service too. */
export const OPTION_HEADERS = [
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
] as const;

/** Every request header the API reads besides X-API-Key (a security scheme in the document); an empty one is absent. */
export const REQUEST_HEADERS = [
  ACCEPT_HEADER,
  ...OPTION_HEADERS,
  CHOICE_HEADERS.lossyFields,
  REQUEST_ID_HEADER,
] as const satisfies readonly RequestHeaderSpec[];

/** A header name the table lists (a misspelt read does not compile). */
export type RequestHeaderName = (typeof REQUEST_HEADERS)[number]['name'];

/** The body's framing, read with it and forwarded with it (not in the document: HTTP's own). */
export const BODY_HEADERS = ['Content-Type', 'Content-Length'] as const;

// ---------------------------------------------------------------------------------------------------------
// The options record, typed from the table as the ZPL parameter table types ArgsOf (renderer/zpl/params.ts)

type OptionSpec = Extract<(typeof REQUEST_HEADERS)[number], { option: string }>;

/** A header the generic readers read (`oneOf`, `pattern`). */
export type ReadSpec = Extract<OptionSpec, { read: 'oneOf' | 'pattern' }>;

/** Options several headers make together, in a step of their own: the sheet (X-Page-*, X-Label-Border). */
export const COMPOSED_OPTIONS = ['page'] as const satisfies readonly OptionName[];
export type ComposedOption = (typeof COMPOSED_OPTIONS)[number];

/** What a header's value reads as: what `means` gives the listed value, the listed value, or what `parse` makes of a match. */
export type ReadValue<S> = S extends { means: infer M; values: readonly (infer V)[] }
  ? [V] extends [`${keyof M & (string | number)}`]
    ? M[keyof M]
    : 'means lacks a listed value'
  : S extends { values: readonly (infer V)[] }
    ? V
    : S extends { parse: (match: RegExpExecArray) => infer T }
      ? T
      : never;

/** What reading a header gives: its value, or undefined for a header without a default. */
export type HeaderValue<S> = ReadValue<S> | (S extends { default: string } ? never : undefined);

type OptionValue<S> = S extends { read: 'accept' }
  ? OutputFormat
  : S extends { option: ComposedOption }
    ? PageComposition
    : ReadValue<S>;

/** Every request has this option: the header is read for every output, sets it for every output, and has a default. */
type Always<S> = S extends { read: 'accept' }
  ? true
  : S extends { output: string } | { pdfOnly: true } | { appliesTo: readonly string[] } | { requires: string }
    ? false
    : S extends { default: string }
      ? true
      : false;

type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The request's options, one record from the headers: `{ format: 'png', linter: false, rotation: 90, quality:
 * 'grayscale' }`. It reaches the renderer as it is; X-Linter's is the answer's.
 */
export type RequestOptions = Flat<
  { [S in OptionSpec as Always<S> extends true ? S['option'] : never]: OptionValue<S> } & {
    [S in OptionSpec as Always<S> extends true ? never : S['option']]?: OptionValue<S>;
  }
>;

/** The renderer option the router sets rather than a header (`pdf`: its vector or raster PDF). */
export type RouterOption = 'pdf';

/** Type-level `satisfies`: T must be assignable to U. */
type Satisfies<T extends U, U> = T;

/**
 * Every renderer option but the router's is some header's, read as the renderer types it: a header's option
 * dropped from the table, or a reader that gives another type, does not compile.
 */
export type RendererOptionsFromHeaders = Satisfies<
  Required<Omit<RequestOptions, keyof AnswerOptions>>,
  Required<Omit<RenderOptions, RouterOption>>
>;
