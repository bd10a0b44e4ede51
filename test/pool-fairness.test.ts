// Admission to the render pool: one key's backlog does not hold up another key, the queue is bounded
// (and a flood fills its own share of it), a cancelled request leaves the queue or stops its render, and
// the pool's admission hook sits between interpreting and drawing.

import { expect } from 'chai';
import type { RenderError, RenderRequest } from '../renderer/index.js';
import { FairQueue } from '../renderer/pool/fair-queue.js';
import { createRenderPool, type RenderPool } from '../renderer/pool/index.js';
import { EXPRESS_MAX_BYTES } from '../renderer/pool/render-pool.js';
import { decodePng } from './helpers/png.js';
import { qrCodesDocument } from './helpers/qr-codes.js';

/** A job the test finishes by hand, recording when it started. */
interface HeldJob {
  tenant: string;
  started: boolean;
  finish: () => void;
  result: Promise<string>;
}

function held(queue: FairQueue, tenant: string, log: string[], signal?: AbortSignal, small = false): HeldJob {
  const job: HeldJob = {
    tenant,
    started: false,
    finish: () => {
      throw new Error('not started');
    },
    result: Promise.resolve(''),
  };
  job.result = queue.run(
    tenant,
    signal,
    (release) =>
      new Promise<string>((resolve) => {
        job.started = true;
        log.push(tenant);
        job.finish = () => {
          resolve(tenant);
          release();
        };
      }),
    small,
  );
  job.result.catch(() => {});
  return job;
}

async function refusal(p: Promise<unknown>): Promise<RenderError> {
  try {
    await p;
  } catch (err) {
    return err as RenderError;
  }
  throw new Error('expected a refusal');
}

const tick = () => new Promise((r) => setImmediate(r));

describe('fair render queue', () => {
  it('serves keys in turn: a second key waits for one job of the first, not its whole backlog', async () => {
    const queue = new FairQueue({ slots: 1, maxQueued: 100, maxWaitMs: 60_000 });
    const log: string[] = [];
    const a = Array.from({ length: 5 }, () => held(queue, 'a', log));
    const b = [held(queue, 'b', log), held(queue, 'b', log)];
    const c = held(queue, 'c', log);
    // Finish whatever runs, one at a time, until all have run.
    for (let i = 0; i < 8; i++) {
      const running = [...a, ...b, c].find((j) => j.started && !(j as { done?: boolean }).done)!;
      (running as { done?: boolean }).done = true;
      running.finish();
      await tick();
    }
    expect(log).to.deep.equal(['a', 'b', 'c', 'a', 'b', 'a', 'a', 'a']);
  });

  it('opens the express lane only while big jobs hold every general slot: small jobs behind small jobs wait their turn', async () => {
    const queue = new FairQueue({ slots: 1, expressSlots: 1, maxQueued: 100, maxWaitMs: 60_000 });
    const log: string[] = [];
    const small = (tenant: string) => held(queue, tenant, log, undefined, true);
    const first = small('a');
    const second = small('b');
    // A second thread would share the cores with the first, not spare a small label a wait behind a big one.
    expect([first.started, second.started, queue.stats()]).to.deep.equal([true, false, { running: 1, queued: 1 }]);
    first.finish();
    await tick();
    expect(second.started).to.equal(true);
    second.finish();
    await tick();
    const big = held(queue, 'c', log);
    const third = small('d');
    expect([big.started, third.started, queue.stats()]).to.deep.equal([true, true, { running: 2, queued: 0 }]);
    // The express lane closes again once the big job is done: the next small label takes the general slot.
    big.finish();
    third.finish();
    await tick();
    const fourth = small('e');
    const fifth = small('f');
    expect([fourth.started, fifth.started, queue.stats()]).to.deep.equal([true, false, { running: 1, queued: 1 }]);
    fourth.finish();
    await tick();
    fifth.finish();
    expect(await Promise.all([first, second, big, third, fourth, fifth].map((j) => j.result))).to.deep.equal([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ]);
  });

  it("refuses past its bound with overloaded, making room for another key by dropping the longest backlog's newest job", async () => {
    const queue = new FairQueue({ slots: 1, maxQueued: 3, maxWaitMs: 60_000 });
    const log: string[] = [];
    const running = held(queue, 'a', log);
    const waiting = [held(queue, 'a', log), held(queue, 'a', log), held(queue, 'a', log)];
    expect(queue.stats()).to.deep.equal({ running: 1, queued: 3 });
    // The same key past the bound: refused at once.
    const extra = await refusal(queue.run('a', undefined, async () => 'never'));
    expect([extra.code, extra.message]).to.deep.equal([
      'overloaded',
      'The renderer is busy (3 renders waiting); retry in 1 s',
    ]);
    // Another key: a's newest waiting job makes room.
    const b = held(queue, 'b', log);
    const dropped = await refusal(waiting[2].result);
    expect(dropped.code).to.equal('overloaded');
    expect(queue.stats()).to.deep.equal({ running: 1, queued: 3 });
    running.finish();
    await tick();
    expect(b.started).to.equal(true);
    expect(log).to.deep.equal(['a', 'b']);
    // Runs what still waits, so no wait timer outlives the test.
    for (const job of [b, waiting[0]!, waiting[1]!]) {
      await tick();
      job.finish();
    }
  });

  it('refuses a job that waited longer than its bound', async () => {
    const queue = new FairQueue({ slots: 1, maxQueued: 10, maxWaitMs: 50 });
    const log: string[] = [];
    const running = held(queue, 'a', log);
    const late = await refusal(queue.run('b', undefined, async () => 'never'));
    expect([late.code, late.message]).to.deep.equal([
      'overloaded',
      'The renderer is busy (waited 50 ms for a worker); retry in 1 s',
    ]);
    expect(queue.stats().queued).to.equal(0);
    running.finish();
  });

  it('drops a queued job whose signal aborts: it never runs', async () => {
    const queue = new FairQueue({ slots: 1, maxQueued: 10, maxWaitMs: 60_000 });
    const log: string[] = [];
    const running = held(queue, 'a', log);
    const hangUp = new AbortController();
    const cancelled = held(queue, 'b', log, hangUp.signal);
    const next = held(queue, 'c', log);
    hangUp.abort();
    const err = await refusal(cancelled.result);
    expect([err.code, err.message]).to.deep.equal(['cancelled', 'The request was cancelled before rendering started']);
    expect(queue.stats()).to.deep.equal({ running: 1, queued: 1 });
    running.finish();
    await tick();
    expect(next.started).to.equal(true);
    expect(cancelled.started).to.equal(false);
    expect(log).to.deep.equal(['a', 'c']);
  });
});

describe('render pool admission', function () {
  this.timeout(120_000);
  const PNG: RenderRequest = { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 };
  const BOX = '^XA^FO10,10^GB100,50,6^FS^XZ';
  /** Slow enough to keep the only thread busy for minutes: 15x15 in at 24 dpmm, page after page, as pixels (vector pages are too quick). */
  const SLOW: [string, RenderRequest] = [
    '^XA^FO10,10^GB500,500,250^FS^PQ1000^XZ',
    { dpmm: 24, widthIn: 15, heightIn: 15, format: 'pdf', pdf: 'raster', maxLabels: 2000 },
  ];
  let pool: RenderPool;
  beforeEach(async () => {
    pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 60_000 });
    await pool.render(BOX, PNG); // the worker has loaded the renderer
  });
  afterEach(() => pool.close());

  it("answers a second key before the first key's backlog on a pool of one thread", async () => {
    const order: string[] = [];
    const slow = new AbortController();
    const runaway = pool
      .render(SLOW[0], { ...SLOW[1], tenant: 'a', signal: slow.signal })
      .catch(() => order.push('a-slow'));
    const backlog = Array.from({ length: 4 }, (_, i) =>
      pool.render(`^XA^FO0,0^GB${20 + i},20,20^FS^XZ`, { ...PNG, tenant: 'a' }).then(() => order.push(`a${i}`)),
    );
    const other = pool.render(BOX, { ...PNG, tenant: 'b' }).then(() => order.push('b'));
    expect(pool.stats()).to.deep.equal({ threads: 1, busy: 1, queued: 5, recycled: 0, queueLimit: 128 });
    slow.abort(); // frees the thread at its next checkpoint
    await Promise.all([runaway, ...backlog, other]);
    expect(order).to.deep.equal(['a-slow', 'b', 'a0', 'a1', 'a2', 'a3']);
  });

  it('calls started when a thread takes the render: never for one dropped while queued, after the one ahead for the next', async () => {
    const log: string[] = [];
    const slow = new AbortController();
    const first = pool
      .render(SLOW[0], { ...SLOW[1], signal: slow.signal }, { started: () => log.push('first started') })
      .catch(() => log.push('first stopped'));
    const gone = new AbortController();
    const dropped = pool.render(BOX, { ...PNG, signal: gone.signal }, { started: () => log.push('dropped started') });
    const next = pool.render(BOX, PNG, { started: () => log.push('next started') }).then(() => log.push('next done'));
    expect(log).to.deep.equal(['first started']);
    gone.abort();
    expect((await refusal(dropped)).code).to.equal('cancelled');
    slow.abort();
    await Promise.all([first, next]);
    expect(log).to.deep.equal(['first started', 'first stopped', 'next started', 'next done']);
  });

  it('stops a running render whose caller went away at its next checkpoint, without replacing the worker', async () => {
    const hangUp = new AbortController();
    const running = pool.render(SLOW[0], { ...SLOW[1], signal: hangUp.signal });
    setTimeout(() => hangUp.abort(), 300);
    const err = await refusal(running);
    expect([err.code, err.message]).to.deep.equal(['cancelled', 'The request was cancelled while rendering']);
    const next = await pool.render(BOX, PNG);
    expect(decodePng(next.body).width).to.equal(406);
    expect(pool.stats()).to.include({ busy: 0, queued: 0, recycled: 0 });
  });

  it("asks admit with the document's page count between interpreting and drawing; a refusal fails the render with the caller's error", async () => {
    const plans: unknown[] = [];
    const pdf: RenderRequest = { dpmm: 8, widthIn: 2, heightIn: 1, format: 'pdf' };
    const ok = await pool.render('^XA^FO0,0^GB20,20,20^FS^PQ3^XZ', pdf, {
      admit: (plan) => {
        plans.push(plan);
      },
    });
    expect(ok.pages).to.equal(3);
    await pool.render(
      BOX,
      { ...PNG },
      {
        admit: (plan) => {
          plans.push(plan);
        },
      },
    );
    expect(plans).to.deep.equal([
      { totalCount: 3, pages: 3 },
      { totalCount: 1, pages: 1 },
    ]);

    const mine = new Error('no pages left');
    const refused = await refusal(
      pool.render(BOX, PNG, {
        admit: async () => {
          throw mine;
        },
      }),
    );
    expect(refused).to.equal(mine);
    // Documents refused before drawing (bad index) never ask.
    const bad = await refusal(
      pool.render(
        BOX,
        { ...PNG, index: 3 },
        {
          admit: () => {
            throw new Error('asked');
          },
        },
      ),
    );
    expect(bad.code).to.equal('index-out-of-range');
    expect(pool.stats()).to.include({ busy: 0, queued: 0, recycled: 0 });
  });

  it('keeps an express thread for small labels: they are answered while big documents fill the other threads', async () => {
    const lanes = createRenderPool({ threads: 1, expressThreads: 1, timeoutMs: 60_000 });
    try {
      const stop = new AbortController();
      const big = [0, 1].map(() =>
        lanes.render(SLOW[0], { ...SLOW[1], tenant: 'a', signal: stop.signal }).catch((e: RenderError) => e.code),
      );
      // Big documents never take the express thread: one runs, one waits.
      expect(lanes.stats()).to.deep.equal({ threads: 2, busy: 1, queued: 1, recycled: 0, queueLimit: 128 });
      const small = await lanes.render(BOX, { ...PNG, tenant: 'b' });
      expect(decodePng(small.body).width).to.equal(406);
      expect(lanes.stats()).to.include({ busy: 1, queued: 1 });
      stop.abort();
      expect(await Promise.all(big)).to.deep.equal(['cancelled', 'cancelled']);
    } finally {
      await lanes.close();
    }
  });

  it('keeps the express thread from small labels of much ZPL: 40 KB of QR codes on 4x6 in waits for a general thread', async () => {
    const lanes = createRenderPool({ threads: 1, expressThreads: 1, timeoutMs: 60_000 });
    try {
      const codes = qrCodesDocument(64);
      expect(codes.length).to.be.greaterThan(EXPRESS_MAX_BYTES);
      const stop = new AbortController();
      const heavy = [0, 1].map(() =>
        lanes.render(codes, { ...PNG, tenant: 'a', signal: stop.signal }).catch((e: RenderError) => e.code),
      );
      expect(lanes.stats()).to.include({ busy: 1, queued: 1 });
      const small = await lanes.render(BOX, { ...PNG, tenant: 'b' });
      expect(decodePng(small.body).width).to.equal(406);
      stop.abort();
      await Promise.all(heavy);
    } finally {
      await lanes.close();
    }
  });

  it('refuses at once when its queue is full', async () => {
    const small = createRenderPool({ threads: 1, expressThreads: 0, queueLimit: 1, timeoutMs: 60_000 });
    try {
      const slow = new AbortController();
      const running = small.render(SLOW[0], { ...SLOW[1], signal: slow.signal }).catch((e: RenderError) => e.code);
      const waiting = small.render(BOX, PNG);
      const err = await refusal(small.render(BOX, PNG));
      expect(err.code).to.equal('overloaded');
      expect(small.stats()).to.deep.equal({ threads: 1, busy: 1, queued: 1, recycled: 0, queueLimit: 1 });
      slow.abort();
      expect(await running).to.equal('cancelled');
      expect(decodePng((await waiting).body).width).to.equal(406);
    } finally {
      await small.close();
    }
  });
});

describe('render pool close', function () {
  this.timeout(60_000);

  it('refuses renders still queued when it closes as shutting down, after the running one finishes', async () => {
    const pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 60_000 });
    const PNG: RenderRequest = { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 };
    await pool.render('^XA^FO0,0^GB10,10,10^FS^XZ', PNG);
    const running = pool.render('^XA^FO10,10^GB500,500,250^FS^PQ3^XZ', {
      dpmm: 24,
      widthIn: 15,
      heightIn: 15,
      format: 'pdf',
    });
    const queued = pool.render('^XA^FO0,0^GB10,10,10^FS^XZ', PNG);
    const closed = pool.close();
    expect((await running).pages).to.equal(3);
    const err = await refusal(queued);
    expect([err.code, err.message]).to.deep.equal(['failed', 'The renderer is shutting down']);
    await closed;
  });
});
