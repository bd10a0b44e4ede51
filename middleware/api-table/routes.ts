// The operations below the mount point, and how a request path is matched to one (router, logs, metrics).

import { PARAMETER_BY_NAME, type PathParameterSpec } from './paths.js';
import type { Described } from './table-entry.js';

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
    description:
      "The legacy service's curl example (`GET .../labels/4x6/0/?^xa...`, a trailing slash or not): the whole query " +
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
    description:
      'Every label of the document, one page each (`Accept: application/pdf`; PNG here is a 404). ' +
      "With the router option `outputs`, also every label's data (`application/json`) or the document (`application/zpl`). " +
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
  description:
    'A PNG, JPEG, GIF or BMP as the multipart field `file`; the answer is ZPL text with one `^GFA` field at the label ' +
    'home, or the same data as JSON with `Accept: application/json`. With the router option `outputs`, also the type asked ' +
    'for of those switched on: `application/zpl` (the same ZPL) and the print jobs (`application/ipl`, `epl`, `dpl`, `sbpl`, ' +
    '`pcl5`, `pcl6`: that ZPL drawn as one label the size of the image, at `?dpmm=`). `?threshold=1..255` (default 128) sets ' +
    'the ink threshold, `?dither=true` diffuses greys (Floyd-Steinberg). Images over 4096x4096 pixels are a 413, read from ' +
    'the header before decoding.',
};

/** POST /fonts (router option `fontsEndpoint`, off by default): the legacy service's font conversion. */
export const FONTS_ENDPOINT: OperationSpec = {
  id: 'convertFontToZpl',
  method: 'post',
  template: '/fonts',
  summary: 'Convert a TrueType font to the ZPL that stores it (off by default)',
  description:
    'A TrueType font as the multipart field `file`, with the optional fields `path`, `name`, `chars` and `unicodes`; ' +
    'the answer is ZPL text, one format that stores the font with `~DU` (its bytes as hex) and, with `name`, assigns ' +
    'that letter to it with `^CW`. With `chars` or `unicodes` the font is cut down to those characters first. ' +
    'A font whose OS/2 fsType forbids embedding (or subsetting, when asked) is a 400.',
};

/** The path parameters of a template, in order. */
export function templateParameters(template: string): PathParameterSpec[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => PARAMETER_BY_NAME[m[1]!]!);
}

/** The Express 5 path of a template: `{dpmm}` -> `:dpmm`, a rest parameter -> `*zpl`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => (PARAMETER_BY_NAME[name]?.rest ? `*${name}` : `:${name}`));
}

/** The endpoint template a request path (below the mount point) has the shape of, whatever its values. */
export function routeOf(
  method: string,
  path: string,
  operations: readonly OperationSpec[] = ENDPOINTS,
): string | undefined {
  return routeMatcher(operations)(method, path);
}

/**
 * routeOf for one list of operations, with each template split once: the access line asks it on every request.
 * Literal segments match without regard to case, as the router's routes do (`/PRINTERS/8dpmm/...` is served).
 */
export function routeMatcher(
  operations: readonly OperationSpec[] = ENDPOINTS,
): (method: string, path: string) => string | undefined {
  const shapes = operations.map((endpoint) => {
    const parts = endpoint.template
      .split('/')
      .filter((s) => s !== '')
      .map((part) => part.toLowerCase());
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
