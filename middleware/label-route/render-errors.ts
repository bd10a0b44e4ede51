// A RenderError as the API answers it, shared by the legacy and preview routers: the legacy status and text,
// Retry-After on overload, and an event for what operators watch under hostile load (timeouts, memory, overload).

import type { RenderError } from '../../renderer/index.js';
import { setResponseHeaders } from '../api-table/index.js';
import type { Emit } from '../events/service-events.js';
import { OVERLOADED_RETRY_AFTER_SECONDS, RENDER_ERROR_STATUS, sendPlainError } from '../http/http-errors.js';
import type { LegacyResponse } from '../http/http.js';
import { requestKeyLabel, requestState } from '../http/request-state.js';

export function sendRenderError(res: LegacyResponse, err: RenderError, emit: Emit): void {
  if (err.code === 'cancelled') {
    res.destroy();
    return;
  } // the client has gone: nobody to answer
  const status = RENDER_ERROR_STATUS[err.code] ?? 500;
  const { requestId, key } = requestState(res);
  const keyId = key !== undefined ? requestKeyLabel(res) : undefined;
  const who = keyId !== undefined ? { keyId } : {};
  if (err.code === 'timeout') {
    emit({ type: 'render_timeout', requestId, message: err.message, ...who });
  } else if (err.code === 'memory') {
    emit({ type: 'render_memory', requestId, message: err.message, ...who });
  } else if (status === 503) {
    emit({ type: 'overloaded', requestId, message: err.message, ...who });
  }
  if (err.code === 'overloaded') setResponseHeaders(res, { 'Retry-After': OVERLOADED_RETRY_AFTER_SECONDS });
  sendPlainError(res, status, err.message);
}
