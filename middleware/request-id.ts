// X-Request-Id on every response: a caller's sane id is echoed so logs on both sides line up.

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { REQUEST_ID_PATTERN } from './api-table.js';

const SANE_REQUEST_ID = new RegExp(REQUEST_ID_PATTERN);

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('X-Request-Id');
  const id = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = id;
  res.set('X-Request-Id', id);
  next();
}
