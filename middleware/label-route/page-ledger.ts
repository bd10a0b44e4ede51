// The page ledger: every path that answers pages (a local render, a fallback or proxy forward, the local render
// a shadow copy is compared with) books them in the same three steps. `open` lets the request in and holds one
// place; `reserve` puts the document's pages in that place before anything is drawn or forwarded, counted by our
// own interpreter (^PQ copies included, capped by maxLabels); `settle` books the pages answered and gives back
// the rest. A reservation is granted while the day's pages are under the limit, atomically, so concurrent
// documents overshoot it by at most one document whichever path they take.

import type { Dpmm, RenderPlan } from '../../renderer/api.js';
import { RenderError } from '../../renderer/errors.js';
import type { RenderFn } from '../../renderer/pool/index.js';
import type { Emit } from '../events/service-events.js';
import type { StoredKey } from '../keys/key-record.js';
import { PageAccount, PagesExceededError } from '../limits/rate-limits.js';
import type { UsageStore } from '../stores/usage-store.js';

export interface LedgerContext {
  render: RenderFn;
  usageStore: UsageStore;
  storeTimeoutMs: number;
  now: () => Date;
  maxLabels: number;
  emit: Emit;
}

/** A document that goes to the legacy service, as far as counting it needs. */
export interface ForwardedDocument {
  zpl: Uint8Array | string;
  dpmm: Dpmm;
  /** The all-labels endpoint: every label is a page; otherwise the one label asked for is. */
  allLabels: boolean;
}

/** Thrown from a counting render's admission once the pages are reserved: the render stops, nothing is drawn. */
class Counted extends Error {
  constructor() {
    super('The document was counted, not drawn');
    this.name = 'Counted';
  }
}

/**
 * What a count asks the render function for: the first label of a small size. The size counts nothing and passes
 * any pixel limit (the legacy service draws the label); one label of little ZPL may take the pool's express lane.
 */
const COUNT_REQUEST = { widthIn: 1, heightIn: 1, format: 'png', index: 0 } as const;

/** One request's pages in the key's day: opened on entry, reserved before rendering or forwarding, settled once answered. */
export class PageLedgerEntry {
  readonly #account: PageAccount;
  readonly #emit: Emit;
  readonly #requestId: string;
  #reserved = 0;
  #settled = false;

  private constructor(account: PageAccount, emit: Emit, requestId: string) {
    this.#account = account;
    this.#emit = emit;
    this.#requestId = requestId;
  }

  /** Lets the request in and holds its place: PagesExceededError (a 429) when the key's day is used up. */
  static async open(
    ctx: Pick<LedgerContext, 'usageStore' | 'now' | 'storeTimeoutMs' | 'emit'>,
    key: StoredKey,
    requestId: string,
  ): Promise<PageLedgerEntry> {
    const account = new PageAccount(ctx.usageStore, key, ctx.now(), ctx.storeTimeoutMs);
    const exceeded = await account.open();
    if (exceeded) throw new PagesExceededError(exceeded);
    return new PageLedgerEntry(account, ctx.emit, requestId);
  }

  /** Whether the key has a daily page limit (a render need not stop to ask for a reservation otherwise). */
  get limited(): boolean {
    return this.#account.limited;
  }

  /** Pages reserved from our count: what is booked when an answer does not say how many it has. */
  get reserved(): number {
    return this.#reserved;
  }

  /**
   * The reservation step of every path, and the render's admission hook (between interpreting and drawing):
   * the document's pages in place of the hold; PagesExceededError when the day's pages have reached the limit.
   */
  readonly reserve = async (plan: RenderPlan): Promise<void> => {
    const exceeded = await this.#account.reserve(plan.pages);
    if (exceeded) throw new PagesExceededError(exceeded);
    this.#reserved = plan.pages;
  };

  /**
   * Reserves a document that goes to the legacy service: the render function interprets it (in the render pool,
   * under a render's limits and time budget), reserves at its admission and stops there, before drawing. A document
   * over maxLabels is refused (a `too-many-labels` RenderError) and never forwarded; one that prints nothing is
   * forwarded, one page reserved, for the legacy service to answer in its own words.
   */
  async reserveForwarded(
    ctx: Pick<LedgerContext, 'render' | 'maxLabels'>,
    document: ForwardedDocument,
    signal: AbortSignal,
    tenant: string,
  ): Promise<void> {
    // At least the one page any successful answer has: a document we count empty but the legacy service prints
    // would otherwise reserve nothing, and give up its hold, so any number of them would go at once.
    const planOf = (totalCount: number): RenderPlan => ({
      totalCount,
      pages: document.allLabels ? Math.max(1, totalCount) : 1,
    });
    let plan: RenderPlan;
    try {
      const result = await ctx.render(
        document.zpl,
        {
          ...COUNT_REQUEST,
          dpmm: document.dpmm,
          maxLabels: ctx.maxLabels,
          signal,
          tenant,
        },
        {
          admit: async ({ totalCount }) => {
            await this.reserve(planOf(totalCount));
            throw new Counted();
          },
        },
      );
      plan = planOf(result.totalCount); // a renderer that never asks admission has drawn it: its count stands
    } catch (err) {
      if (err instanceof Counted) return;
      if (!(err instanceof RenderError && err.code === 'no-labels')) throw err;
      plan = planOf(0);
    }
    await this.reserve(plan);
  }

  /**
   * Books the pages answered (0 when nothing was) and gives back the rest of the reservation and the hold, once;
   * a failure to book is reported (the answer has gone already), not thrown.
   */
  async settle(answered: number): Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    const failed = await this.#account.settle(answered);
    if (failed) this.#emit({ type: 'pages_not_counted', requestId: this.#requestId, message: failed.message });
  }

  /** Runs `step` (a reservation, a render), settling to nothing answered when it fails. */
  async settlingOnFailure<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      await this.settle(0);
      throw err;
    }
  }
}
