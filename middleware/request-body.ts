// The ZPL document of a POST: the raw body byte for byte (never form-decoded: `+`, `%41` and `&` are ZPL),
// or the `file` field of a multipart/form-data body. The exact bytes received are kept too, so a request
// can be re-sent to the legacy service unchanged.

import busboy from 'busboy';
import type { Request } from 'express';
import { PlainHttpError } from './http-errors.js';

function tooLarge(maxBytes: number): PlainHttpError {
  return new PlainHttpError(413, `Request body is larger than the limit of ${maxBytes} bytes`);
}

export interface ZplBody {
  /** The ZPL document. */
  zpl: Uint8Array;
  /** The request body exactly as received (the whole multipart message for multipart requests). */
  received: Buffer;
}

export async function readZplBody(req: Request, maxBytes: number): Promise<ZplBody> {
  const received = await readRequestBody(req, maxBytes);
  const zpl = req.is('multipart/form-data') ? await multipartFile(req, received) : received;
  return { zpl, received };
}

/**
 * Past the limit, the rest of an upload is still read (and dropped) up to this many bytes in all, for this long,
 * so that the client, still sending, gets the 413 instead of a reset connection. Beyond that the 413 is sent
 * at once and the connection closed.
 */
export const MAX_DRAIN_BYTES = 8 * 1024 * 1024;
export const MAX_DRAIN_MS = 5000;

/** Reads and drops the rest of the body; resolves when it has ended, or once `MAX_DRAIN_*` is reached. */
function discardRest(req: Request, alreadyRead: number): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let size = alreadyRead;
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_DRAIN_BYTES) done();
    };
    const timer = setTimeout(done, MAX_DRAIN_MS);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/** The whole body as received, at most `maxBytes` (413 beyond, by declared length or by counting, once drained). */
export function readRequestBody(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (declared > MAX_DRAIN_BYTES) return Promise.reject(tooLarge(maxBytes));
    return discardRest(req, 0).then(() => { throw tooLarge(maxBytes); });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflowed = false;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        overflowed = true;
        req.off('data', onData);
        void discardRest(req, size).then(() => reject(tooLarge(maxBytes)));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => { if (!overflowed) resolve(Buffer.concat(chunks)); });
    // A client that goes away mid-upload is a client error, not a server failure.
    req.once('error', () => reject(new PlainHttpError(400, 'Request body was not completely received')));
    req.once('close', () => { if (!req.complete) reject(new PlainHttpError(400, 'Request body was not completely received')); });
  });
}

/** The `file` field of a multipart body already read in full. */
function multipartFile(req: Request, body: Buffer): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: body.length } }); // no field is cut short
    } catch {
      reject(new PlainHttpError(400, 'Malformed multipart/form-data request'));
      return;
    }
    let document: Buffer | undefined;

    parser.on('file', (name, stream) => {
      if (name !== 'file' || document !== undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        document = Buffer.concat(chunks);
      });
    });
    // `curl -F file='^XA...'` sends the document as a plain field.
    parser.on('field', (name, value) => {
      if (name !== 'file' || document !== undefined) return;
      document = Buffer.from(value, 'utf8');
    });
    parser.on('error', () => reject(new PlainHttpError(400, 'Malformed multipart/form-data request')));
    parser.on('close', () => {
      if (document === undefined) reject(new PlainHttpError(400, "Multipart request has no 'file' field"));
      else resolve(document);
    });
    parser.end(body);
  });
}
