// Authentication and authorization, before any body is read or rendered: X-API-Key, expiry, scope.

import type { OutputFormat } from '../renderer/index.js';
import { StoreUnavailableError, withDeadline } from './deadline.js';
import type { Emit } from './events/service-events.js';
import { sendJsonError, type JsonErrorBody } from './http-errors.js';
import { header, locals, type LegacyRequest, type LegacyResponse, type NextFunction } from './http.js';
import { isExpired, type StoredKey } from './keys/key-record.js';
import type { KeyStore } from './keys/key-store.js';
import { scopeFormat } from './request-headers.js';

export interface AuthorizeOptions {
  keyStore: KeyStore;
  storeTimeoutMs: number;
  now: () => Date;
  emit: Emit;
}

/** The key a request was authorized with (set by `authorize`). */
export function requestKey(res: LegacyResponse): StoredKey {
  return locals(res).apiKey as StoredKey;
}

function scopeAllows(key: StoredKey, format: OutputFormat): boolean {
  return key.scope === 'all' || key.scope === format;
}

export function authorize({ keyStore, storeTimeoutMs, now, emit }: AuthorizeOptions) {
  const refuse = (res: LegacyResponse, status: number, body: JsonErrorBody, key?: StoredKey): void => {
    emit({ type: 'refused', requestId: String(locals(res).requestId), status, error: body.error, ...(key && { keyId: key.id }) });
    sendJsonError(res, status, body);
  };
  return async (req: LegacyRequest, res: LegacyResponse, next: NextFunction): Promise<void> => {
    const plainKey = header(req, 'X-API-Key');
    if (plainKey === undefined || plainKey.trim() === '') {
      refuse(res, 401, { error: 'invalid_key', message: 'Missing API key: send it in the X-API-Key header.' });
      return;
    }
    if (!keyStore.isReady()) throw new StoreUnavailableError('key store is not ready', { store: 'key store' });
    const key = await withDeadline(keyStore.find(plainKey.trim()), storeTimeoutMs, 'key store');
    if (!key || key.revoked) {
      refuse(res, 401, { error: 'invalid_key', message: 'Invalid API key.' });
      return;
    }
    if (isExpired(key, now())) {
      refuse(res, 401, { error: 'key_expired', message: `API key expired at ${key.expiresAt}.` }, key);
      return;
    }
    const format = scopeFormat(header(req, 'Accept'));
    if (!scopeAllows(key, format)) {
      refuse(res, 403, {
        error: 'scope_denied',
        message: `API key scope '${key.scope}' does not allow ${format.toUpperCase()} output.`,
        required: format,
        actual: key.scope,
      }, key);
      return;
    }
    locals(res).apiKey = key;
    next();
  };
}
