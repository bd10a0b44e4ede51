// What a host serving the routers on its own node:http server puts around them (the standalone server does):
// the API's own 404 for a path no router answered, a 500 for a route's error, and a request marked as cut off at
// shutdown. Each leaves the same access line and X-Request-Id as the router's own answers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emit } from '../events/service-events.js';
import { accessEvents } from '../events/access-events.js';
import { NOT_FOUND_MESSAGE, sendPlainError } from '../http/http-errors.js';
import { requestId } from '../http/request-id.js';
import { requestState } from '../http/request-state.js';

/** Answers `404 ERROR: HTTP 404 Not Found`, with a request id and an access line (route `unmatched`). */
export function notFoundHandler(emit: Emit): (req: IncomingMessage, res: ServerResponse) => void {
  const access = accessEvents(emit, { route: () => 'unmatched' });
  return (req, res) => {
    requestId(req as never, res, () => {
      access(req as never, res, () => sendPlainError(res, 404, NOT_FOUND_MESSAGE));
    });
  };
}

/** A route's error: a `failure` event with the stack, then `500 ERROR: Internal server error` (or a cut connection once answering). */
export function answerRouteError(res: ServerResponse, err: unknown, emit: Emit): void {
  emit({
    type: 'failure',
    requestId: requestState(res).requestId,
    detail: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  if (res.headersSent) res.destroy();
  else sendPlainError(res, 500, 'Internal server error');
}

/** The host ends this request at shutdown: its access line says `endedBy: "shutdown"`. */
export function markCutOffAtShutdown(res: ServerResponse): void {
  requestState(res).endedBy = 'shutdown';
}
