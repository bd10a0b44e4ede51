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

/** The whole body as received, at most `maxBytes` (413 beyond, by declared length or by counting). */
export function readRequestBody(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.resume(); // drain the rest so the client sees our 413, not a reset
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
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
