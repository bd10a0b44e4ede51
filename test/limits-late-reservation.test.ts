// A page reservation the store applied but answered after the store timeout (issue: hostile input, suspected
// item): the client got a 503, so what the store took is given back, and the key's day is not used up by it.

import { expect } from 'chai';
import request from 'supertest';
import type { ReserveOp } from '../middleware/index.js';
import { MemoryUsageStore } from '../middleware/stores/memory/usage-store.js';
import type { CorrectionOp } from '../middleware/stores/usage-store.js';
import { buildApp, labelsPath, recordingRender } from './helpers/http-app.js';

/** Applies every reservation at once, but holds its answer while `holding` is set, until release(). */
class LateStore extends MemoryUsageStore {
  holding = true;
  readonly #held: Array<() => void> = [];
  readonly #givenBack: Array<() => void> = [];
  gaveBack = false;

  override async reserve(op: ReserveOp): Promise<{ taken: boolean; used: number }> {
    const answer = await super.reserve(op);
    if (this.holding) await new Promise<void>((resolve) => this.#held.push(resolve));
    return answer;
  }

  override async add(bucket: string, amount: number, ttlMs: number): Promise<number> {
    const value = await super.add(bucket, amount, ttlMs);
    if (amount < 0 && bucket.endsWith(':held')) this.#gaveBack();
    return value;
  }

  /** The router gives back through correct() where the store has it. */
  override async correct(op: CorrectionOp): Promise<void> {
    await super.correct(op);
    if (op.heldDelta < 0) this.#gaveBack();
  }

  #gaveBack(): void {
    this.gaveBack = true;
    for (const wake of this.#givenBack.splice(0)) wake();
  }

  release(): void {
    this.holding = false;
    for (const wake of this.#held.splice(0)) wake();
  }

  /** Resolves once a hold has been given back. */
  givenBack(): Promise<void> {
    return this.gaveBack ? Promise.resolve() : new Promise((resolve) => this.#givenBack.push(resolve));
  }
}

describe('a page reservation answered after the store timeout', () => {
  it('is given back: the 503 costs the key nothing, and its one page a day is still there', async () => {
    const usageStore = new LateStore();
    const { app } = await buildApp({ usageStore, storeTimeoutMs: 30, render: recordingRender() }, [
      { key: 'k_one_page', scope: 'all', pagesPerDay: 1 },
    ]);
    const post = () =>
      request(app)
        .post(labelsPath('8dpmm', '2x1', '0'))
        .set('X-API-Key', 'k_one_page')
        .type('text')
        .send('^XA^XZ');

    const late = await post();
    expect(late.status).to.equal(503);
    usageStore.release();
    await usageStore.givenBack();

    const next = await post();
    expect(next.status).to.equal(200);
    expect((await post()).status).to.equal(429); // the day's one page is now used
  });
});
