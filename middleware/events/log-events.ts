// Logging as a subscriber of the event sink: pino JSON lines (one access line per request, plus refusals,
// timeouts, store outages, upstream and shadow trouble), or the old `log(message)` function's lines.

import { pino, type Level, type LevelWithSilent } from 'pino';
import type { EventSink, RequestDoneEvent, ServiceEvent } from './service-events.js';

/** What the service needs of a logger: pino, or anything with pino's (object, message) methods. */
export interface EventLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  /** pino's: whether lines of `level` are written (assumed when absent). */
  isLevelEnabled?(level: string): boolean;
}

export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface LoggerOptions {
  /** pino level (default `info`). */
  level?: LevelWithSilent;
  /** Where lines go (default: standard output). */
  destination?: { write(line: string): void };
}

/** The service's pino logger: JSON lines, ISO times, the level as a word. */
export function createLogger(options: LoggerOptions = {}): EventLogger & { level: string } {
  return pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    // Written synchronously: a line is out before the process can exit (SIGTERM, a fatal error).
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** Events that repeat in bursts (503s during an outage, dropped shadow samples): one line per interval. */
const REPEAT_REPORT_INTERVAL_MS = 10_000;

/** Adds `count` to the tally; returns the tally when a line is due (and starts a new one), else undefined. */
function tally(): (count: number) => number | undefined {
  let reportedAt = -Infinity;
  let total = 0;
  return (count) => {
    total += count;
    if (Date.now() - reportedAt < REPEAT_REPORT_INTERVAL_MS) return undefined;
    const due = total;
    reportedAt = Date.now();
    total = 0;
    return due;
  };
}

interface Tallies {
  outage: (message: string) => string | undefined;
  dropped: (count: number) => number | undefined;
}

function tallies(): Tallies {
  const refused = tally();
  return {
    outage: (message) => {
      const n = refused(1);
      return n === undefined
        ? undefined
        : `${message} (${n} request${n === 1 ? '' : 's'} answered 503 since the last report)`;
    },
    dropped: tally(),
  };
}

interface LogLine {
  level: Level;
  message: string;
  fields: Record<string, unknown>;
}

/** The pino line of an event (undefined: none). Field `event` names the line; it is what log searches use. */
function logLine(event: ServiceEvent, { outage, dropped }: Tallies): LogLine | undefined {
  switch (event.type) {
    case 'request_done': {
      // One line per request: the fields copied in one pass, in the event's order (no rest object, no spread).
      const fields: Record<string, unknown> = { event: 'request' };
      for (const name in event) {
        if (name !== 'type' && name !== 'operational' && name !== 'completed')
          fields[name] = event[name as keyof RequestDoneEvent];
      }
      if (!event.completed) fields.completed = false;
      return {
        level: event.operational ? 'debug' : 'info',
        message: event.completed
          ? 'request completed'
          : event.endedBy === 'shutdown'
            ? 'request cut off at shutdown'
            : 'request aborted by the client',
        fields,
      };
    }
    case 'render':
      return { level: 'debug', message: 'rendered', fields: { event: 'render', ...omitType(event) } };
    case 'printer_job':
      return {
        level: event.error === undefined ? 'info' : 'warn',
        message: event.error === undefined ? 'print job drawn' : `print job not drawn: ${event.error}`,
        fields: { event: 'printer_job', ...omitType(event) },
      };
    case 'printer_refused':
      return {
        level: 'warn',
        message: `printer connection refused: ${event.reason}`,
        fields: { event: 'printer_refused', ...omitType(event) },
      };
    case 'printer_forward':
      return {
        level: event.status === 'sent' ? 'info' : 'warn',
        message: `print job ${event.target === 'printer' ? 'forward' : 'webhook'} ${event.status}`,
        fields: { event: 'printer_forward', ...omitType(event) },
      };
    case 'refused':
      return {
        level: 'info',
        message: `request refused: ${event.error}`,
        fields: { event: 'refused', ...omitType(event) },
      };
    case 'rate_limited':
      return {
        level: 'info',
        message: `request refused: rate limit ${event.limitType} (${event.limitScope})`,
        fields: {
          event: 'rate_limited',
          requestId: event.requestId,
          keyId: event.keyId,
          limit_type: event.limitType,
          limit_scope: event.limitScope,
          limit: event.limit,
        },
      };
    case 'unavailable': {
      const message = outage(event.message);
      return message === undefined
        ? undefined
        : {
            level: 'warn',
            message,
            fields: { event: 'store_unavailable', requestId: event.requestId, cause: event.cause },
          };
    }
    case 'overloaded':
      return { level: 'warn', message: event.message, fields: { event: 'overloaded', ...omitType(event) } };
    case 'render_memory':
      return { level: 'warn', message: event.message, fields: { event: 'render_memory', ...omitType(event) } };
    case 'render_timeout':
      return { level: 'warn', message: event.message, fields: { event: 'render_timeout', ...omitType(event) } };
    case 'upstream_failed':
      return {
        level: 'warn',
        message: `upstream renderer ${event.reason}`,
        fields: { event: 'upstream_failed', ...omitType(event) },
      };
    case 'fallback_forward':
      return {
        level: 'info',
        message: 'forwarded to the legacy service',
        fields: {
          event: 'upstream_fallback',
          requestId: event.requestId,
          ...(event.keyId !== undefined && { keyId: event.keyId }),
          reason: event.reason,
        },
      };
    case 'shadow_result':
      if (event.outcome === 'diverged') {
        return {
          level: 'warn',
          message: 'shadow comparison diverged',
          fields: { event: 'shadow_divergence', ...event.divergence },
        };
      }
      if (event.outcome === 'upstream_error') {
        return {
          level: 'warn',
          message: 'shadow comparison failed',
          fields: { event: 'shadow_failed', requestId: event.requestId, reason: event.reason },
        };
      }
      return {
        level: 'debug',
        message: 'shadow comparison matched',
        fields: { event: 'shadow_match', requestId: event.requestId, score: event.score },
      };
    case 'shadow_dropped': {
      const n = dropped(event.dropped);
      return n === undefined
        ? undefined
        : {
            level: 'warn',
            message: 'shadow samples dropped',
            fields: { event: 'shadow_dropped', dropped: n, reason: 'queue full' },
          };
    }
    case 'shadow_problem': {
      const { type: _, problem, ...fields } = event;
      return { level: 'warn', message: problem.replace(/_/g, ' '), fields: { event: problem, ...fields } };
    }
    case 'pages_not_counted':
      return {
        level: 'warn',
        message: `pages not counted: ${event.message}`,
        fields: { event: 'pages_not_counted', requestId: event.requestId },
      };
    case 'failure':
      return {
        level: 'error',
        message: 'unexpected failure',
        fields: { event: 'unexpected_failure', requestId: event.requestId, detail: event.detail },
      };
    case 'setup_fault':
      return {
        level: 'error',
        message: event.message,
        fields: { event: 'setup_fault', requestId: event.requestId, status: event.status },
      };
    case 'key_seeding': {
      const { type: _, message, ...fields } = event;
      return {
        level:
          event.outcome === 'seeded' || event.outcome === 'seeded_again'
            ? 'info'
            : event.outcome === 'lost'
              ? 'warn'
              : 'error',
        message,
        fields: { event: 'key_seeding', ...fields },
      };
    }
    case 'store_state':
      return {
        level: event.ready ? 'info' : 'warn',
        message: event.message,
        fields: { event: 'store_state', ready: event.ready },
      };
    case 'notice':
      return { level: event.level, message: event.message, fields: {} };
    case 'library_output':
      // At the level its console method says: node-redis reports failures with console.log, but the store lines
      // (store_state, store_unavailable) already say so at warn.
      return {
        level: event.method === 'log' ? 'info' : event.method,
        message: event.message,
        fields: { event: 'library_output', method: event.method },
      };
  }
}

function omitType<T extends { type: string }>(event: T): Omit<T, 'type'> {
  const { type: _, ...rest } = event;
  return rest;
}

/** Writes every event worth a line to `logger`; returns the unsubscribe function. */
export function logEvents(events: EventSink, logger: EventLogger): () => void {
  const counts = tallies();
  // pino says which levels it writes; a line it would drop (the debug render line, say) is not capped for it.
  const writes = (level: Level): boolean => logger.isLevelEnabled?.(level) ?? true;
  return events.subscribe((event) => {
    const line = logLine(event, counts);
    if (!line) return;
    const level = line.level === 'fatal' ? 'error' : line.level === 'trace' ? 'debug' : line.level;
    if (writes(level)) logger[level](cappedFields(line.fields), line.message);
  });
}

/** Longest text a log field (or an old-style text line) carries: what a client sends can reach a line, its size cannot. */
export const MAX_LOG_TEXT = 4096;

function capped(text: string): string {
  return text.length <= MAX_LOG_TEXT
    ? text
    : `${text.slice(0, MAX_LOG_TEXT)}... (${text.length - MAX_LOG_TEXT} more characters)`;
}

function cappedFields(fields: Record<string, unknown>): object {
  if (!hasLongText(fields)) return fields; // nearly every line: no copy
  const out: Record<string, unknown> = {};
  for (const name in fields) {
    const value = fields[name];
    out[name] = typeof value === 'string' ? capped(value) : value;
  }
  return out;
}

function hasLongText(fields: Record<string, unknown>): boolean {
  for (const name in fields) {
    const value = fields[name];
    if (typeof value === 'string' && value.length > MAX_LOG_TEXT) return true;
  }
  return false;
}

/**
 * The router's older `log` option: the lines it always received, in their old form (plain text for
 * failures, outages and upstream errors; one JSON object for upstream_fallback and the shadow lines).
 * Access lines, refusals and renders are not sent to it: they go to `logger`.
 */
export function logEventsAsText(events: EventSink, log: (message: string) => void): () => void {
  const counts = tallies();
  return events.subscribe((event) => {
    const text = legacyText(event, counts);
    if (text !== undefined) log(capped(text));
  });
}

function legacyText(event: ServiceEvent, { outage, dropped }: Tallies): string | undefined {
  switch (event.type) {
    case 'unavailable': {
      const message = outage(event.message);
      return message === undefined ? undefined : `[${event.requestId}] ${message}`;
    }
    case 'render_timeout':
      return `[${event.requestId}] ${event.message}`;
    case 'overloaded':
      return `[${event.requestId}] render overloaded (key ${event.keyId ?? '-'}): ${event.message}`;
    case 'render_memory':
      return `[${event.requestId}] render memory (key ${event.keyId ?? '-'}): ${event.message}`;
    case 'failure':
      return `[${event.requestId}] unexpected failure: ${event.detail}`;
    case 'setup_fault':
      return `[${event.requestId}] ${event.message}`;
    case 'pages_not_counted':
      return `[${event.requestId}] pages not counted: ${event.message}`;
    case 'upstream_failed':
      return `[${event.requestId}] upstream renderer ${event.reason}`;
    case 'fallback_forward':
      return JSON.stringify({
        event: 'upstream_fallback',
        requestId: event.requestId,
        ...(event.keyId !== undefined && { key: event.keyId }),
        reason: event.reason,
      });
    case 'shadow_result':
      if (event.outcome === 'diverged') return JSON.stringify({ event: 'shadow_divergence', ...event.divergence });
      if (event.outcome === 'upstream_error')
        return JSON.stringify({ event: 'shadow_failed', requestId: event.requestId, reason: event.reason });
      return undefined;
    case 'shadow_dropped': {
      const n = dropped(event.dropped);
      return n === undefined
        ? undefined
        : JSON.stringify({ event: 'shadow_dropped', dropped: n, reason: 'queue full' });
    }
    case 'shadow_problem': {
      const { type: _, problem, ...fields } = event;
      return JSON.stringify({ event: problem, ...fields });
    }
    case 'key_seeding':
    case 'store_state':
    case 'notice':
    case 'library_output':
      return event.message;
    default:
      return undefined;
  }
}
