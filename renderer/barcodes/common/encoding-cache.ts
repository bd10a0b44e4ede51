// Barcode encodings kept by content: the same data with the same options (a reprint, a preview, a batch of labels
// sharing a symbol) skips the encoder. bwip-js stays the encoder of record; this only remembers its answers.
// Kept values are shared between fields, so callers treat them as read-only.

import { BoundedCache } from '../../bounded-cache.js';

/** A few hundred symbols: module grids and bar widths are a few KB each. */
export const ENCODING_CACHE_BYTES = 4 * 1024 * 1024;
const MAX_ENCODING_BYTES = 256 * 1024;

interface Kept {
  value: unknown;
  bytes: number;
}

const cache = new BoundedCache<Kept>(ENCODING_CACHE_BYTES, MAX_ENCODING_BYTES, (k) => k.bytes);

/**
 * `make()`'s value for this symbology and key (the data and every option that changes the symbol), made once while
 * it stays cached. A thrown error is not kept: the next call encodes again and throws the same.
 */
export function cachedEncoding<T>(symbology: string, key: string, make: () => T, bytes: (value: T) => number): T {
  const group = `${symbology}\u0000${key}`;
  const hit = cache.find(group, 0);
  if (hit) return hit.value as T;
  const value = make();
  cache.keep(group, 0, { value, bytes: bytes(value) + group.length * 2 });
  return value;
}

/** Drops every kept encoding (tests, memory pressure). */
export function clearEncodingCache(): void {
  cache.clear();
}
