// renderLabel: one validated request rendered under its entry in the page ledger (opened before, reserved at the
// render's admission, settled after, whatever happens), or handed back as a forward-with-a-reason, its pages
// reserved, when fallback mode sends it upstream. sendLabel writes the rendered label as the answer.

import type { ServerResponse } from 'node:http';
import { OUTPUT_TYPES, type OutputFormat } from '../../renderer/api.js';
import type { RenderResult } from '../../renderer/index.js';
import { renderTiming } from '../events/access-events.js';
import type { LabelRequest } from './label-request.js';
import { PageLedgerEntry, type LedgerContext } from './page-ledger.js';
import type { RequestState } from '../http/request-state.js';
import { setResponseHeaders } from '../api-table/index.js';
import { warningHeaders } from './warnings.js';

export interface RenderContext extends LedgerContext {
  maxPixels: number | undefined;
  pdf: 'vector' | 'raster' | undefined;
  /** Fallback mode: what this renderer cannot draw or compose is forwarded instead of answered. */
  canForward: boolean;
}

export type LabelOutcome =
  | { kind: 'rendered'; result: RenderResult }
  /** To the legacy service, its pages reserved; the ledger entry stays open until the forward settles it with the pages upstream rendered. */
  | { kind: 'forward'; reason: string; commands: string[]; pages: PageLedgerEntry };

/** Commands named in a fallback reason (the log line); a document of thousands of unknown commands names these and a count. */
const REASON_COMMANDS = 10;

function unsupportedReason(commands: readonly string[]): string {
  const named = commands.slice(0, REASON_COMMANDS).map((c) => c.slice(0, 16).replace(/[^\x21-\x7e]/g, '?'));
  const more = commands.length - named.length;
  return `unsupported ${named.join(' ')}${more > 0 ? ` and ${more} more` : ''}`;
}

export async function renderLabel(
  label: LabelRequest,
  state: RequestState,
  signal: AbortSignal,
  ctx: RenderContext,
): Promise<LabelOutcome> {
  const key = state.key!;
  const pages = await PageLedgerEntry.open(ctx, key, state.requestId);
  if (ctx.canForward && label.composes && !label.options.page) {
    await pages.settlingOnFailure(() =>
      pages.reserveForwarded(
        ctx,
        { zpl: label.zpl, dpmm: label.dpmm, allLabels: label.endpoint.allLabels },
        signal,
        key.id,
      ),
    );
    return { kind: 'forward', reason: 'PDF page composition', commands: ['page-composition'], pages };
  }
  let result: RenderResult;
  const timing = renderTiming();
  try {
    result = await ctx.render(
      label.zpl,
      {
        ...label.options,
        pdf: ctx.pdf,
        dpmm: label.dpmm,
        widthIn: label.widthIn,
        heightIn: label.heightIn,
        ...(label.index !== undefined && { index: label.index }),
        maxLabels: ctx.maxLabels,
        ...(ctx.maxPixels !== undefined && { maxPixels: ctx.maxPixels }),
        signal,
        tenant: key.id,
        // The printer's clock for ^FC fields: the request's time, as the router's clock reads it.
        now: ctx.now(),
      },
      {
        started: timing.started,
        // The whole document's pages are reserved once known, before drawing (a forward reserves the same way).
        ...(pages.limited && { admit: pages.reserve }),
      },
    );
  } catch (err) {
    state.rendered = { ...state.rendered, ...timing.done() };
    await pages.settle(0);
    throw err;
  }
  const times = timing.done();
  if (ctx.canForward && result.unsupported.length > 0) {
    return { kind: 'forward', reason: unsupportedReason(result.unsupported), commands: result.unsupported, pages };
  }
  ctx.emit({
    type: 'render',
    requestId: state.requestId,
    dpmm: label.dpmm,
    format: label.options.format,
    labels: result.totalCount,
    pages: result.pages,
    durationMs: times.renderMs,
    queuedMs: times.queuedMs,
  });
  state.rendered = { ...state.rendered, labels: result.totalCount, pages: result.pages, ...times };
  await pages.settle(result.pages);
  return { kind: 'rendered', result };
}

/** The answer's suggested file name: `label.` and the format's extension (the renderer's OUTPUT_TYPES). */
function disposition(format: OutputFormat): string {
  return `inline; filename="label.${OUTPUT_TYPES[format].extension}"`;
}

export function sendLabel(res: ServerResponse, label: LabelRequest, result: RenderResult): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', result.contentType);
  res.setHeader('Content-Length', String(result.body.byteLength));
  // What a density conversion could not do faithfully is always said; the linter's diagnostics when asked for,
  // with how many it leaves out.
  const linter = label.options.linter === true;
  const warnings = [...(linter ? result.warnings : []), ...(result.notices ?? [])];
  setResponseHeaders(res, {
    'X-Total-Count': result.totalCount,
    'Content-Disposition': disposition(label.options.format),
    'X-Renderer': 'local',
    ...warningHeaders(warnings, linter ? result.warningsOmitted : undefined, linter),
  });
  res.end(Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength));
}
