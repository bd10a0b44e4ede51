// What crosses the thread boundary: plain, structured-clonable records (class instances and Error
// subclasses lose their identity in postMessage, so errors travel as data and are rebuilt here).

import type { RenderRequest, RenderResult } from '../api.js';
import { RenderError, type RenderErrorCode } from '../errors.js';

export interface RenderTask {
  zpl: Uint8Array | string;
  req: RenderRequest;
}

/** A failure as data: a RenderError keeps its code; anything else keeps name, message and stack for the log. */
export type WireError =
  | { kind: 'render'; code: RenderErrorCode; message: string }
  | { kind: 'other'; name: string; message: string; stack?: string };

export type RenderReply =
  | { ok: true; result: Omit<RenderResult, 'body'> & { body: ArrayBuffer } }
  | { ok: false; error: WireError };

export function errorToWire(err: unknown): WireError {
  if (err instanceof RenderError) return { kind: 'render', code: err.code, message: err.message };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'other', name: e.name, message: e.message, ...(e.stack !== undefined && { stack: e.stack }) };
}

export function errorFromWire(w: WireError): Error {
  if (w.kind === 'render') return new RenderError(w.code, w.message);
  const e = new Error(w.message);
  e.name = w.name;
  if (w.stack !== undefined) e.stack = w.stack;
  return e;
}

/** The body as an ArrayBuffer of exactly its bytes, so it can be transferred instead of copied. */
export function ownBuffer(body: Uint8Array): ArrayBuffer {
  const buf = body.buffer;
  // Small Buffers share Node's 8 KB pool slab: never transfer (detach) memory that holds other data.
  if (buf instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === buf.byteLength) return buf;
  // (Not body.slice(): on a Buffer that is a view of the same memory.)
  return new Uint8Array(body).buffer;
}
