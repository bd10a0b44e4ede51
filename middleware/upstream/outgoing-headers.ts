// What the legacy service receives besides the body: the client's headers, our key instead of theirs.

import type { IncomingHttpHeaders } from 'node:http';

/** Headers that belong to one connection (or that the HTTP client sets itself), never copied to the next hop. */
const CONNECTION_HEADERS = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'expect', 'host', 'content-length',
]);

/** The client's end-to-end headers with X-API-Key replaced by `apiKey` (dropped without one) and our request id. */
export function upstreamHeaders(incoming: IncomingHttpHeaders, apiKey: string | undefined, requestId: string): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || CONNECTION_HEADERS.has(name) || name === 'x-api-key' || name === 'x-request-id') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  if (apiKey !== undefined) headers.set('X-API-Key', apiKey);
  headers.set('X-Request-Id', requestId);
  return headers;
}
