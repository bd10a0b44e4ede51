// Forwarding one request to the legacy service with http-proxy-middleware: same method, a path the caller
// built (never the raw request target), an allowlist of headers and the body bytes (our body parser already
// read the stream, so the bytes we kept are written again), the client's X-API-Key replaced by ours; the
// answer streams back unchanged, marked `X-Renderer: upstream`.

import { Agent as HttpAgent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Socket } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { RENDERER_HEADER } from '../api-table.js';
import type { Emit } from '../events/service-events.js';
import { sendPlainError } from '../http-errors.js';
import type { LegacyRequest as Request, LegacyResponse as Response } from '../http.js';
import { requestState } from '../request-state.js';
import type { UpstreamOptions } from './options.js';
import { keepsHeader, type HeaderAllowlist } from './outgoing-headers.js';

export { RENDERER_HEADER };

export interface Forwarding {
  /** Path (and query) below the upstream base URL: built from validated parameters, or checked by proxiedPath. */
  path: string;
  /** The request body exactly as received (empty for GET). */
  body: Buffer;
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
}

/** The forwarding forward() started for a request: read by the proxy's callbacks, which see only req and res. */
const IN_FLIGHT = Symbol('upstreamForwarding');
type UpstreamBound = Request & { [IN_FLIGHT]?: InFlight };

export function createForwarder(upstream: Required<Pick<UpstreamOptions, 'url' | 'timeoutMs'>> & UpstreamOptions,
  forwardHeaders: HeaderAllowlist, emit: Emit): Forwarder {
  const inFlight = (req: Request): InFlight => (req as UpstreamBound)[IN_FLIGHT]!;
  // Reused connections: a TLS handshake to the legacy service per request would cost more than the render.
  const agent = /^https:/i.test(upstream.url) ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });

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
        proxyReq.once('timeout', () => {
          forwarding.timedOut = true;
        });
        for (const name of proxyReq.getHeaderNames()) {
          if (!keepsHeader(forwardHeaders, name)) proxyReq.removeHeader(name);
        }
        if (upstream.apiKey !== undefined) proxyReq.setHeader('X-API-Key', upstream.apiKey);
        proxyReq.setHeader('X-Request-Id', requestState(res).requestId);
        if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
          proxyReq.removeHeader('Transfer-Encoding');
          proxyReq.setHeader('Content-Length', forwarding.body.length);
        }
        // The incoming stream has ended; http-proxy ends proxyReq right after this.
        if (forwarding.body.length > 0) proxyReq.write(forwarding.body);
      },
      proxyRes: (proxyRes: IncomingMessage, req: Request, res: Response) => {
        res.setHeader(RENDERER_HEADER, 'upstream');
        inFlight(req).onAnswer?.(proxyRes.statusCode ?? 502, proxyRes.headers);
      },
      error: (err: Error & { code?: string }, req: Request, res: Response | Socket) => {
        if (res instanceof Socket) return; // no WebSockets here
        const forwarding = inFlight(req);
        const reason = forwarding.timedOut
          ? `did not answer within ${upstream.timeoutMs} ms`
          : `is unavailable (${err.code ?? err.message})`;
        emit({ type: 'upstream_failed', requestId: requestState(res).requestId, reason });
        if (res.headersSent) {
          res.destroy();
          return;
        }
        res.setHeader(RENDERER_HEADER, 'upstream');
        sendPlainError(res, 502, `Upstream renderer ${reason}`);
      },
    },
  });

  const forward: Forward = (req, res, forwarding) => {
    (req as UpstreamBound)[IN_FLIGHT] = { ...forwarding, timedOut: false };
    // Forwarding the body ourselves; an Expect header would stop http-proxy from emitting proxyReq.
    delete req.headers.expect;
    return new Promise<void>((resolve, reject) => {
      res.once('close', () => resolve());
      proxy(req, res, (err?: unknown) => {
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
      }).catch(reject);
    });
  };
  return { forward, close: () => agent.destroy() };
}
