// The label routes' work with the legacy service: fallback forwards (built from the validated request), proxy
// mode's pass-through of the render routes (pages counted from the answer) and of every other path, and the
// shadow step after an answer.

import type { IncomingHttpHeaders } from 'node:http';
import type { RenderResult } from '../../renderer/index.js';
import type { Emit } from '../events/service-events.js';
import { noteRendered } from '../events/access-events.js';
import type { Endpoint, LabelRequest } from '../label-request.js';
import type { PageAccount } from '../rate-limits.js';
import { openPageAccount, reportNotCounted, type RenderContext } from '../render-label.js';
import { header, type LegacyRequest as Request, type LegacyResponse as Response } from '../http.js';
import { readRequestBody } from '../request-body.js';
import type { ExtraOutput } from '../api-table.js';
import { forwardedAccept, MEDIA_TYPE } from '../request-headers.js';
import { requestState } from '../request-state.js';
import { requestKey, requestKeyLabel } from '../authorize.js';
import type { Forward } from './forward.js';
import type { ShadowTraffic } from './shadow.js';
import { labelUpstreamPath, proxiedPath, tryLabelUpstreamPath } from './upstream-path.js';

/** Pages the legacy service rendered for a successful answer: every label for all-labels PDFs, else one. */
function pagesAnswered(endpoint: Endpoint, headers: IncomingHttpHeaders): number {
  if (!endpoint.allLabels) return 1;
  const count = Number(headers['x-total-count']);
  return Number.isSafeInteger(count) && count >= 0 ? count : 1;
}

/** Sends the request to the legacy service and books the pages it rendered against the day's account. */
async function forwardCounted(
  forward: Forward, req: Request, res: Response, request: { path: string; body: Buffer; accept?: string }, pages: PageAccount, endpoint: Endpoint, emit: Emit,
): Promise<void> {
  let rendered = 0;
  try {
    await forward(req, res, {
      ...request,
      onAnswer: (status, headers) => {
        rendered = status === 200 ? pagesAnswered(endpoint, headers) : 0;
        const labels = Number(headers['x-total-count']);
        noteRendered(res, { pages: rendered, ...(Number.isSafeInteger(labels) && { labels }) });
      },
    });
  } finally {
    reportNotCounted(emit, requestState(res).requestId, await pages.settle(rendered));
  }
}

/** Fallback: what we cannot produce goes to the legacy service, rebuilt from the validated request, with the body bytes received. */
export async function forwardLabel(
  forward: Forward, req: Request, res: Response, label: LabelRequest, why: { reason: string; commands: string[]; pages: PageAccount }, emit: Emit,
): Promise<void> {
  let path: string;
  try {
    path = labelUpstreamPath(label.target);
  } catch (err) {
    await why.pages.settle(0);
    throw err;
  }
  emit({ type: 'fallback_forward', requestId: requestState(res).requestId, keyId: requestKeyLabel(res), reason: why.reason, commands: why.commands });
  const accept = MEDIA_TYPE[label.format];
  await forwardCounted(forward, req, res, { path, body: label.received, accept }, why.pages, label.endpoint, emit);
}

type AccountContext = Pick<RenderContext, 'usageStore' | 'now' | 'storeTimeoutMs' | 'emit'> & { maxBodyBytes: number; outputs: readonly ExtraOutput[] };

/** Proxy mode, a render route: no validation or rendering here, only the body limit and the pages-per-day account. */
export function passThrough(forward: Forward, endpoint: Endpoint, ctx: AccountContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const path = proxiedPath(req.originalUrl, req.url ?? '/');
    const body = await readRequestBody(req, ctx.maxBodyBytes);
    const pages = await openPageAccount(ctx, requestKey(res));
    const accept = forwardedAccept(header(req, 'Accept'), ctx.outputs);
    await forwardCounted(forward, req, res, { path, body, ...(accept !== undefined && { accept }) }, pages, endpoint, ctx.emit);
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
  shadow: ShadowTraffic, req: Request, label: LabelRequest, result: RenderResult, who: { requestId: string; owner: string },
): void {
  if (label.format !== 'png') return;
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
