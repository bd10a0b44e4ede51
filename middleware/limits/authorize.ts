// Authentication and authorization, before any body is read or rendered: X-API-Key, expiry, scope.
// Off by default, for clients that cannot send the header: the key in `?key=`, or one stored key for requests without any.
// A blank X-API-Key is a key that is wrong, not a request without one: it is never served as the anonymous key.

import type { OutputFormat } from '../../renderer/index.js';
import { StoreUnavailableError, withDeadline } from '../stores/deadline.js';
import type { Emit } from '../events/service-events.js';
import { sendJsonError, type JsonErrorBody } from '../http/http-errors.js';
import { header, type LegacyRequest, type LegacyResponse, type NextFunction } from '../http/http.js';
import { isExpired, type StoredKey } from '../keys/key-record.js';
import type { KeyStore } from '../stores/key-store.js';
import type { ExtraOutput } from '../api-table/index.js';
import { apiHeader, scopeFormat } from '../http/request-headers.js';
import { keyLabel, requestState } from '../http/request-state.js';

export interface AuthorizeOptions {
  keyStore: KeyStore;
  storeTimeoutMs: number;
  now: () => Date;
  emit: Emit;
  /** Id of a stored key (as `zpl-keys list` prints it) that serves requests carrying no key. */
  anonymousKey?: string;
  /**
   * Accept the key as `?key=` too. Either way `?key=` is removed from the request URL at once (no forward, shadow copy,
   * log line or metric sees it); without this option a request carrying one is refused, saying how to allow it.
   */
  allowQueryKey?: boolean;
  /** Keys of every scope pass (routes that render nothing, e.g. the shadow report); default: the Accept format decides. */
  anyScope?: boolean;
  /** The extra outputs switched on: an Accept naming one of them first is that output, which counts as PNG. */
  outputs?: readonly ExtraOutput[];
}

function scopeAllows(key: StoredKey, format: OutputFormat): boolean {
  return key.scope === 'all' || key.scope === format;
}

const QUERY_KEY = /^key=/;
/** How often an anonymous key id that matched no key is looked up again. */
const ANONYMOUS_RECHECK_MS = 1000;

/** A `?key=` the router does not take: the standalone server's switches, and the router option, named. */
export const QUERY_KEY_REFUSAL =
  'API keys in the query string (?key=) are not accepted here: send the key in the X-API-Key header, ' +
  'or turn them on with ALLOW_QUERY_KEY=1 or LEGACY_CLIENTS=1 (router option allowQueryKey).';
export const BLANK_KEY_REFUSAL = 'Empty X-API-Key header: send the key in it, or leave the header out.';

/**
 * Takes `key=...` out of the query of `req.url` and `req.originalUrl` (so no forward, shadow copy or log
 * line sees it) and returns its decoded value, or undefined when there is none.
 */
function takeQueryKey(req: LegacyRequest): string | undefined {
  const found = splitQueryKey(req.url ?? '/');
  if (found.key === undefined) return undefined;
  req.url = found.url;
  req.originalUrl = splitQueryKey(req.originalUrl).url;
  return found.key;
}

function splitQueryKey(url: string): { url: string; key?: string } {
  const q = url.indexOf('?');
  if (q < 0) return { url };
  const parts = url.slice(q + 1).split('&');
  const keyPart = parts.find((p) => QUERY_KEY.test(p));
  if (keyPart === undefined) return { url };
  const rest = parts.filter((p) => !QUERY_KEY.test(p));
  let key: string;
  try {
    key = decodeURIComponent(keyPart.slice(4).replace(/\+/g, ' '));
  } catch {
    key = keyPart.slice(4);
  }
  return { url: url.slice(0, q) + (rest.length > 0 ? `?${rest.join('&')}` : ''), key };
}

export function authorize({
  keyStore,
  storeTimeoutMs,
  now,
  emit,
  anonymousKey,
  allowQueryKey,
  anyScope,
  outputs,
}: AuthorizeOptions) {
  const refuse = (res: LegacyResponse, status: number, body: JsonErrorBody, keyId?: string): void => {
    emit({
      type: 'refused',
      requestId: requestState(res).requestId,
      status,
      error: body.error,
      ...(keyId !== undefined && { keyId }),
    });
    sendJsonError(res, status, body);
  };
  // The anonymous key's hash, once its id has been resolved (ids never change; the record is re-read per request).
  let anonymousHash: string | undefined;
  // While it names no key, it is looked for at most once a second (zpl-keys may add it later), not once per request.
  let missedAt = -Infinity;
  const findAnonymous = async (): Promise<StoredKey | undefined> => {
    if (anonymousHash === undefined && performance.now() - missedAt < ANONYMOUS_RECHECK_MS) return undefined;
    const key = await withDeadline(() => keyStore.get(anonymousHash ?? anonymousKey!), storeTimeoutMs, 'key store');
    if (key) anonymousHash = key.hash;
    else if (anonymousHash === undefined) missedAt = performance.now();
    return key;
  };

  return async (req: LegacyRequest, res: LegacyResponse, next: NextFunction): Promise<void> => {
    const queryKey = takeQueryKey(req);
    if (queryKey !== undefined && !allowQueryKey) {
      refuse(res, 401, { error: 'invalid_key', message: QUERY_KEY_REFUSAL });
      return;
    }
    const sent = header(req, 'X-API-Key');
    if (sent !== undefined && sent.trim() === '') {
      refuse(res, 401, { error: 'invalid_key', message: BLANK_KEY_REFUSAL });
      return;
    }
    const plainKey = sent !== undefined ? sent.trim() : queryKey?.trim() || undefined;
    if (plainKey === undefined && anonymousKey === undefined) {
      refuse(res, 401, { error: 'invalid_key', message: 'Missing API key: send it in the X-API-Key header.' });
      return;
    }
    if (!keyStore.isReady()) throw new StoreUnavailableError('key store is not ready', { store: 'key store' });
    const anonymous = plainKey === undefined;
    const key = anonymous
      ? await findAnonymous()
      : await withDeadline(() => keyStore.find(plainKey), storeTimeoutMs, 'key store');
    if (!key || key.revoked) {
      refuse(
        res,
        401,
        { error: 'invalid_key', message: anonymous ? 'The anonymous API key is not available.' : 'Invalid API key.' },
        anonymous ? 'anonymous' : undefined,
      );
      return;
    }
    if (isExpired(key, now())) {
      refuse(
        res,
        401,
        { error: 'key_expired', message: `API key expired at ${key.expiresAt}.` },
        keyLabel(key, anonymous),
      );
      return;
    }
    const format = scopeFormat(apiHeader(req, 'Accept'), outputs);
    if (!anyScope && !scopeAllows(key, format)) {
      refuse(
        res,
        403,
        {
          error: 'scope_denied',
          message: `API key scope '${key.scope}' does not allow ${format.toUpperCase()} output.`,
          required: format,
          actual: key.scope,
        },
        keyLabel(key, anonymous),
      );
      return;
    }
    const state = requestState(res);
    state.key = key;
    state.anonymous = anonymous;
    next();
  };
}
