// What the legacy router knows about one request as it moves through the middlewares: its id, the key it was
// authorized with, and what it rendered (for the access line). Typed, set by the step that learns it.

import type { ServerResponse } from 'node:http';
import type { PlainHttpError } from './http-errors.js';
import type { StoredKey } from '../keys/key-record.js';

/** What a handler rendered or forwarded, for the access line. */
export interface RenderedSummary {
  labels?: number;
  pages?: number;
  /** Rendering, from a thread taking the render (queueing not included). */
  renderMs?: number;
  /** Waiting for a render thread. */
  queuedMs?: number;
}

export interface RequestState {
  /** X-Request-Id: the caller's sane id, or one we made (`requestId` middleware). */
  requestId: string;
  /** The key the request was authorized with (`authorize`). */
  key?: StoredKey;
  /** The anonymous key served it (no key sent). */
  anonymous: boolean;
  rendered?: RenderedSummary;
  /** The path was refused by its normalisation (normalise-path.ts); answered once the key is known, before any limit. */
  pathRefusal?: PlainHttpError;
  /** The host ended the request: `shutdown` when it was still running at the end of the shutdown budget. */
  endedBy?: 'shutdown';
}

const STATE = Symbol('zplRequestState');
type WithState = ServerResponse & { [STATE]?: RequestState };

/** The request's state, created empty on first use. */
export function requestState(res: ServerResponse): RequestState {
  return ((res as WithState)[STATE] ??= { requestId: '', anonymous: false });
}

/** The key a request was authorized with (set by `authorize`). */
export function requestKey(res: ServerResponse): StoredKey {
  const { key } = requestState(res);
  if (!key) throw new Error('requestKey() before authorize');
  return key;
}

/** How logs name the request's key: its id, or `anonymous` when the anonymous key served it. Never the key itself. */
export function requestKeyLabel(res: ServerResponse): string {
  return keyLabel(requestKey(res), requestState(res).anonymous);
}

/** How logs and metrics name a key: its id, or `anonymous` for the anonymous key. Never the key itself. */
export function keyLabel(key: StoredKey, anonymous: boolean): string {
  return anonymous ? 'anonymous' : key.id;
}
