// What every store backend opens (memory, Redis single node, Cluster or Sentinel, PostgreSQL): the key store, the
// usage counters, the shadow store and the seed marker under one namespace, and whether the backend answers.

import { StoreUnavailableError } from './deadline.js';
import type { KeyStore } from './key-store.js';
import type { UsageStore } from './usage-store.js';
import type { ShadowCaseStore, ShadowRetention } from './shadow-store.js';
import type { PrinterFeed, PrinterFeedLimits } from './printer-feed.js';

/** The two stores the router needs. */
export interface Stores {
  keyStore: KeyStore;
  usageStore: UsageStore;
  /**
   * Resolves once every store can answer: the backend's first connection and the key store's first check of it (its
   * seed marker), bounded by readyTimeoutMs; at once in memory. A request sent then is not refused as not ready.
   */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** A backend's stores, as the standalone server, zpl-keys and a host app open them. */
export interface OpenedStores extends Stores {
  /**
   * The shadow store on this backend, with these caps and retention; its names come from the namespace. Absent
   * where the backend keeps nothing beyond the process (memory: shadow cases go to SHADOW_DIR, if anywhere).
   */
  openShadowStore?(caps?: ShadowRetention): ShadowCaseStore;
  /**
   * The printer port's job feed on this backend, with these limits (DEFAULT_PRINTER_FEED_LIMITS for the rest): in
   * this process on memory, shared by every replica on Redis and PostgreSQL. Closing the stores closes it.
   */
  openPrinterFeed(limits?: Partial<PrinterFeedLimits>, clock?: () => number): PrinterFeed;
  /** The printer feed with DEFAULT_PRINTER_FEED_LIMITS (connects nothing until subscribed); closed with the stores. */
  printerFeed: PrinterFeed;
  /** Whether the backend answers now; goes back to true by itself when a lost backend returns (keyStore.isReady adds the seeding). */
  isReady(): boolean;
  /** Resolves the first time the backend answers and the key store has checked it, however late; it never rejects. */
  connected: Promise<void>;
  /** Where the backend is, for log lines and errors, credentials redacted. */
  description: string;
}

/** `connected` (the backend's first answer), then the key store's first check of it: when every store can answer. */
export function storesAnswer(connected: Promise<void>, keyStore: KeyStore): Promise<void> {
  return connected.then(() => keyStore.checked?.());
}

/**
 * `answered`, or a StoreUnavailableError saying `failure()` once `ms` have passed (the backend goes on trying either
 * way). Each call waits anew: a backend that comes up after one wait gave up is used by the next. Awaiting it is
 * optional: it never makes an unhandled rejection, and its timer never keeps the process alive.
 */
export function answeredWithin(answered: Promise<void>, ms: number, failure: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(failure())), ms);
    timer.unref();
  });
  const settled = Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
  settled.catch(() => {});
  return settled;
}
