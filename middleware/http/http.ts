// The request and response the legacy router works with: Node's own, plus what the `router` package (the
// router inside Express 5) sets. The router never relies on Express's additions (req.get, res.send...), so it
// runs the same inside an Express 4 or 5 app, a Connect app, or a bare `http.createServer`.

import type { IncomingMessage, ServerResponse } from 'node:http';

export interface LegacyRequest extends IncomingMessage {
  params: Record<string, string | string[] | undefined>;
  baseUrl: string;
  originalUrl: string;
  /** Set by a host's body parser that ran before the router. */
  body?: unknown;
  /** body-parser 1.x (Express 4) marks a body it has read. */
  _body?: boolean;
}

export type LegacyResponse = ServerResponse;

export type NextFunction = (err?: unknown) => void;

/** Header names as Node keys them (lower case), worked out once per name: the names are the code's own, a few dozen. */
const HEADER_KEYS = new Map<string, string>();
const MAX_HEADER_KEYS = 256;

function headerKey(name: string): string {
  let key = HEADER_KEYS.get(name);
  if (key === undefined) {
    key = name.toLowerCase();
    if (HEADER_KEYS.size < MAX_HEADER_KEYS) HEADER_KEYS.set(name, key);
  }
  return key;
}

/** A request header as one string (repeated headers joined), undefined when absent. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[headerKey(name)];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The media type of the request body, lower-cased, without parameters ('' when none). */
export function mediaType(req: IncomingMessage): string {
  return (header(req, 'Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Sets each response header (values as strings). */
export function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/** Sends a complete response with a known length. */
export function sendBody(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(bytes.length));
  res.end(bytes);
}
