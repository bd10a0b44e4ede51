// The legacy router's options as the host passes them, and resolveOptions(): every default in one place,
// so the steps below read a complete RouterConfig and never fill in a default of their own.

// Not the renderer's barrel: the main thread loads no drawing code when workers render.
import { DEFAULT_MAX_LABELS, type PdfMode } from '../../renderer/api.js';
import { leaseSharedRenderer, type RendererLease, type RenderFn } from '../../renderer/pool/index.js';
import { EXTRA_OUTPUTS, type ExtraOutput } from '../api-table/index.js';
import type { CorsOption } from '../http/cors.js';
import { createLogger, logEvents, logEventsAsText, type EventLogger } from '../events/log-events.js';
import { createEventSink, type Emit, type EventSink } from '../events/service-events.js';
import type { KeyStore } from '../stores/key-store.js';
import type { DivergenceEvent, ShadowOptions, UpstreamMode, UpstreamOptions } from '../upstream/options.js';
import { linkUpstream, type UpstreamLink } from '../upstream/upstream.js';
import { MemoryUsageStore } from '../stores/memory/usage-store.js';
import type { UsageStore } from '../stores/usage-store.js';

export { DEFAULT_MAX_LABELS };

/**
 * The renderer the router calls (the render pool's RenderFn). `hooks.admit` is where the router reserves the
 * document's pages; a renderer that never calls it is booked after. A document going to the legacy service is
 * counted with it too: its admission reserves the pages and throws, stopping the render before it draws (a
 * renderer that never calls admit draws it, and its totalCount is reserved). `hooks.started` ends the render's
 * time in a queue (metrics and access lines count queueing and rendering apart).
 */
export type RenderFunction = RenderFn;

export interface LegacyRouterOptions {
  /** Where API keys are looked up (see createMemoryStores / createRedisStores). */
  keyStore: KeyStore;
  /** Counters for the rate limits; default: in this process. */
  usageStore?: UsageStore;
  /** Largest accepted request body in bytes (default 1 MiB); more is a 413. */
  maxBodyBytes?: number;
  /** Most labels one document may produce (default 50); more is a 413. */
  maxLabels?: number;
  /** Most pixels one label may have (default: the renderer's). */
  maxPixels?: number;
  /** Requests per second shared by all keys of one organization (default 100; 0 turns it off). */
  organizationRequestsPerSecond?: number;
  /** Time budget for key and counter look-ups before answering 503 (default 75 ms). */
  storeTimeoutMs?: number;
  /**
   * Where the service's events go: the router emits into this sink and subscribes no logger of its own
   * unless `logger` or `log` is given (see createOpsRouter for metrics). Default: a sink of its own.
   */
  events?: EventSink;
  /** A pino (or pino-compatible) logger for the JSON lines: access, refusals, timeouts, outages, upstream. */
  logger?: EventLogger;
  /**
   * Older plain-function log: gets only the lines it always did (unexpected failures, store outages,
   * upstream errors as text; upstream_fallback and shadow lines as JSON), no access lines. Without
   * `log`, `logger` or `events` the router logs with pino to standard output at `info`.
   */
  log?: (message: string) => void;
  /** CORS for browser clients (default off): `true` for any origin, or `{ origins }`. */
  cors?: CorsOption;
  /** The renderer (default: this package's, in a worker pool shared by the process; see renderThreads). */
  render?: RenderFunction;
  /** Worker threads of the default renderer (default: one per core); 0 renders on the event loop, without a time budget. */
  renderThreads?: number;
  /** Time one render may take in the default renderer before it fails with a 500 (default 10 s). */
  renderTimeoutMs?: number;
  /** Working with the legacy service during a migration (default `off`); other modes need `upstream`. */
  mode?: UpstreamMode;
  /** The legacy service: base URL, the key we send it, its time budget. */
  upstream?: UpstreamOptions;
  /** Shadow mode: sampling, queue bounds, divergence threshold, where divergent images go. */
  shadow?: ShadowOptions;
  /** Shadow mode: called for every label the legacy service drew differently (also logged as JSON). */
  onDivergence?: (event: DivergenceEvent) => void;
  /**
   * Paths that are not legacy routes (anything not under `/printers/`) go to the host's next handler,
   * untouched and without a key check; for mounting at `/` or on a prefix the host shares (default false:
   * every path under the mount point is the legacy API's, unknown ones get its 404).
   */
  fallthrough?: boolean;
  /**
   * Request headers sent to the legacy service (proxy, fallback, shadow); replaces the default allowlist:
   * Accept, Content-Type, Content-Length and the legacy X-* headers. Our X-API-Key and X-Request-Id always go.
   */
  forwardHeaders?: string[];
  /** Id of a stored key (as `zpl-keys list` prints it) serving requests without X-API-Key, with its scope and limits (default none: 401). */
  anonymousKey?: string;
  /** Accept the API key as `?key=` too (default false); it is removed before any log line or upstream forward. */
  allowQueryKey?: boolean;
  /** Paths real clients send that the spec leaves open (default false): `/labels/4x6//` (empty index) is every label. */
  lenientPaths?: boolean;
  /** `POST /graphics`: an image in, ZPL with one ^GFA field out (default false; not part of the legacy API spec). */
  graphicsEndpoint?: boolean;
  /**
   * `POST /fonts`: a TrueType font in, the ZPL that stores it (`~DU`, `^CW`) out, subset on request, as the legacy
   * service offers it (default false: 404).
   */
  fontsEndpoint?: boolean;
  /** Clock (tests). */
  now?: () => Date;
  /** How PDF pages are drawn: `vector` paths and searchable text (default), or `raster`, each label one 1-bit image. */
  pdf?: PdfMode;
  /** X-Page-* and X-Label-Border: `validate` only (default, as the spec says) or `apply` (labels placed on sheets). */
  pageComposition?: 'validate' | 'apply';
  /**
   * The legacy service's other outputs (default none: each is a 406, as the spec says): `json` answers
   * `Accept: application/json` with the label data, `zpl` answers `Accept: application/zpl` with the document
   * (X-Formatter, X-Target-Dpmm), `ipl`, `epl`, `dpl`, `sbpl`, `pcl5` and `pcl6` answer `Accept: application/<name>`
   * with a print job in that printer language (and POST /graphics answers each type switched on). For scope all count
   * as PNG.
   */
  outputs?: readonly ExtraOutput[];
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND = 100;
export const DEFAULT_STORE_TIMEOUT_MS = 75;

/** The options with every default filled in, and the things they stand for built (event sink, renderer). */
export interface RouterConfig {
  keyStore: KeyStore;
  usageStore: UsageStore;
  maxBodyBytes: number;
  maxLabels: number;
  maxPixels: number | undefined;
  organizationRequestsPerSecond: number;
  storeTimeoutMs: number;
  now: () => Date;
  emit: Emit;
  cors: CorsOption | undefined;
  render: RenderFunction;
  /** The shared render pool this router holds (none when the host passed `render`): released on close(). */
  lease: RendererLease | undefined;
  /** The upstream mode and what it uses (forwarder, shadow queue), its defaults filled in (upstream/upstream.ts). */
  upstream: UpstreamLink;
  fallthrough: boolean;
  anonymousKey: string | undefined;
  allowQueryKey: boolean;
  lenientPaths: boolean;
  graphicsEndpoint: boolean;
  fontsEndpoint: boolean;
  pdf: PdfMode | undefined;
  pageComposition: 'validate' | 'apply';
  outputs: readonly ExtraOutput[];
}

let defaultLogger: EventLogger | undefined;

/** The sink the router emits into, with the log writer the options ask for subscribed. */
function eventSink(options: LegacyRouterOptions): EventSink {
  const events = options.events ?? createEventSink();
  if (options.logger) logEvents(events, options.logger);
  else if (options.log) logEventsAsText(events, options.log);
  else if (!options.events) logEvents(events, (defaultLogger ??= createLogger()));
  return events;
}

/** The outputs option checked once, at mount: an unknown name throws rather than being a 406 at every request. */
function extraOutputs(outputs: readonly string[] | undefined): readonly ExtraOutput[] {
  for (const o of outputs ?? []) {
    if (!(EXTRA_OUTPUTS as readonly string[]).includes(o))
      throw new Error(`Unknown output ${JSON.stringify(o)}: outputs are ${EXTRA_OUTPUTS.join(', ')}`);
  }
  return EXTRA_OUTPUTS.filter((o) => outputs?.includes(o));
}

export function resolveOptions(options: LegacyRouterOptions): RouterConfig {
  // The default renderer's workers start with the first render, not here; close() lets go of them.
  const { emit } = eventSink(options);
  const upstream = linkUpstream(options, emit); // checks the mode and URL first: a bad one throws before workers are leased
  const lease = options.render
    ? undefined
    : leaseSharedRenderer({ threads: options.renderThreads, timeoutMs: options.renderTimeoutMs });
  return {
    keyStore: options.keyStore,
    usageStore: options.usageStore ?? new MemoryUsageStore(),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxLabels: options.maxLabels ?? DEFAULT_MAX_LABELS,
    maxPixels: options.maxPixels,
    organizationRequestsPerSecond: options.organizationRequestsPerSecond ?? DEFAULT_ORGANIZATION_REQUESTS_PER_SECOND,
    storeTimeoutMs: options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS,
    now: options.now ?? (() => new Date()),
    emit,
    cors: options.cors,
    render: options.render ?? lease!.render,
    lease,
    upstream,
    fallthrough: options.fallthrough ?? false,
    anonymousKey: options.anonymousKey,
    allowQueryKey: options.allowQueryKey ?? false,
    lenientPaths: options.lenientPaths ?? false,
    graphicsEndpoint: options.graphicsEndpoint ?? false,
    fontsEndpoint: options.fontsEndpoint ?? false,
    pdf: options.pdf,
    pageComposition: options.pageComposition ?? 'validate',
    outputs: extraOutputs(options.outputs),
  };
}
