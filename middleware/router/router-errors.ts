// The legacy router's last handler: every error a step threw, answered in the service's own shape.

import { RenderError } from '../../renderer/errors.js';
import { StoreUnavailableError } from '../stores/deadline.js';
import type { Emit } from '../events/service-events.js';
import { PlainHttpError, sendPlainError, sendStoreUnavailable } from '../http/http-errors.js';
import type { LegacyRequest as Request, LegacyResponse as Response, NextFunction } from '../http/http.js';
import { PagesExceededError, sendRateLimited } from '../limits/rate-limits.js';
import { sendRenderError } from '../label-route/render-errors.js';
import { requestState } from '../http/request-state.js';

/** Express's own 4xx errors (e.g. an undecodable path parameter). */
function isClientError(err: unknown): err is { status: number } {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

export function answerErrors(emit: Emit) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const { requestId } = requestState(res);
    if (err instanceof PagesExceededError) {
      sendRateLimited(res, err.exceeded, emit);
    } else if (err instanceof PlainHttpError) {
      // An upload still arriving past the drain bound (request-body.ts) is cut off after the answer.
      if (err.status === 413 && !req.complete) res.setHeader('Connection', 'close');
      // a set-up fault the operator must see
      if (err.status >= 500) emit({ type: 'setup_fault', requestId, status: err.status, message: err.message });
      sendPlainError(res, err.status, err.message);
    } else if (err instanceof RenderError) {
      sendRenderError(res, err, emit);
    } else if (err instanceof StoreUnavailableError) {
      emit({ type: 'unavailable', requestId, cause: err.store.replace(' ', '_'), message: err.message });
      sendStoreUnavailable(res);
    } else if (isClientError(err)) {
      sendPlainError(res, err.status, err.status === 400 ? 'Malformed request URL' : `HTTP ${err.status}`);
    } else {
      emit({ type: 'failure', requestId, detail: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      sendPlainError(res, 500, 'Internal server error');
    }
  };
}
