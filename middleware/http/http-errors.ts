// The two error shapes of the API: plain text `ERROR: ...` for render errors, JSON for key and limit errors.

import type { ServerResponse } from 'node:http';
import { OUTPUT_TYPES } from '../../renderer/api.js';
import type { RenderErrorCode } from '../../renderer/index.js';
import { setResponseHeaders, type ExtraOutput } from '../api-table/index.js';
import { sendBody } from './http.js';

/** A request the service refuses with a plain-text `ERROR: <message>` body. */
export class PlainHttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'PlainHttpError';
    this.status = status;
  }
}

export const NOT_FOUND_MESSAGE = 'HTTP 404 Not Found';
export const NOT_ACCEPTABLE_MESSAGE = 'HTTP 406 Not Acceptable\nimage/png, application/pdf';

/** The 406 text: the spec's, the extra outputs switched on listed after PNG and PDF. */
export function notAcceptableMessage(outputs: readonly ExtraOutput[] = []): string {
  return [NOT_ACCEPTABLE_MESSAGE, ...outputs.map((o) => OUTPUT_TYPES[o].mediaType)].join(', ');
}

/** HTTP status of each renderer failure (`cancelled` has none: the client has gone, nothing is sent). */
export const RENDER_ERROR_STATUS: Readonly<Record<Exclude<RenderErrorCode, 'cancelled'>, number>> = {
  'no-labels': 404,
  'index-out-of-range': 404,
  'too-many-labels': 413,
  'too-large': 400,
  invalid: 400,
  timeout: 500,
  overloaded: 503,
  memory: 413,
  failed: 500,
};

/** Seconds an `overloaded` answer asks the client to wait before retrying. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

export function sendPlainError(res: ServerResponse, status: number, message: string): void {
  sendBody(res, status, 'text/plain; charset=utf-8', `ERROR: ${message}`);
}

export interface JsonErrorBody {
  error: string;
  message: string;
  [field: string]: string | number;
}

export function sendJsonError(res: ServerResponse, status: number, body: JsonErrorBody): void {
  sendBody(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

export function sendStoreUnavailable(res: ServerResponse): void {
  setResponseHeaders(res, { 'Retry-After': 1 });
  sendJsonError(res, 503, {
    error: 'key_store_unavailable',
    message: 'The API key store is not ready; retry shortly.',
  });
}
