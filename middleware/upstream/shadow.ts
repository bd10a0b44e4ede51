// Shadow traffic: after we have answered, a sample of PNG requests is re-sent to the legacy service in the
// background and the two labels are compared. Nothing here can delay or fail the client's response: work
// is queued (bounded; full means dropped), runs on later turns, and every failure is only logged.

import type { IncomingHttpHeaders } from 'node:http';
import { RESPONSE_HEADERS } from '../api-table/index.js';
import type { Emit } from '../events/service-events.js';
import {
  DEFAULT_SHADOW_CONCURRENCY,
  DEFAULT_SHADOW_MIN_SCORE,
  DEFAULT_SHADOW_QUEUE_SIZE,
  DEFAULT_SHADOW_SAMPLE_RATE,
  type DivergenceEvent,
  type ShadowOptions,
  type ShadowOutcome,
} from './options.js';
import { upstreamHeaders, type HeaderAllowlist } from './outgoing-headers.js';
import { createPngComparer, type ComparePngs, type PngComparer } from './png-comparer.js';
import { FileShadowStore } from '../stores/shadow-file-store.js';
import { caseEndpoint, type ShadowCaseStore } from '../stores/shadow-store.js';
import { BoundedWorkQueue } from './work-queue.js';

/** One request we answered with a PNG, as the legacy service should see it. */
export interface ShadowSample {
  requestId: string;
  method: string;
  /** Path below the upstream base, built from the validated parameters (labelUpstreamPath). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The request body exactly as received (empty for GET). */
  body: Buffer;
  index: number;
  local: { png: Uint8Array; labels: number };
  /** Who may see the comparison (shadowOwner of the request's key). */
  owner?: string;
}

export interface ShadowSettings {
  upstream: { url: string; apiKey?: string; timeoutMs: number; maxBodyBytes: number };
  forwardHeaders: HeaderAllowlist;
  shadow: ShadowOptions;
  onDivergence?: (event: DivergenceEvent) => void;
  emit: Emit;
  compare?: ComparePngs;
}

export class ShadowTraffic {
  readonly #settings: ShadowSettings;
  readonly #sampleRate: number;
  readonly #minScore: number;
  readonly #random: () => number;
  readonly #queue: BoundedWorkQueue;
  readonly #compare: ComparePngs;
  readonly #store: ShadowCaseStore | undefined;
  /** The comparer this instance started (none when one was given). */
  readonly #ownComparer: PngComparer | undefined;
  /** Set by close(): no new samples, and the requests in flight are aborted. */
  readonly #stopping = new AbortController();
  /** One controller per request in flight (its deadline and the body cap abort it too). */
  readonly #inFlight = new Set<AbortController>();

  constructor(settings: ShadowSettings) {
    const { shadow } = settings;
    this.#settings = settings;
    this.#sampleRate = shadow.sampleRate ?? DEFAULT_SHADOW_SAMPLE_RATE;
    this.#minScore = shadow.minScore ?? DEFAULT_SHADOW_MIN_SCORE;
    this.#random = shadow.random ?? Math.random;
    this.#queue = new BoundedWorkQueue(
      shadow.concurrency ?? DEFAULT_SHADOW_CONCURRENCY,
      shadow.queueSize ?? DEFAULT_SHADOW_QUEUE_SIZE,
    );
    this.#ownComparer = settings.compare ? undefined : createPngComparer();
    this.#compare = settings.compare ?? this.#ownComparer!;
    this.#store =
      shadow.store ??
      (shadow.storeDir === undefined
        ? undefined
        : new FileShadowStore(shadow.storeDir, {
            ...(shadow.maxCases !== undefined && { maxCases: shadow.maxCases }),
            ...(shadow.maxBytes !== undefined && { maxBytes: shadow.maxBytes }),
          }));
  }

  /** Takes the sample into the queue when it is drawn and there is room; never waits. */
  offer(sample: ShadowSample): boolean {
    if (this.#stopping.signal.aborted || !(this.#random() < this.#sampleRate)) return false;
    if (this.#queue.submit(() => this.#run(sample))) return true;
    this.#settings.emit({ type: 'shadow_dropped', dropped: 1 });
    return false;
  }

  /** Resolves once every queued comparison has finished. */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  /** Drops waiting samples, aborts the ones in flight and stops the comparison worker. Idempotent. */
  async close(): Promise<void> {
    this.#stopping.abort();
    for (const call of this.#inFlight) call.abort();
    this.#queue.clear();
    await this.#queue.idle();
    await this.#ownComparer?.close();
  }

  async #run(sample: ShadowSample): Promise<void> {
    const { upstream } = this.#settings;
    let status: number;
    let upstreamLabels: number | null;
    let png: Uint8Array;
    // One controller and a kept timer: the deadline holds for headers and body, whatever the GC collects
    // (a timeout signal combined with AbortSignal.any was seen never to fire after a collection).
    const call = new AbortController();
    let failure: string | undefined;
    const stop = (why: string): void => {
      failure ??= why;
      call.abort();
    };
    const deadline = setTimeout(() => stop(`did not answer within ${upstream.timeoutMs} ms`), upstream.timeoutMs);
    this.#inFlight.add(call);
    try {
      const answer = await fetch(upstream.url.replace(/\/+$/, '') + sample.path, {
        method: sample.method,
        headers: upstreamHeaders(sample.headers, this.#settings.forwardHeaders, upstream.apiKey, sample.requestId),
        ...(sample.body.length > 0 && { body: Uint8Array.from(sample.body) }),
        redirect: 'manual',
        signal: call.signal,
      });
      status = answer.status;
      const count = Number(answer.headers.get(RESPONSE_HEADERS.totalCount.name) ?? NaN);
      upstreamLabels = Number.isInteger(count) ? count : null;
      png = await readCapped(answer, upstream.maxBodyBytes, stop);
    } catch (err) {
      if (this.#stopping.signal.aborted) return; // closed: nothing to report
      this.#failed(sample, failure ?? `is unavailable (${describe(err)})`);
      return;
    } finally {
      clearTimeout(deadline);
      this.#inFlight.delete(call);
    }
    // The legacy service refusing our upstream key, limiting us or failing says nothing about rendering.
    if (isUpstreamError(status)) {
      this.#failed(sample, `answered ${status}`);
      return;
    }

    let score = 0;
    if (status === 200) {
      try {
        score = await this.#compare(png, sample.local.png);
      } catch (err) {
        this.#failed(sample, `sent a label that could not be compared (${describe(err)})`);
        return;
      }
    }
    const labels = { local: sample.local.labels, upstream: upstreamLabels };
    const divergent =
      status !== 200 || score < this.#minScore || (labels.upstream !== null && labels.upstream !== labels.local);
    if (!divergent) {
      this.#settings.emit({ type: 'shadow_result', requestId: sample.requestId, outcome: 'matched', score });
      this.#settled(sample, { requestId: sample.requestId, outcome: 'same', score });
      return;
    }
    const event: DivergenceEvent = {
      requestId: sample.requestId,
      index: sample.index,
      labels,
      score,
      bytes: { local: sample.local.png.byteLength, upstream: png.byteLength },
      upstreamStatus: status,
    };
    const files = await this.#save(sample, png, event);
    if (files) event.files = files;
    this.#settings.emit({ type: 'shadow_result', requestId: sample.requestId, outcome: 'diverged', divergence: event });
    this.#callHook('onDivergence', () => this.#settings.onDivergence?.(event));
    this.#settled(sample, { requestId: sample.requestId, outcome: 'divergent', event });
  }

  /** Both images and the case record in `storeDir`, named by time and request id. */
  async #save(
    sample: ShadowSample,
    upstreamPng: Uint8Array,
    event: DivergenceEvent,
  ): Promise<DivergenceEvent['files']> {
    if (!this.#store) return undefined;
    const now = new Date();
    const id = `${now.getTime()}-${sample.requestId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    try {
      const record = {
        ...event,
        id,
        owner: ownerOf(sample),
        time: now.toISOString(),
        endpoint: caseEndpoint(sample.method, sample.path),
      };
      return await this.#store.saveCase(record, sample.local.png, upstreamPng);
    } catch (err) {
      this.#settings.emit({
        type: 'shadow_problem',
        problem: 'shadow_store_failed',
        requestId: sample.requestId,
        reason: describe(err),
      });
      return undefined;
    }
  }

  #failed(sample: ShadowSample, why: string): void {
    const reason = `upstream renderer ${why}`;
    this.#settings.emit({ type: 'shadow_result', requestId: sample.requestId, outcome: 'upstream_error', reason });
    this.#settled(sample, { requestId: sample.requestId, outcome: 'failed', reason });
  }

  #settled(sample: ShadowSample, outcome: ShadowOutcome): void {
    this.#store?.tally(ownerOf(sample), outcome).catch((err: unknown) => {
      this.#settings.emit({
        type: 'shadow_problem',
        problem: 'shadow_store_failed',
        requestId: outcome.requestId,
        reason: describe(err),
      });
    });
    this.#callHook('onSettled', () => this.#settings.shadow.onSettled?.(outcome));
  }

  /** A throwing hook is the caller's bug; it is logged and shadowing goes on. */
  #callHook(name: string, call: () => void): void {
    try {
      call();
    } catch (err) {
      this.#settings.emit({ type: 'shadow_problem', problem: 'shadow_hook_failed', hook: name, reason: describe(err) });
    }
  }
}

/** Answers that are the legacy service's own trouble (auth, limits, time-outs, failures), never a divergence. */
const UPSTREAM_ERROR_STATUSES: ReadonlySet<number> = new Set([401, 403, 407, 408, 429]);

function isUpstreamError(status: number): boolean {
  return status >= 500 || UPSTREAM_ERROR_STATUSES.has(status);
}

/** A sample without an owner (a host calling offer itself) is seen by no key. */
function ownerOf(sample: ShadowSample): string {
  return sample.owner ?? 'nobody';
}

/** The answer's body, at most `maxBytes`: a longer one (declared or counted) is stopped and throws. */
async function readCapped(answer: Response, maxBytes: number, stop: (why: string) => void): Promise<Uint8Array> {
  const over = (bytes: number): Error => {
    stop(`sent a body of ${bytes} bytes or more, over the limit of ${maxBytes}`);
    return new Error('body over the limit');
  };
  const declared = Number(answer.headers.get('Content-Length') ?? NaN);
  if (declared > maxBytes) throw over(declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (answer.body) {
    for await (const chunk of answer.body) {
      size += chunk.byteLength;
      if (size > maxBytes) throw over(size);
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string } } | null)?.cause;
  return cause?.code ?? (err instanceof Error ? err.message : String(err));
}
