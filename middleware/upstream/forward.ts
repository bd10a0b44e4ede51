// Forwarding one request to the legacy service with http-proxy-middleware: same method, a path the caller
// built (never the raw request target), an allowlist of headers and the body bytes (our body parser already
// read the stream, so the bytes we kept are written again), the client's X-API-Key replaced by ours; the
// answer streams back unchanged, marked `X-Renderer: upstream`.

import { Agent as HttpAgent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Socket } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { API_KEY_HEADER, RENDERER_HEADER, REQUEST_ID_HEADER, setResponseHeaders } from '../api-table/index.js';
import type { Emit } from '../events/service-events.js';
import { sendPlainError } from '../http/http-errors.js';
import type { LegacyRequest as Request, LegacyResponse as Response } from '../http/http.js';
import { requestState } from '../http/request-state.js';
import type { UpstreamOptions } from './options.js';
import { keepsHeader, type HeaderAllowlist } from './outgoing-headers.js';

export { RENDERER_HEADER };

export interface Forwarding {
  /** Path (and query) below the upstream base URL: built from validated parameters, or checked by proxiedPath. */
  path: string;
  /** The request body exactly as received (empty for GET). */
  body: Buffer;
  /** The Accept to send instead of the client's: the type the key's scope was checked for. */
  accept?: string;
  /** Called with the legacy service's status and headers before they are sent on. */
  onAnswer?: (status: number, headers: IncomingHttpHeaders) => void;
}

/** Forwards the request and resolves once the client's response is finished or closed. */
export type Forward = (req: Request, res: Response, forwarding: Forwarding) => Promise<void>;

export interface Forwarder {
  forward: Forward;
  /** Closes the kept-alive connections to the legacy service. */
  close(): void;
}

interface InFlight extends Forwarding {
  timedOut: boolean;
  /** The request to the legacy service, once it has a socket (the deadline and the body cap destroy it). */
  proxyReq?: ClientRequest;
  /** The failure was answered (or the answer cut off) already. */
  failed: boolean;
  /** Headers of the legacy service's answer, which http-proxy copies onto ours (taken off again for a 502). */
  upstreamHeaders?: string[];
}

/** The forwarding forward() started for a request: read by the proxy's callbacks, which see only req and res. */
const IN_FLIGHT = Symbol('upstreamForwarding');
type UpstreamBound = Request & { [IN_FLIGHT]?: InFlight };

type ForwarderSettings = Required<Pick<UpstreamOptions, 'url' | 'timeoutMs' | 'maxBodyBytes'>> & UpstreamOptions;

export function createForwarder(upstream: ForwarderSettings, forwardHeaders: HeaderAllowlist, emit: Emit): Forwarder {
  const inFlight = (req: Request): InFlight => (req as UpstreamBound)[IN_FLIGHT]!;
  // Reused connections: a TLS handshake to the legacy service per request would cost more than the render.
  const agent = /^https:/i.test(upstream.url)
    ? new HttpsAgent({ keepAlive: true })
    : new HttpAgent({ keepAlive: true });

  /** Answers 502 (or cuts off an answer already started) once per request, and stops the upstream request. */
  const fail = (forwarding: InFlight, res: Response, reason: string): void => {
    forwarding.proxyReq?.destroy();
    if (forwarding.failed) return;
    forwarding.failed = true;
    emit({ type: 'upstream_failed', requestId: requestState(res).requestId, reason });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name of forwarding.upstreamHeaders ?? []) res.removeHeader(name); // their Transfer-Encoding is not our 502's
    setResponseHeaders(res, { 'X-Renderer': 'upstream' });
    sendPlainError(res, 502, `Upstream renderer ${reason}`);
  };
  const overCap = (bytes: number): string =>
    `sent a body of ${bytes} bytes or more, over the limit of ${upstream.maxBodyBytes}`;

  const proxy = createProxyMiddleware<Request, Response>({
    target: upstream.url,
    changeOrigin: true,
    agent,
    proxyTimeout: upstream.timeoutMs,
    // pathRewrite sees only the request (no Express req.res in other hosts): the path forward() put on it.
    pathRewrite: (_path: string, req: Request) => inFlight(req).path,
    on: {
      proxyReq: (proxyReq: ClientRequest, req: Request, res: Response) => {
        const forwarding = inFlight(req);
        forwarding.proxyReq = proxyReq;
        if (forwarding.failed) {
          proxyReq.destroy();
          return;
        }
        proxyReq.once('timeout', () => {
          forwarding.timedOut = true;
        });
        for (const name of proxyReq.getHeaderNames()) {
          if (!keepsHeader(forwardHeaders, name)) proxyReq.removeHeader(name);
        }
        if (forwarding.accept !== undefined && proxyReq.hasHeader('Accept'))
          proxyReq.setHeader('Accept', forwarding.accept);
        if (upstream.apiKey !== undefined) proxyReq.setHeader(API_KEY_HEADER, upstream.apiKey);
        proxyReq.setHeader(REQUEST_ID_HEADER.name, requestState(res).requestId);
        if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
          proxyReq.removeHeader('Transfer-Encoding');
          proxyReq.setHeader('Content-Length', forwarding.body.length);
        }
        // The incoming stream has ended; http-proxy ends proxyReq right after this.
        if (forwarding.body.length > 0) proxyReq.write(forwarding.body);
      },
      proxyRes: (proxyRes: IncomingMessage, req: Request, res: Response) => {
        const forwarding = inFlight(req);
        forwarding.upstreamHeaders = Object.keys(proxyRes.headers);
        // A declared length over the cap is refused before anything is sent on (http-proxy then pipes nothing).
        const declared = Number(proxyRes.headers['content-length']);
        if (declared > upstream.maxBodyBytes) {
          fail(forwarding, res, overCap(declared));
          return;
        }
        let received = 0;
        proxyRes.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > upstream.maxBodyBytes) fail(forwarding, res, overCap(received));
        });
        setResponseHeaders(res, { 'X-Renderer': 'upstream' });
        forwarding.onAnswer?.(proxyRes.statusCode ?? 502, proxyRes.headers);
      },
      error: (err: Error & { code?: string }, req: Request, res: Response | Socket) => {
        if (res instanceof Socket) return; // no WebSockets here
        const forwarding = inFlight(req);
        fail(
          forwarding,
          res,
          forwarding.timedOut
            ? `did not answer within ${upstream.timeoutMs} ms`
            : `is unavailable (${err.code ?? err.message})`,
        );
      },
    },
  });

  const forward: Forward = (req, res, forwarding) => {
    const flight: InFlight = { ...forwarding, timedOut: false, failed: false };
    (req as UpstreamBound)[IN_FLIGHT] = flight;
    // Forwarding the body ourselves; an Expect header would stop http-proxy from emitting proxyReq.
    delete req.headers.expect;
    // The whole answer, body included, within the time budget: a kept timer, whatever the socket's idle timer sees.
    const deadline = setTimeout(() => {
      flight.timedOut = true;
      fail(flight, res, `did not answer within ${upstream.timeoutMs} ms`);
    }, upstream.timeoutMs);
    return new Promise<void>((resolve, reject) => {
      res.once('close', () => {
        clearTimeout(deadline);
        resolve();
      });
      proxy(req, res, (err?: unknown) => {
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
      }).catch(reject);
    });
  };
  return { forward, close: () => agent.destroy() };
}
