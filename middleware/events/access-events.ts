// One request_done event per request, when the answer is finished or the client has gone away: the access
// line and the HTTP metrics. Handlers note what they rendered in the request state (noteRendered).

import { performance } from 'node:perf_hooks';
import { RENDERER_HEADER } from '../api-table/index.js';
import type { LegacyRequest as Request, LegacyResponse as Response, NextFunction } from '../http/http.js';
import { requestKeyLabel, requestState, type RenderedSummary } from '../http/request-state.js';
import type { Emit } from './service-events.js';

export type { RenderedSummary };

/** Records what the request rendered, for its access line. */
export function noteRendered(res: Response, summary: RenderedSummary): void {
  const state = requestState(res);
  state.rendered = { ...state.rendered, ...summary };
}

/** Milliseconds since a performance.now() reading, to 0.01 ms. */
export function elapsedMs(since: number): number {
  return toHundredths(performance.now() - since);
}

function toHundredths(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/**
 * Times one render from now: pass `started` as its RenderHooks.started; `done` splits the time since into
 * waiting for a thread and rendering (a render function that never calls `started` counts all as rendering).
 */
export function renderTiming(): { started: () => void; done: () => { queuedMs: number; renderMs: number } } {
  const asked = performance.now();
  let began: number | undefined;
  return {
    started: () => {
      began ??= performance.now();
    },
    done: () => {
      const from = began ?? asked;
      return { queuedMs: toHundredths(from - asked), renderMs: elapsedMs(from) };
    },
  };
}

export interface AccessEventOptions {
  /** The route template of a request (below the mount point), or `unmatched`. */
  route: (req: Request) => string;
  /** Operations routes: their access lines are debug. */
  operational?: boolean;
}

export function accessEvents(emit: Emit, { route, operational }: AccessEventOptions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const template = route(req);
    let reported = false;
    const report = (): void => {
      if (reported) return;
      reported = true;
      const { requestId, key, rendered, endedBy } = requestState(res);
      const length = Number(res.getHeader('Content-Length'));
      const renderer = res.getHeader(RENDERER_HEADER);
      emit({
        type: 'request_done',
        requestId,
        method: req.method ?? 'GET',
        route: template,
        status: res.statusCode,
        ...(key && { keyId: requestKeyLabel(res) }),
        ...rendered,
        ...(Number.isFinite(length) && { bytes: length }),
        durationMs: elapsedMs(started),
        ...(typeof renderer === 'string' && { renderer }),
        completed: res.writableFinished,
        ...(endedBy && { endedBy }),
        ...(operational && { operational }),
      });
    };
    res.once('finish', report);
    res.once('close', report);
    next();
  };
}
