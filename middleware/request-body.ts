// The ZPL document of a POST: the raw body byte for byte (never form-decoded: `+`, `%41` and `&` are ZPL),
// or the `file` field of a multipart/form-data body.

import busboy from 'busboy';
import type { Request } from 'express';
import { PlainHttpError } from './http-errors.js';

function tooLarge(maxBytes: number): PlainHttpError {
  return new PlainHttpError(413, `Request body is larger than the limit of ${maxBytes} bytes`);
}

export async function readZplBody(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  return req.is('multipart/form-data') ? readMultipartFile(req, maxBytes) : readRaw(req, maxBytes);
}

function readRaw(req: Request, maxBytes: number): Promise<Uint8Array> {
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
    req.once('error', reject);
  });
}

function readMultipartFile(req: Request, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: maxBytes, fieldSize: maxBytes } });
    } catch {
      reject(new PlainHttpError(400, 'Malformed multipart/form-data request'));
      return;
    }
    let document: Buffer | undefined;
    let failure: PlainHttpError | undefined;
    const fail = (err: PlainHttpError): void => {
      failure ??= err;
    };

    parser.on('file', (name, stream) => {
      if (name !== 'file' || document !== undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('end', () => {
        document = Buffer.concat(chunks);
      });
    });
    // `curl -F file='^XA...'` sends the document as a plain field.
    parser.on('field', (name, value, info) => {
      if (name !== 'file' || document !== undefined) return;
      if (info.valueTruncated) fail(tooLarge(maxBytes));
      document = Buffer.from(value, 'utf8');
    });
    parser.on('error', () => reject(new PlainHttpError(400, 'Malformed multipart/form-data request')));
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (document === undefined) reject(new PlainHttpError(400, "Multipart request has no 'file' field"));
      else resolve(document);
    });
    req.on('error', reject);
    req.pipe(parser);
  });
}
