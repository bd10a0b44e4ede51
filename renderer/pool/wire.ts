// What crosses the thread boundary: plain, structured-clonable records (class instances and Error
// subclasses lose their identity in postMessage, so errors travel as data and are rebuilt here).

import type { RenderPlan, RenderRequest, RenderResult } from '../api.js';
import type { FieldBoxes, LayoutOptions } from '../layout/inspect.js';
import { RenderError, type RenderErrorCode } from '../errors.js';

/** The request as plain data: signal and tenant stay on the calling thread. */
export type WireRequest = Omit<RenderRequest, 'signal' | 'tenant'>;

export interface RenderTask {
  kind: 'render';
  zpl: Uint8Array | string;
  req: WireRequest;
  /** Milliseconds of rendering (from the worker taking the task) before it stops with a `timeout` error. */
  budgetMs: number;
  /** Milliseconds each page after the first adds to the budget, once the page count is known. */
  pageBudgetMs: number;
  /** The caller admits the plan between interpreting and drawing (the worker asks with an AdmitAsk and waits). */
  admits: boolean;
}

/** One label's field boxes (the preview page's layout), under the same cancellation and time budget as a render. */
export interface FieldBoxesTask {
  kind: 'fieldBoxes';
  zpl: Uint8Array | string;
  req: LayoutOptions;
  budgetMs: number;
}

export type PoolTask = RenderTask | FieldBoxesTask;

export { PAGES_WITH_OWN_BUDGET, renderBudgetMs } from '../api.js';

/**
 * Each worker's control word, shared with the calling thread (its workerData): slot CONTROL_STOP turns
 * STOP.cancelled when the caller of the task running gave up, and the render stops at its next checkpoint
 * instead of having its worker terminated. The caller sets it back to STOP.none with each task it posts.
 */
export const CONTROL_STOP = 0;
/** Values of the control slot. */
export const STOP = { none: 0, cancelled: 1 } as const;

/** What a worker is started with. */
export interface WorkerData {
  control: SharedArrayBuffer;
}

/** Caller -> worker: a task (one at a time per worker), or the answer to the task's AdmitAsk. */
export type ToWorker = { type: 'task'; task: PoolTask } | { type: 'admitted'; admitted: boolean };

/** Worker -> caller: it has loaded and takes tasks; the running task asks admission of its plan, or is done. */
export type FromWorker = { type: 'ready' } | AdmitAsk | { type: 'reply'; reply: RenderReply | FieldBoxesReply };
export interface AdmitAsk {
  type: 'admit';
  plan: RenderPlan;
}

/** A failure as data: a RenderError keeps its code; anything else keeps name, message and stack for the log. */
export type WireError =
  | { kind: 'render'; code: RenderErrorCode; message: string }
  | { kind: 'other'; name: string; message: string; stack?: string };

export type RenderReply =
  | { ok: true; result: Omit<RenderResult, 'body'> & { body: ArrayBuffer } }
  | { ok: false; error: WireError };

export type FieldBoxesReply = { ok: true; boxes: FieldBoxes } | { ok: false; error: WireError };

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

/**
 * The body as an ArrayBuffer of exactly its bytes: posting a view would copy its whole buffer (a small Buffer is
 * a slice of Node's 8 KB pool slab, an encoder's output may be a view of a bigger reused buffer).
 */
export function ownBuffer(body: Uint8Array): ArrayBuffer {
  const buf = body.buffer;
  if (buf instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === buf.byteLength) return buf;
  // (Not body.slice(): on a Buffer that is a view of the same memory.)
  return new Uint8Array(body).buffer;
}
