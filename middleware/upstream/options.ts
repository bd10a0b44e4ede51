// How the router works with the legacy service during a migration: the modes and their settings.

import type { ShadowCaseStore, ShadowOutcome } from '../stores/shadow-store.js';

// What a comparison came to is the shadow store's vocabulary; re-exported here, where the options name it.
export type { DivergenceEvent, ShadowOutcome } from '../stores/shadow-store.js';

/**
 * - `off`: render everything here.
 * - `fallback`: render here; forward what this renderer cannot draw (or compose) to the legacy service.
 * - `shadow`: render here and answer; re-send a sample to the legacy service in the background and compare.
 * - `proxy`: forward everything (authenticated and limited here).
 */
export type UpstreamMode = 'off' | 'fallback' | 'shadow' | 'proxy';

export const UPSTREAM_MODES: readonly UpstreamMode[] = ['off', 'fallback', 'shadow', 'proxy'];

export function isUpstreamMode(value: string): value is UpstreamMode {
  return (UPSTREAM_MODES as readonly string[]).includes(value);
}

export interface UpstreamOptions {
  /** Base URL of the legacy service: the part before `/printers/...`. */
  url: string;
  /** Key sent upstream in X-API-Key; the client's key is never forwarded. Without it none is sent. */
  apiKey?: string;
  /** How long one whole answer (headers and body) may take before the request counts as failed (default 10 s). */
  timeoutMs?: number;
  /** Largest answer body read from the legacy service (default 8 MiB); past it the connection is cut. */
  maxBodyBytes?: number;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
/** Legacy labels are well under 1 MB; an all-labels PDF of 50 labels stays under this. */
export const DEFAULT_UPSTREAM_MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface ShadowOptions {
  /** Share of successful PNG requests re-sent upstream, 0..1 (default 0.1). */
  sampleRate?: number;
  /** Comparisons running at once (default 1). */
  concurrency?: number;
  /** Comparisons waiting to run; more are dropped, never awaited (default 100). */
  queueSize?: number;
  /** Ink F1 below which two labels count as divergent (default 0.99). */
  minScore?: number;
  /** When set, both PNGs of every divergent case are written here (one machine; see `store` for a fleet). */
  storeDir?: string;
  /** Where cases and the summary go instead of `storeDir`, e.g. a RedisShadowStore shared by every replica. */
  store?: ShadowCaseStore;
  /** `storeDir`: divergent cases kept per organization, oldest dropped first (default 1000). */
  maxCases?: number;
  /** `storeDir`: image bytes kept per organization, oldest cases dropped first (default 64 MiB). */
  maxBytes?: number;
  /** Called after every shadow request, divergent or not (metrics, tests). */
  onSettled?: (outcome: ShadowOutcome) => void;
  /** Random numbers in [0, 1) for sampling (tests). */
  random?: () => number;
}

export const DEFAULT_SHADOW_SAMPLE_RATE = 0.1;
export const DEFAULT_SHADOW_CONCURRENCY = 1;
export const DEFAULT_SHADOW_QUEUE_SIZE = 100;
export const DEFAULT_SHADOW_MIN_SCORE = 0.99;
