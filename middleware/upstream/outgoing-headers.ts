// What the legacy service receives besides the body: an allowlist of the client's headers (never its cookies,
// credentials or anything else the host's users send), our key instead of the client's, our request id.

import type { IncomingHttpHeaders } from 'node:http';
import { ACCEPT_HEADER, API_KEY_HEADER, BODY_HEADERS, OPTION_HEADERS, REQUEST_ID_HEADER } from '../api-table/index.js';

/** The legacy API's optional request headers (service spec, "Request headers"; the table's OPTION_HEADERS). */
export const LEGACY_REQUEST_HEADERS: readonly string[] = OPTION_HEADERS.map((spec) => spec.name);

/** Request headers forwarded upstream unless the router's `forwardHeaders` option replaces the list. */
export const DEFAULT_FORWARD_HEADERS: readonly string[] = [
  ACCEPT_HEADER.name,
  ...BODY_HEADERS,
  ...LEGACY_REQUEST_HEADERS,
];

/** Set by us whatever the allowlist says: the client's key never goes upstream, and ids must line up. */
const OUR_HEADERS = new Set([API_KEY_HEADER, REQUEST_ID_HEADER.name].map((name) => name.toLowerCase()));

/** Framing and routing, set by the HTTP client from the body and the target, never copied from the client. */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** The lower-cased header names a router forwards. */
export type HeaderAllowlist = ReadonlySet<string>;

export function headerAllowlist(names: readonly string[] = DEFAULT_FORWARD_HEADERS): HeaderAllowlist {
  return new Set(names.map((name) => name.trim().toLowerCase()).filter((name) => !OUR_HEADERS.has(name)));
}

/** Whether a header of the outgoing request may stay: allowed, or one the HTTP client manages. */
export function keepsHeader(allow: HeaderAllowlist, name: string): boolean {
  const lower = name.toLowerCase();
  return TRANSPORT_HEADERS.has(lower) || (allow.has(lower) && !OUR_HEADERS.has(lower));
}

/** The allowed client headers (transport headers left to the HTTP client), our key (none without one) and request id. */
export function upstreamHeaders(
  incoming: IncomingHttpHeaders,
  allow: HeaderAllowlist,
  apiKey: string | undefined,
  requestId: string,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || TRANSPORT_HEADERS.has(name) || !keepsHeader(allow, name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  if (apiKey !== undefined) headers.set(API_KEY_HEADER, apiKey);
  headers.set(REQUEST_ID_HEADER.name, requestId);
  return headers;
}
