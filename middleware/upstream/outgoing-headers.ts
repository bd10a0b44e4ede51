// What the legacy service receives besides the body: an allowlist of the client's headers (never its cookies,
// credentials or anything else the host's users send), our key instead of the client's, our request id.

import type { IncomingHttpHeaders } from 'node:http';

/** The legacy API's optional request headers (service spec, "Request headers"). */
export const LEGACY_REQUEST_HEADERS: readonly string[] = [
  'X-Rotation', 'X-Quality', 'X-Linter', 'X-Page-Size', 'X-Page-Orientation', 'X-Page-Layout', 'X-Page-Align',
  'X-Page-Vertical-Align', 'X-Label-Border', 'X-Formatter', 'X-Target-Dpmm',
];

/** Request headers forwarded upstream unless the router's `forwardHeaders` option replaces the list. */
export const DEFAULT_FORWARD_HEADERS: readonly string[] = ['Accept', 'Content-Type', 'Content-Length', ...LEGACY_REQUEST_HEADERS];

/** Set by us whatever the allowlist says: the client's key never goes upstream, and ids must line up. */
const OUR_HEADERS = new Set(['x-api-key', 'x-request-id']);

/** Framing and routing, set by the HTTP client from the body and the target, never copied from the client. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'te', 'trailer', 'upgrade', 'expect']);

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
export function upstreamHeaders(incoming: IncomingHttpHeaders, allow: HeaderAllowlist, apiKey: string | undefined,
  requestId: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || TRANSPORT_HEADERS.has(name) || !keepsHeader(allow, name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  if (apiKey !== undefined) headers.set('X-API-Key', apiKey);
  headers.set('X-Request-Id', requestId);
  return headers;
}
