// The label routes' work with the legacy service: fallback forwards (built from the validated request), proxy
// mode's pass-through of the render routes and of every other path, and the shadow step after an answer. A
// forwarded document's pages are reserved in the page ledger before it goes, as a local render's are.

import type { IncomingHttpHeaders } from 'node:http';
import type { Dpmm, RenderResult } from '../../renderer/index.js';
import { RESPONSE_HEADERS } from '../api-table/index.js';
import type { Emit } from '../events/service-events.js';
import { noteRendered } from '../events/access-events.js';
import { readLabelDocument, type Endpoint, type LabelRequest } from './label-request.js';
import { PageLedgerEntry, type LedgerContext } from './page-ledger.js';
import { parseDensity } from './path-params.js';
import type { LegacyRequest as Request, LegacyResponse as Response } from '../http/http.js';
import { readRequestBody } from '../http/request-body.js';
import type { ExtraOutput } from '../api-table/index.js';
import { apiHeader, forwardedAccept, mediaTypeOf } from '../http/request-headers.js';
import { requestKey, requestKeyLabel, requestState } from '../http/request-state.js';
import type { Forward } from '../upstream/forward.js';
import type { ShadowTraffic } from '../upstream/shadow.js';
import { labelUpstreamPath, proxiedPath, tryLabelUpstreamPath } from '../upstream/upstream-path.js';

/** Node's lower-cased name of the upstream's label count. */
const TOTAL_COUNT = RESPONSE_HEADERS.totalCount.name.toLowerCase();

/**
 * Pages the legacy service rendered for a successful answer: for all-labels PDFs its X-Total-Count (what we
 * reserved when it does not say), else one.
 */
function pagesAnswered(endpoint: Endpoint, headers: IncomingHttpHeaders, reserved: number): number {
  if (!endpoint.allLabels) return 1;
  const count = Number(headers[TOTAL_COUNT]);
  return Number.isSafeInteger(count) && count >= 0 ? count : Math.max(1, reserved);
}

/** Sends the request to the legacy service, its pages reserved, and settles the ledger entry to the pages it rendered. */
async function forwardCounted(
  forward: Forward,
  req: Request,
  res: Response,
  request: { path: string; body: Buffer; accept?: string },
  pages: PageLedgerEntry,
  endpoint: Endpoint,
): Promise<void> {
  let rendered = 0;
  try {
    await forward(req, res, {
      ...request,
      onAnswer: (status, headers) => {
        rendered = status === 200 ? pagesAnswered(endpoint, headers, pages.reserved) : 0;
        const labels = Number(headers[TOTAL_COUNT]);
        noteRendered(res, { pages: rendered, ...(Number.isSafeInteger(labels) && { labels }) });
      },
    });
  } finally {
    await pages.settle(rendered);
  }
}

/** Fallback: what we cannot produce goes to the legacy service, rebuilt from the validated request, with the body bytes received. */
export async function forwardLabel(
  forward: Forward,
  req: Request,
  res: Response,
  label: LabelRequest,
  why: { reason: string; commands: string[]; pages: PageLedgerEntry },
  emit: Emit,
): Promise<void> {
  const path = await why.pages.settlingOnFailure(async () => labelUpstreamPath(label.target));
  emit({
    type: 'fallback_forward',
    requestId: requestState(res).requestId,
    keyId: requestKeyLabel(res),
    reason: why.reason,
    commands: why.commands,
  });
  const accept = mediaTypeOf(label.options.format);
  await forwardCounted(forward, req, res, { path, body: label.received, accept }, why.pages, label.endpoint);
}

/** The density a proxied path names, for counting; the legacy service judges a path we would refuse (counted at 8 dpmm). */
function proxiedDensity(req: Request): Dpmm {
  try {
    return parseDensity(String((req.params as Record<string, unknown>).dpmm));
  } catch {
    return 8;
  }
}

type ProxyContext = LedgerContext & { maxBodyBytes: number; outputs: readonly ExtraOutput[] };

/**
 * Proxy mode, a render route: no validation or rendering here, only the body limit and the page ledger (the document
 * counted by our interpreter and its pages reserved before it goes, settled to the pages the answer has).
 */
export function passThrough(forward: Forward, endpoint: Endpoint, ctx: ProxyContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const path = proxiedPath(req.originalUrl, req.url ?? '/');
    const { zpl, received } = await readLabelDocument(endpoint, req, ctx.maxBodyBytes);
    const key = requestKey(res);
    const pages = await PageLedgerEntry.open(ctx, key, requestState(res).requestId);
    // A client that hangs up cancels the count.
    const hangUp = new AbortController();
    res.once('close', () => {
      if (!res.writableEnded) hangUp.abort();
    });
    await pages.settlingOnFailure(() =>
      pages.reserveForwarded(
        ctx,
        { zpl, dpmm: proxiedDensity(req), allLabels: endpoint.allLabels },
        hangUp.signal,
        key.id,
      ),
    );
    const accept = forwardedAccept(apiHeader(req, 'Accept'), ctx.outputs);
    await forwardCounted(
      forward,
      req,
      res,
      { path, body: received, ...(accept !== undefined && { accept }) },
      pages,
      endpoint,
    );
  };
}

/** Proxy mode, any other path that stays below the upstream base: forwarded, counting no pages (it renders nothing). */
export function passThroughOther(forward: Forward, maxBodyBytes: number) {
  return async (req: Request, res: Response): Promise<void> => {
    const path = proxiedPath(req.originalUrl, req.url ?? '/');
    await forward(req, res, { path, body: await readRequestBody(req, maxBodyBytes) });
  };
}

/** Shadow mode, after the answer: a PNG we drew is offered for comparison (a GET whose ZPL has a dot segment has no path the legacy service would read the same). */
export function shadowLabel(
  shadow: ShadowTraffic,
  req: Request,
  label: LabelRequest,
  result: RenderResult,
  who: { requestId: string; owner: string },
): void {
  if (label.options.format !== 'png') return;
  const path = tryLabelUpstreamPath(label.target);
  if (path === undefined) return;
  shadow.offer({
    requestId: who.requestId,
    method: label.method,
    path,
    headers: { ...req.headers, accept: 'image/png' }, // the type we drew and the key was checked for
    body: label.received,
    index: label.index ?? 0,
    local: { png: result.body, labels: result.totalCount },
    owner: who.owner, // only keys of the same organization see the case
  });
}
