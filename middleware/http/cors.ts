// CORS for browser clients (off by default): allowed origins, the legacy request headers in preflights, and
// the response headers a page needs (X-Total-Count, X-Warnings, X-Request-Id, Retry-After...) exposed.

import { API_KEY_HEADER, BODY_HEADERS, EXPOSED_RESPONSE_HEADERS, REQUEST_HEADERS } from '../api-table/index.js';
import {
  header,
  setHeaders,
  type LegacyRequest as Request,
  type LegacyResponse as Response,
  type NextFunction,
} from './http.js';

/** `true`: any origin; `{ origins }`: only those (exact `scheme://host[:port]`, or `*`). */
export type CorsOption = boolean | { origins: readonly string[] };

// Content-Length is the browser's to set (a forbidden header), so of the body's headers only Content-Type is asked for.
const ALLOWED_HEADERS = [API_KEY_HEADER, BODY_HEADERS[0], ...REQUEST_HEADERS.map((h) => h.name)].join(', ');
const EXPOSED_HEADERS = EXPOSED_RESPONSE_HEADERS.join(', ');
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The middleware for `cors`, or undefined when it is off. */
export function corsMiddleware(option: CorsOption | undefined) {
  if (!option) return undefined;
  const anyOrigin = option === true || option.origins.includes('*');
  const origins = new Set(option === true ? [] : option.origins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = header(req, 'Origin');
    addVary(res, 'Origin');
    if (origin === undefined || !(anyOrigin || origins.has(origin.toLowerCase()))) {
      next();
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
    if (req.method === 'OPTIONS' && header(req, 'Access-Control-Request-Method') !== undefined) {
      // A preflight carries no key: it is answered here, before authorization.
      setHeaders(res, {
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      });
      res.statusCode = 204;
      res.end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}

/** Adds a field to Vary, keeping what the host already put there. */
function addVary(res: Response, field: string): void {
  const current = res.getHeader('Vary');
  const fields = (Array.isArray(current) ? current.join(', ') : String(current ?? ''))
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  if (fields.includes('*') || fields.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  res.setHeader('Vary', [...fields, field].join(', '));
}

/** `CORS_ORIGINS`: comma-separated origins, `*` for any; empty or unset is off. */
export function parseCorsOrigins(text: string | undefined): CorsOption | undefined {
  const origins = (text ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  if (origins.length === 0) return undefined;
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+\/?$/i.test(origin)) {
      throw new Error(`CORS_ORIGINS must list origins like https://app.example.com (or *), not ${origin}`);
    }
  }
  return { origins };
}
