// The ZPL document of a POST: the raw body byte for byte (never form-decoded: `+`, `%41` and `&` are ZPL),
// or the `file` field of a multipart/form-data body. The exact bytes received are kept too, so a request
// can be re-sent to the legacy service unchanged. A body a host's parser read before us is taken when its
// bytes survived (express.raw, express.text) and refused at once when they did not (json, urlencoded, multer).

import busboy from 'busboy';
import { PlainHttpError } from './http-errors.js';
import { header, mediaType, type LegacyRequest as Request } from './http.js';

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
  const zpl = mediaType(req) === 'multipart/form-data' ? await multipartFile(req, received) : received;
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
  const declared = Number(header(req, 'Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (declared > MAX_DRAIN_BYTES) return Promise.reject(tooLarge(maxBytes));
    return discardRest(req, 0).then(() => {
      throw tooLarge(maxBytes);
    });
  }
  // The stream has been read to its end already: waiting for 'end' would wait forever.
  if (req._body === true || req.readableEnded || (req.complete && !req.readable)) {
    try {
      return Promise.resolve(bodyReadBefore(req, maxBytes));
    } catch (err) {
      return Promise.reject(err);
    }
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
    req.once('end', () => {
      if (!overflowed) resolve(Buffer.concat(chunks));
    });
    // A client that goes away mid-upload is a client error, not a server failure.
    req.once('error', () => reject(new PlainHttpError(400, 'Request body was not completely received')));
    req.once('close', () => {
      if (!req.complete) reject(new PlainHttpError(400, 'Request body was not completely received'));
    });
  });
}

/** Node's names of the charsets a text parser may have decoded with, for turning the text back into bytes. */
const NODE_ENCODINGS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  'us-ascii': 'latin1',
  ascii: 'latin1',
};

/** The body bytes a parser before the router kept (`express.raw` as a Buffer, `express.text` as a string). */
function bodyReadBefore(req: Request, maxBytes: number): Buffer {
  const { body } = req;
  // A request without a body (a GET, say) lost nothing, whatever a parser left in req.body.
  if (header(req, 'Transfer-Encoding') === undefined && !(Number(header(req, 'Content-Length')) > 0))
    return Buffer.alloc(0);
  let bytes: Buffer | undefined;
  if (Buffer.isBuffer(body)) bytes = body;
  else if (typeof body === 'string') bytes = textBytes(req, body);
  if (bytes === undefined) throw new BodyAlreadyReadError(parserOf(req));
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/** The bytes of a body a text parser decoded, or undefined when decoding lost some (invalid UTF-8 and the like). */
function textBytes(req: Request, text: string): Buffer | undefined {
  const charset =
    /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header(req, 'Content-Type') ?? '')?.[1]?.toLowerCase() ?? 'utf-8';
  const encoding = NODE_ENCODINGS[charset];
  if (encoding === undefined) return undefined;
  const bytes = Buffer.from(text, encoding);
  const declared = Number(header(req, 'Content-Length'));
  // A replaced byte changes the length; a compressed body (Content-Encoding) was declared at its compressed length.
  const intact =
    header(req, 'Content-Encoding') !== undefined || !Number.isFinite(declared) || declared === bytes.length;
  return intact ? bytes : undefined;
}

/** Which kind of parser most likely read a body whose bytes are gone, for the error text. */
function parserOf(req: Request): string {
  const type = mediaType(req);
  if (typeof req.body === 'string') return 'a text parser (express.text()) that could not decode every byte';
  if (type === 'application/x-www-form-urlencoded') return 'a form parser (express.urlencoded()) that decoded it';
  if (type.endsWith('json')) return 'a JSON parser (express.json()) that decoded it';
  if (type === 'multipart/form-data') return 'a multipart parser (multer or similar) that consumed it';
  return 'another middleware that consumed it';
}

/** The host read the body before the router and its bytes are lost: a set-up fault, answered 500 at once. */
export class BodyAlreadyReadError extends PlainHttpError {
  constructor(parser: string) {
    super(
      500,
      `The request body was already read by ${parser} before the legacy router, so the ZPL bytes ` +
        `('+', '%41', '&' ...) are lost. Mount the legacy router before any body parser, or exclude its path ` +
        `from the parser (express.raw() and express.text() keep the bytes).`,
    );
    this.name = 'BodyAlreadyReadError';
  }
}

/** The `file` field of a multipart body already read in full. */
async function multipartFile(req: Request, body: Buffer): Promise<Uint8Array> {
  const file = (await multipartParts(req, body)).find((part) => part.name === 'file');
  if (file === undefined) throw new PlainHttpError(400, "Multipart request has no 'file' field");
  return file.value;
}

/** One part of a multipart form: a file's bytes, or a plain field's text as UTF-8. */
export interface FormPart {
  name: string;
  value: Buffer;
  /** It came as a file (with a filename), not as a plain field. */
  file: boolean;
}

/**
 * The parts of a multipart/form-data body (at most `maxBytes`, 413 beyond), in the order they came; the first part
 * of a name is the one that counts. Undefined for any other type of body (read all the same).
 */
export async function readMultipartForm(req: Request, maxBytes: number): Promise<FormPart[] | undefined> {
  const received = await readRequestBody(req, maxBytes);
  return mediaType(req) === 'multipart/form-data' ? multipartParts(req, received) : undefined;
}

/** The parts of a multipart body already read in full. */
function multipartParts(req: Request, body: Buffer): Promise<FormPart[]> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: body.length } }); // no field is cut short
    } catch {
      reject(new PlainHttpError(400, 'Malformed multipart/form-data request'));
      return;
    }
    const parts: FormPart[] = [];
    // A file's place is taken when it starts, so parts keep the order they came in, whenever their bytes end.
    parser.on('file', (name, stream) => {
      const part: FormPart = { name, value: Buffer.alloc(0), file: true };
      parts.push(part);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        part.value = Buffer.concat(chunks);
      });
    });
    // `curl -F file='^XA...'` sends the document as a plain field.
    parser.on('field', (name, value) => {
      parts.push({ name, value: Buffer.from(value, 'utf8'), file: false });
    });
    parser.on('error', () => reject(new PlainHttpError(400, 'Malformed multipart/form-data request')));
    parser.on('close', () => resolve(parts));
    parser.end(body);
  });
}
