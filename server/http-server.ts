// The standalone server's HTTP layer: deliberate time limits for slow clients, and an `ERROR: ` text for every
// request Node's parser turns away (timeouts 408, missing Host 400, over-long headers 431) instead of a bare status.

import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface HttpTimeouts {
  /** The request line and headers must have arrived within this long (HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this long (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Node checks connections against the timeouts every 30 s by default: far too coarse for a 10 s limit. */
const MAX_CHECK_INTERVAL_MS = 1000;

function rawAnswer(socket: Duplex, status: string, message: string): void {
  const body = `ERROR: ${message}\n`;
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function timeoutMessage({ headersTimeoutMs, requestTimeoutMs }: HttpTimeouts): string {
  return `Request timed out: headers must arrive within ${headersTimeoutMs} ms and the whole request within ${requestTimeoutMs} ms`;
}

/** An HTTP/1.1 request without Host: answered here, with the service's error shape, instead of by Node. */
function answerMissingHost(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.httpVersion !== '1.1' || req.headers.host !== undefined) return false;
  const body = 'ERROR: Request has no Host header\n';
  res.writeHead(400, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': randomUUID(),
    Connection: 'close',
  });
  res.end(body);
  return true;
}

export function createHttpServer(app: RequestListener, timeouts: HttpTimeouts): http.Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, Math.ceil(timeouts.headersTimeoutMs / 4)),
      requireHostHeader: false, // checked below, so the answer carries an ERROR: text
    },
    (req, res) => {
      if (!answerMissingHost(req, res)) app(req, res);
    },
  );
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A bad request pipelined behind good ones is answered after their answers, never in front of (and instead of) them.
    afterPendingAnswers(socket, () => {
      const inProgress = (socket as HttpSocket)._httpMessage;
      if (!socket.writable || inProgress?.headersSent) {
        socket.destroy();
        return;
      }
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') rawAnswer(socket, '408 Request Timeout', timeoutMessage(timeouts));
      else if (err.code === 'HPE_HEADER_OVERFLOW') {
        rawAnswer(
          socket,
          '431 Request Header Fields Too Large',
          'Request URL or headers are too long; send long labels with POST',
        );
      } else rawAnswer(socket, '400 Bad Request', 'Bad request');
    });
  });
  return server;
}

type HttpSocket = Duplex & { _httpMessage?: ServerResponse | null };

/**
 * Runs `then` once the socket has no answer in progress to a request received whole: Node hands a connection's queued
 * (pipelined) answers to the socket one after another as each finishes (`_httpMessage`), so this waits through all of
 * them. An answer whose request is still arriving is the failed request's own (a dribbled body): no waiting for it.
 */
function afterPendingAnswers(socket: HttpSocket, then: () => void): void {
  const current = socket._httpMessage;
  if (!current || current.writableFinished || socket.destroyed || !current.req.complete) {
    then();
    return;
  }
  let done = false;
  const next = (): void => {
    if (done) return;
    done = true;
    setImmediate(() => afterPendingAnswers(socket, then)); // after Node has assigned the next queued answer
  };
  current.once('finish', next);
  current.once('close', next);
}
