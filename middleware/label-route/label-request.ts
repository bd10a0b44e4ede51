// parseLabelRequest: one render request read and validated, from the path, the headers and the body, into a
// plain LabelRequest. Nothing is rendered, counted or forwarded here.

import type { Dpmm } from '../../renderer/index.js';
import type { EndpointSpec, ExtraOutput, RequestHeaderName, RequestOptions } from '../api-table/index.js';
import { NOT_FOUND_MESSAGE, PlainHttpError } from '../http/http-errors.js';
import type { LegacyRequest } from '../http/http.js';
import { readPageHeaders } from './page-composition.js';
import { parseDensity, parseDimensions, parseIndex } from './path-params.js';
import { readZplBody } from '../http/request-body.js';
import { apiHeader, negotiateFormat, readHeaderOptions } from '../http/request-headers.js';
import type { LabelTarget } from '../upstream/upstream-path.js';

/** What one render endpoint takes from the path; the ZPL comes from the path or the raw query (GET) or the body (POST). */
export type Endpoint = Pick<EndpointSpec, 'allLabels' | 'zplFrom'>;

export interface LabelRequest {
  endpoint: Endpoint;
  method: string;
  zpl: Uint8Array | string;
  /** The request body exactly as received (empty for GET): what fallback and shadow send on. */
  received: Buffer;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  /** Absent for the all-labels endpoint. */
  index?: number;
  /** What the headers ask of the output (the api-table's request headers): the renderer takes it as it is. */
  options: RequestOptions;
  /** PDF page-composition headers were sent (options.page is there only when composition is applied). */
  composes: boolean;
  /** The request rebuilt from the validated values: the only form the legacy service ever sees. */
  target: LabelTarget;
}

export interface LabelRequestLimits {
  maxBodyBytes: number;
  pageComposition: 'validate' | 'apply';
  /** A PNG asked at the all-labels path is label 0 (real clients' default calls), not a 404. */
  lenientPaths: boolean;
  /** The extra outputs switched on (router option `outputs`). */
  outputs: readonly ExtraOutput[];
}

const NO_BODY = Buffer.alloc(0);

/** A request that is not for a PDF: its page headers are not read. */
const NO_PAGE_HEADERS = { composes: false, options: {} } as const;

/** The query string of a URL, undecoded ('' when there is none). */
export function rawQuery(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/** `GET .../labels/4x6/0/?^xa...` (the legacy service's own curl example): the whole query string is the ZPL. */
function zplFromQuery(url: string): string {
  try {
    return decodeURIComponent(rawQuery(url));
  } catch {
    throw new PlainHttpError(400, 'Malformed request URL');
  }
}

/** A request's ZPL document, and the body exactly as received; a GET's ZPL also as it came (path segments or query). */
export interface LabelDocument {
  zpl: Uint8Array | string;
  received: Buffer;
  zplSegments?: string[];
  zplQuery?: string;
}

/** The ZPL of a render request: the body (POST, multipart or raw), the path's segments or the raw query (GET). */
export async function readLabelDocument(
  endpoint: Endpoint,
  req: LegacyRequest,
  maxBodyBytes: number,
): Promise<LabelDocument> {
  if (endpoint.zplFrom === 'body') return readZplBody(req, maxBodyBytes);
  if (endpoint.zplFrom === 'query') {
    const zplQuery = zplFromQuery(req.url ?? '');
    return { zpl: zplQuery, received: NO_BODY, zplQuery };
  }
  const zplSegments = (req.params as Record<string, string[]>).zpl!;
  return { zpl: zplSegments.join('/'), received: NO_BODY, zplSegments };
}

/** The request, validated, or undefined for a GET without any ZPL (a 404, as the legacy service answers). */
export async function parseLabelRequest(
  asked: Endpoint,
  req: LegacyRequest,
  limits: LabelRequestLimits,
): Promise<LabelRequest | undefined> {
  if (asked.zplFrom === 'query' && rawQuery(req.url ?? '') === '') return undefined;
  const params = req.params as Record<string, string | string[]>;
  const dpmm = parseDensity(params.dpmm as string);
  const size = parseDimensions(params.dimensions as string);
  const index = asked.allLabels ? undefined : parseIndex(params.index as string);
  const headerOf = (name: RequestHeaderName): string | undefined => apiHeader(req, name);
  const format = negotiateFormat(headerOf('Accept'), limits.outputs);
  // Every output but PNG answers every label at the all-labels path; a PNG there is a 404, or label 0 with lenient paths.
  const everyLabel = format !== 'png';
  if (asked.allLabels && !everyLabel && !limits.lenientPaths) throw new PlainHttpError(404, NOT_FOUND_MESSAGE);
  const endpoint = asked.allLabels && !everyLabel ? { ...asked, allLabels: false } : asked;
  const headerOptions = readHeaderOptions(headerOf, format);
  const pageHeaders =
    format === 'pdf' ? readPageHeaders(headerOf, size, limits.pageComposition === 'apply') : NO_PAGE_HEADERS;

  const { zpl, received, zplSegments, zplQuery } = await readLabelDocument(endpoint, req, limits.maxBodyBytes);
  return {
    endpoint,
    method: req.method ?? 'GET',
    zpl,
    received,
    dpmm,
    ...size,
    ...(endpoint.allLabels ? {} : { index: index ?? 0 }),
    options: { format, ...headerOptions, ...pageHeaders.options },
    composes: pageHeaders.composes,
    target: {
      dpmm,
      ...size,
      ...(!endpoint.allLabels && { index: index ?? 0 }),
      ...(zplSegments && { zplSegments }),
      ...(zplQuery !== undefined && { zplQuery }),
    },
  };
}
