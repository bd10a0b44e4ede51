// Request headers the API reads, with their accepted values: validation, the typed readers, the forwarded-header
// list, CORS preflights and the OpenAPI document all come from here.

import type { Described } from './table-entry.js';

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
}

export const API_KEY_HEADER = 'X-API-Key';

/**
 * The legacy service's outputs besides PNG and PDF, each off by default (router option `outputs`, EXTRA_OUTPUTS):
 * `json` the label data, `zpl` the document itself (laid out, or converted to another density). Off, they are a 406.
 */
export const EXTRA_OUTPUTS = ['json', 'zpl'] as const;
export type ExtraOutput = (typeof EXTRA_OUTPUTS)[number];
export const EXTRA_OUTPUT_TYPES: Readonly<Record<ExtraOutput, string>> = {
  json: 'application/json',
  zpl: 'application/zpl',
};

export const DPMM_VALUES = ['6', '8', '12', '24'] as const;

/** X-Target-Dpmm: the density a ZPL answer is converted to. */
export const TARGET_DPMM_HEADER = {
  name: 'X-Target-Dpmm',
  pattern: `^(${DPMM_VALUES.join('|')})(?:dpmm)?$`,
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

export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:\\-]{1,128}$';

/** Headers whose values are a fixed list (case-insensitive). */
export const CHOICE_HEADERS = {
  rotation: {
    name: 'X-Rotation',
    values: ROTATION_VALUES,
    default: '0',
    refusal: () => 'Label rotation must be 0, 90, 180 or 270 degrees',
    description: 'Clockwise rotation of a PNG in degrees; PDF is not rotated.',
  },
  quality: {
    name: 'X-Quality',
    values: ['Grayscale', 'Bitonal'],
    default: 'Grayscale',
    description: '`Bitonal` (any case) gives a 1-bit PNG. Any other value keeps the default, never an error.',
  },
  formatter: {
    name: 'X-Formatter',
    values: ['Off', 'On'],
    default: 'Off',
    output: 'zpl',
    description:
      'ZPL output: `On` (any case) lays the document out one field a line, `^XA` and `^XZ` on lines of their own; field data is kept byte for byte.',
  },
  linter: {
    name: 'X-Linter',
    values: ['Off', 'On'],
    default: 'Off',
    description:
      "`On` (any case) lists the renderer's diagnostics in `X-Warnings` (at most 20). Other values mean off.",
  },
  lossyFields: {
    name: 'X-Lossy-Fields',
    values: ['round', 'bitmap'],
    default: 'round',
    refusal: (value: string) => `Invalid X-Lossy-Fields ${value}; valid values: round, bitmap`,
    output: 'zpl',
    description:
      'With `X-Target-Dpmm`, not a header of the legacy service: how a field with no whole-dot form at the target is written ' +
      '(a module width of 3 dots is 4.5 at 12 dpmm; a device font between two cell multiples). `round` (the default) rounds it, the ' +
      'symbol or text a little larger or smaller; `bitmap` writes it as a `^GF` graphic of its drawing at the source density, scaled, ' +
      'so the label keeps its geometry (Data Matrix, Aztec and MaxiCode symbols, reverse, serialised and stored-format fields are ' +
      'rounded still). Either way `X-Warnings` says what was done to each such field.',
  },
  pageSize: {
    name: 'X-Page-Size',
    values: PAGE_SIZE_NAMES,
    refusal: (value: string) => `Invalid page size: ${value}`,
    pdfOnly: true,
    description:
      "PDF sheet size (Letter, Legal, A4, A5, A6). Applied with `pageComposition: 'apply'`; by default only validated and pages stay label-sized.",
  },
  pageOrientation: {
    name: 'X-Page-Orientation',
    values: ['portrait', 'landscape'],
    default: 'portrait',
    refusal: (value: string) => `Invalid page orientation: ${value}`,
    pdfOnly: true,
    description:
      "PDF sheet orientation. With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
  pageAlign: {
    name: 'X-Page-Align',
    values: ['justify', 'left', 'right', 'center'],
    default: 'justify',
    refusal: (value: string) => `Invalid alignment: ${value}`,
    pdfOnly: true,
    description:
      "Horizontal placement of labels on a PDF page (`justify`, the default, spreads the spare space evenly). With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
  pageVerticalAlign: {
    name: 'X-Page-Vertical-Align',
    values: ['justify', 'top', 'bottom', 'center'],
    default: 'justify',
    refusal: (value: string) => `Invalid vertical alignment: ${value}`,
    pdfOnly: true,
    description:
      "Vertical placement of labels on a PDF page (`justify` by default). With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
  },
  labelBorder: {
    name: 'X-Label-Border',
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
  pattern: '^0*[1-9]\\d*x0*[1-9]\\d*$',
  refusal: (value: string) => `Invalid page layout: ${value}`,
  pdfOnly: true,
  example: '2x3',
  description:
    "`{columns}x{rows}` of labels per PDF page, filled row by row; with `X-Page-Size` the rows must fit the page height (else 400). Without `X-Page-Size` the sheet is the grid's own size. With the router option `pageComposition: 'apply'` it is applied; by default (`validate`) it is only checked.",
} as const satisfies RequestHeaderSpec;

export const ACCEPT_HEADER = {
  name: 'Accept',
  values: ['image/png', 'application/pdf'],
  default: 'image/png',
  description:
    'Output format: `image/png` (also `image/*`, `*/*`, or no header) or `application/pdf` (also `application/*`). ' +
    'Nothing else offered is a 406. The all-labels endpoint answers PDF only. With the router option `outputs` (EXTRA_OUTPUTS), ' +
    'also `application/json` (the label data: every label at the all-labels path, the one asked for elsewhere) and `application/zpl` ' +
    '(the document, see X-Formatter and X-Target-Dpmm); for key scopes both count as PNG.',
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
// Typed reading of the choice headers, as the ZPL parameter table types ArgsOf (renderer/zpl/params.ts)

type ChoiceSpec = (typeof CHOICE_HEADERS)[keyof typeof CHOICE_HEADERS];
type ChoiceSpecNamed<N> = Extract<ChoiceSpec, { name: N }>;
export type ChoiceHeaderName = ChoiceSpec['name'];

/** The values a choice header lists: `ChoiceOf<'X-Page-Align'>` is 'justify' | 'left' | 'right' | 'center'. */
export type ChoiceOf<N extends ChoiceHeaderName> = ChoiceSpecNamed<N>['values'][number];

/** What reading a choice header gives: a listed value, or undefined for a header without a default. */
export type HeaderValue<N extends ChoiceHeaderName> =
  | ChoiceOf<N>
  | (ChoiceSpecNamed<N> extends { default: string } ? never : undefined);

const CHOICE_BY_NAME: ReadonlyMap<string, RequestHeaderSpec> = new Map(
  Object.values(CHOICE_HEADERS).map((spec) => [spec.name, spec]),
);

/** A choice header's entry, typed by its name (TypeScript cannot follow N through a lookup: the table says what N lists). */
function choiceSpec<N extends ChoiceHeaderName>(name: N): { values: readonly ChoiceOf<N>[]; default: HeaderValue<N> } {
  return CHOICE_BY_NAME.get(name) as unknown as { values: readonly ChoiceOf<N>[]; default: HeaderValue<N> };
}

/** The listed value a header's text names, in the table's spelling (compared without regard to case); undefined if none. */
export function listedValue<N extends ChoiceHeaderName>(name: N, text: string | undefined): ChoiceOf<N> | undefined {
  if (text === undefined) return undefined;
  const lower = text.toLowerCase();
  return choiceSpec(name).values.find((value) => value.toLowerCase() === lower);
}

/** A choice header read through `lookup`: its listed value, else its default (none for X-Page-Size). */
export function readHeader<N extends ChoiceHeaderName>(
  lookup: (name: N) => string | undefined,
  name: N,
): HeaderValue<N> {
  return listedValue(name, lookup(name)) ?? choiceSpec(name).default;
}
