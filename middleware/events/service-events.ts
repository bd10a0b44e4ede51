// The service's typed event sink: the routers say what happened as plain records; logging and metrics are
// subscribers, so neither router knows pino or prom-client. Events never carry keys, bodies or HTTP objects.

import type { DivergenceEvent } from '../stores/shadow-store.js';

/** One request answered (or abandoned by its client): the access line and the HTTP metrics. */
export interface RequestDoneEvent {
  type: 'request_done';
  requestId: string;
  method: string;
  /** The endpoint's path template (`/printers/{dpmm}/labels/{dimensions}/{index}`), or `unmatched`. */
  route: string;
  status: number;
  /** Id of the key the request was authorized with (never the key itself). */
  keyId?: string;
  /** Labels the document produces (X-Total-Count), when something was rendered or forwarded. */
  labels?: number;
  /** Label pages drawn into the answer. */
  pages?: number;
  /** Time spent rendering, from a thread taking the render. */
  renderMs?: number;
  /** Time the render waited for a thread. */
  queuedMs?: number;
  /** Body bytes sent, when the answer declared them. */
  bytes?: number;
  durationMs: number;
  /** Who drew the answer: `local` or `upstream`. */
  renderer?: string;
  /** False when the client went away before the answer was complete. */
  completed: boolean;
  /** Set when the server ended the request: `shutdown` when it was still running at the end of the shutdown budget. */
  endedBy?: 'shutdown';
  /** Operations routes (probes, scrapes) are logged at debug so they do not drown the access log. */
  operational?: boolean;
}

/** One successful render here. */
export interface RenderEvent {
  type: 'render';
  requestId: string;
  dpmm: number;
  format: string;
  labels: number;
  pages: number;
  /** Rendering, from a thread taking the render. */
  durationMs: number;
  /** Waiting for a render thread before that. */
  queuedMs: number;
}

/** A request refused by a key check (401, 403). */
export interface RefusedEvent {
  type: 'refused';
  requestId: string;
  status: number;
  error: string;
  keyId?: string;
}

/** A 429. */
export interface RateLimitedEvent {
  type: 'rate_limited';
  requestId: string;
  keyId: string;
  limitType: string;
  limitScope: string;
  limit: number;
}

/** A 503 because a store did not answer (`key_store`, `usage_store`). */
export interface UnavailableEvent {
  type: 'unavailable';
  requestId: string;
  cause: string;
  message: string;
}

/** A 503 because the render pool's queue is full. */
export interface OverloadedEvent {
  type: 'overloaded';
  requestId: string;
  keyId?: string;
  message: string;
}

/** A 413 because the document went over its memory budget (maxDocumentBytes). */
export interface RenderMemoryEvent {
  type: 'render_memory';
  requestId: string;
  keyId?: string;
  message: string;
}

/** A render stopped past its time budget. */
export interface RenderTimeoutEvent {
  type: 'render_timeout';
  requestId: string;
  keyId?: string;
  message: string;
}

/** The legacy service could not be reached, or stayed silent (a 502 to the client). */
export interface UpstreamFailedEvent {
  type: 'upstream_failed';
  requestId: string;
  reason: string;
}

/** Fallback mode sent a request to the legacy service instead of rendering it. */
export interface FallbackForwardEvent {
  type: 'fallback_forward';
  requestId: string;
  /** The key's id, or `anonymous` (never the key). */
  keyId?: string;
  reason: string;
  /** The commands this renderer does not draw, or `page-composition` for composed PDFs. */
  commands: string[];
}

export type ShadowResultEvent =
  | { type: 'shadow_result'; requestId: string; outcome: 'matched'; score: number }
  | { type: 'shadow_result'; requestId: string; outcome: 'diverged'; divergence: DivergenceEvent }
  | { type: 'shadow_result'; requestId: string; outcome: 'upstream_error'; reason: string };

/** Shadow samples dropped because the queue was full (log lines add them up per interval). */
export interface ShadowDroppedEvent {
  type: 'shadow_dropped';
  dropped: number;
}

/** Shadow-mode trouble of our own: storing images, a throwing hook, a stored case the report cannot read. */
export interface ShadowProblemEvent {
  type: 'shadow_problem';
  problem: 'shadow_store_failed' | 'shadow_hook_failed' | 'shadow_case_unreadable';
  requestId?: string;
  hook?: string;
  /** shadow_case_unreadable: the case's id (its file stem). */
  case?: string;
  reason: string;
}

/** Pages rendered but not booked against the key's day (the usage store failed after the render). */
export interface PagesNotCountedEvent {
  type: 'pages_not_counted';
  requestId: string;
  message: string;
}

/** A failure nobody expected (a 500 without a render error); `detail` has the stack for the log. */
export interface FailureEvent {
  type: 'failure';
  requestId: string;
  detail: string;
}

/** A set-up fault of the host answered 5xx (e.g. a body parser read the body before the router). */
export interface SetupFaultEvent {
  type: 'setup_fault';
  requestId: string;
  status: number;
  message: string;
}

/** The key store was seeded at start-up, lost its seeded keys (Redis came back empty), was seeded again, or seeding failed. */
export interface KeySeedingEvent {
  type: 'key_seeding';
  outcome: 'seeded' | 'lost' | 'seeded_again' | 'failed';
  message: string;
  /** seeded, seeded_again: how many keys were written. */
  keys?: number;
}

/** A store's connection went down or came back. */
export interface StoreStateEvent {
  type: 'store_state';
  ready: boolean;
  message: string;
}

/** Anything else worth a log line (start-up, shutdown). */
export interface NoticeEvent {
  type: 'notice';
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** A line a library printed with console.log, info, debug or warn (the standalone server routes them here). */
export interface LibraryOutputEvent {
  type: 'library_output';
  method: 'log' | 'info' | 'debug' | 'warn';
  message: string;
}

/** A job the printer port received, drawn (`labels`) or not (`error`); no label data, only its size and counts. */
export interface PrinterJobEvent {
  type: 'printer_job';
  jobId: string;
  client: string;
  bytes: number;
  labels: number;
  warnings: number;
  error?: string;
}

/** A printer-port connection or job refused: an address outside PRINTER_ALLOW, too many connections, over a byte cap. */
export interface PrinterRefusedEvent {
  type: 'printer_refused';
  client: string;
  reason: 'not-allowed' | 'connections' | 'job-bytes' | 'connection-bytes';
}

/** A received job passed on to the real printer (PRINTER_FORWARD) or its summary to the webhook: sent, retried, given up. */
export interface PrinterForwardEvent {
  type: 'printer_forward';
  jobId: string;
  target: 'printer' | 'webhook';
  status: 'sent' | 'retrying' | 'failed';
  attempts: number;
  error?: string;
}

export type ServiceEvent =
  | RequestDoneEvent
  | RenderEvent
  | RefusedEvent
  | RateLimitedEvent
  | UnavailableEvent
  | OverloadedEvent
  | RenderTimeoutEvent
  | RenderMemoryEvent
  | UpstreamFailedEvent
  | FallbackForwardEvent
  | ShadowResultEvent
  | ShadowDroppedEvent
  | ShadowProblemEvent
  | PagesNotCountedEvent
  | FailureEvent
  | SetupFaultEvent
  | KeySeedingEvent
  | StoreStateEvent
  | NoticeEvent
  | LibraryOutputEvent
  | PrinterJobEvent
  | PrinterRefusedEvent
  | PrinterForwardEvent;

export type ServiceEventType = ServiceEvent['type'];
export type EventListener = (event: ServiceEvent) => void;
export type Emit = (event: ServiceEvent) => void;

export interface EventSink {
  emit: Emit;
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void;
}

/** A synchronous fan-out. A throwing listener is a subscriber's bug: it never reaches the request. */
export function createEventSink(): EventSink {
  const listeners = new Set<EventListener>();
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // a broken log or metric must not fail a request
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
