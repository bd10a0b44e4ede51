// Metrics as a subscriber of the event sink, in a prom-client registry of their own (never the global
// default, so two instances in one process do not collide). Gauges of the key store and the render pool are
// read when scraped.

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventSink, ServiceEvent } from '../events/service-events.js';
import type { RenderPoolStats } from './pool-stats.js';

export interface ServiceMetricsOptions {
  /** Where the metrics are registered (default: a new registry). */
  registry?: Registry;
  /** Node.js process metrics (`process_*`, `nodejs_*`) in the registry (default: only in a registry made here). */
  defaultMetrics?: boolean;
  keyStoreReady: () => boolean;
  poolStats: () => RenderPoolStats;
}

export interface ServiceMetrics {
  registry: Registry;
  /** Counts one event; subscribe it to a sink (or call `subscribe`). */
  observe(event: ServiceEvent): void;
  subscribe(events: EventSink): () => void;
}

const RENDER_SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REQUEST_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The `command` label of a fallback forward, from a closed set whatever the client sends: the command's
 * family (`^B*`, `~D*`: sigil and first letter), `page-composition`, or `other`.
 */
export function commandFamily(feature: string): string {
  if (feature === 'page-composition') return feature;
  const match = /^([\^~])([A-Za-z])/.exec(feature);
  return match ? `${match[1]}${match[2]!.toUpperCase()}*` : 'other';
}

export function createServiceMetrics(options: ServiceMetricsOptions): ServiceMetrics {
  const registry = options.registry ?? new Registry();
  if (options.defaultMetrics ?? options.registry === undefined) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequests = new Counter({
    name: 'zpl_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const httpSeconds = new Histogram({
    name: 'zpl_http_request_duration_seconds',
    help: 'Time from request to the end of the answer, by route template and method.',
    labelNames: ['route', 'method'] as const,
    buckets: REQUEST_SECONDS_BUCKETS,
    registers,
  });
  const renderSeconds = new Histogram({
    name: 'zpl_render_duration_seconds',
    help: 'Time one render took here, from a worker thread taking it (queueing not included), by density and format.',
    labelNames: ['dpmm', 'format'] as const,
    buckets: RENDER_SECONDS_BUCKETS,
    registers,
  });
  const renderQueueSeconds = new Histogram({
    name: 'zpl_render_queue_seconds',
    help: 'Time a render waited for a worker thread before rendering, by density and format.',
    labelNames: ['dpmm', 'format'] as const,
    buckets: RENDER_SECONDS_BUCKETS,
    registers,
  });
  const documentLabels = new Counter({
    name: 'zpl_labels_total',
    help: 'Labels the rendered documents produce (X-Total-Count, ^PQ copies included), by format.',
    labelNames: ['format'] as const,
    registers,
  });
  const pagesRendered = new Counter({
    name: 'zpl_pages_rendered_total',
    help: 'Label pages drawn into answers (what pagesPerDay counts), by format.',
    labelNames: ['format'] as const,
    registers,
  });
  const refused = new Counter({
    name: 'zpl_refused_total',
    help: 'Requests refused by a key check (401, 403), by status and error code.',
    labelNames: ['status', 'error'] as const,
    registers,
  });
  const printerJobs = new Counter({
    name: 'zpl_printer_jobs_total',
    help: 'Jobs the printer port received, by outcome (printed, failed).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const printerLabels = new Counter({
    name: 'zpl_printer_labels_total',
    help: 'Labels the printer port drew (^PQ copies included).',
    registers,
  });
  const printerBytes = new Counter({
    name: 'zpl_printer_bytes_total',
    help: 'Bytes of the jobs the printer port received.',
    registers,
  });
  const printerRefusals = new Counter({
    name: 'zpl_printer_refusals_total',
    help: 'Printer-port connections or jobs refused, by reason.',
    labelNames: ['reason'] as const,
    registers,
  });
  const printerForwards = new Counter({
    name: 'zpl_printer_forwards_total',
    help: 'Jobs passed on to the real printer or the webhook, by target and status (sent, retrying, failed).',
    labelNames: ['target', 'status'] as const,
    registers,
  });
  const rateLimited = new Counter({
    name: 'zpl_rate_limited_total',
    help: '429 answers, by limit type and scope.',
    labelNames: ['limit_type', 'limit_scope'] as const,
    registers,
  });
  const unavailable = new Counter({
    name: 'zpl_unavailable_total',
    help: '503 answers, by cause (key_store, usage_store, overloaded).',
    labelNames: ['cause'] as const,
    registers,
  });
  const renderTimeouts = new Counter({
    name: 'zpl_render_timeouts_total',
    help: 'Renders stopped past their time budget (answered 500).',
    registers,
  });
  const upstreamFailures = new Counter({
    name: 'zpl_upstream_failures_total',
    help: 'Requests forwarded to the legacy service that could not be answered by it (502).',
    registers,
  });
  const shadowComparisons = new Counter({
    name: 'zpl_shadow_comparisons_total',
    help: 'Shadow comparisons, by result: matched, diverged, upstream_error.',
    labelNames: ['result'] as const,
    registers,
  });
  const shadowDropped = new Counter({
    name: 'zpl_shadow_dropped_total',
    help: 'Shadow samples dropped because the comparison queue was full.',
    registers,
  });
  const fallbackForwards = new Counter({
    name: 'zpl_fallback_forwards_total',
    help: 'Fallback forwards to the legacy service, by family of unsupported command (^B*, ~D*...; page-composition for composed PDFs; other).',
    labelNames: ['command'] as const,
    registers,
  });
  new Gauge({
    name: 'zpl_key_store_ready',
    help: '1 while the key store is ready, else 0.',
    registers,
    collect() {
      this.set(options.keyStoreReady() ? 1 : 0);
    },
  });
  // One stats() call per scrape feeds the pool gauges: the first one collected reads it, the rest reuse it.
  let scrapeStats: RenderPoolStats | undefined;
  const stats = (first: boolean): RenderPoolStats => {
    if (first || scrapeStats === undefined) scrapeStats = options.poolStats();
    return scrapeStats;
  };
  new Gauge({
    name: 'zpl_render_pool_workers',
    help: 'Worker threads of the render pool.',
    registers,
    collect() {
      this.set(stats(true).threads);
    },
  });
  new Gauge({
    name: 'zpl_render_pool_busy_workers',
    help: 'Workers rendering now.',
    registers,
    collect() {
      this.set(stats(false).busy);
    },
  });
  new Gauge({
    name: 'zpl_render_pool_queue_depth',
    help: 'Renders waiting for a worker.',
    registers,
    collect() {
      this.set(stats(false).queued);
    },
  });
  new Gauge({
    name: 'zpl_render_pool_recycled_workers',
    help: 'Workers replaced so far (stopped past their time budget, or crashed).',
    registers,
    collect() {
      this.set(stats(false).recycled);
    },
  });

  // Known label values start at 0, so dashboards and alerts see the series before the first event.
  for (const [limit_type, limit_scope] of [
    ['requests_per_sec', 'key'],
    ['requests_per_sec', 'organization'],
    ['pages_per_day', 'key'],
  ]) {
    rateLimited.inc({ limit_type: limit_type!, limit_scope: limit_scope! }, 0);
  }
  for (const cause of ['key_store', 'usage_store', 'overloaded']) unavailable.inc({ cause }, 0);
  for (const result of ['matched', 'diverged', 'upstream_error']) shadowComparisons.inc({ result }, 0);

  const observe = (event: ServiceEvent): void => {
    switch (event.type) {
      case 'request_done':
        httpRequests.inc({ route: event.route, method: event.method, status: String(event.status) });
        httpSeconds.observe({ route: event.route, method: event.method }, event.durationMs / 1000);
        break;
      case 'render':
        renderSeconds.observe({ dpmm: String(event.dpmm), format: event.format }, event.durationMs / 1000);
        renderQueueSeconds.observe({ dpmm: String(event.dpmm), format: event.format }, event.queuedMs / 1000);
        documentLabels.inc({ format: event.format }, event.labels);
        pagesRendered.inc({ format: event.format }, event.pages);
        break;
      case 'refused':
        refused.inc({ status: String(event.status), error: event.error });
        break;
      case 'rate_limited':
        rateLimited.inc({ limit_type: event.limitType, limit_scope: event.limitScope });
        break;
      case 'unavailable':
        unavailable.inc({ cause: event.cause });
        break;
      case 'overloaded':
        unavailable.inc({ cause: 'overloaded' });
        break;
      case 'render_timeout':
        renderTimeouts.inc();
        break;
      case 'upstream_failed':
        upstreamFailures.inc();
        break;
      case 'shadow_result':
        shadowComparisons.inc({ result: event.outcome });
        break;
      case 'shadow_dropped':
        shadowDropped.inc(event.dropped);
        break;
      case 'printer_job':
        printerJobs.inc({ outcome: event.error === undefined ? 'printed' : 'failed' });
        printerLabels.inc(event.labels);
        printerBytes.inc(event.bytes);
        break;
      case 'printer_refused':
        printerRefusals.inc({ reason: event.reason });
        break;
      case 'printer_forward':
        printerForwards.inc({ target: event.target, status: event.status });
        break;
      case 'fallback_forward':
        for (const command of new Set(event.commands.map(commandFamily))) fallbackForwards.inc({ command });
        break;
      default:
        break;
    }
  };
  return { registry, observe, subscribe: (events) => events.subscribe(observe) };
}
