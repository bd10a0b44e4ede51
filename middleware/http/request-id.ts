// X-Request-Id on every response: a caller's sane id is echoed so logs on both sides line up.

import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER, setResponseHeaders } from '../api-table/index.js';
import { requestState } from './request-state.js';
import { header, type LegacyRequest, type LegacyResponse, type NextFunction } from './http.js';

const SANE_REQUEST_ID = new RegExp(REQUEST_ID_HEADER.pattern);

export function requestId(req: LegacyRequest, res: LegacyResponse, next: NextFunction): void {
  const incoming = header(req, REQUEST_ID_HEADER.name);
  const id = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  requestState(res).requestId = id;
  setResponseHeaders(res, { 'X-Request-Id': id });
  next();
}
