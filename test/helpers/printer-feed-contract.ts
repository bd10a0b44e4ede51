// What every printer feed does (memory, Redis single node, Cluster or Sentinel, PostgreSQL): jobs newest first by
// id, their label images as added, held to the job cap, the byte cap and the retention on each add, updates of
// kept jobs only, events to subscribers; on a shared backend, two replicas show one feed. Declared as mocha cases
// by printerFeedContract for one backend; the feeds' clocks are the test's.

import { expect } from 'chai';
import type {
  PrintedLabel,
  PrinterFeed,
  PrinterFeedEvent,
  PrinterFeedLimits,
  PrinterJobRecord,
} from '../../middleware/index.js';
import type { ContractOptions } from './key-store-contract.js';

export interface OpenedPrinterFeed {
  feed: PrinterFeed;
  /** A second feed on the same data (another replica, stores of its own), when the backend is shared. */
  other?: () => Promise<PrinterFeed>;
  close: () => Promise<void>;
}

/** Opens a feed with these limits whose clock is `clock` (ms). */
export type OpenPrinterFeed = (limits: Partial<PrinterFeedLimits>, clock: () => number) => Promise<OpenedPrinterFeed>;

function image(seed: number, bytes: number): Uint8Array {
  return Uint8Array.from({ length: bytes }, (_, i) => (i * 31 + seed * 7) & 0xff);
}

/** The next event for job `id` on `feed`: resolves when it comes (the test's timeout ends a wait that never does). */
function nextEvent(feed: PrinterFeed, id: string): Promise<PrinterFeedEvent> {
  return new Promise((resolve) => {
    const stop = feed.subscribe((event) => {
      if (event.job.id !== id) return;
      stop();
      resolve(event);
    });
  });
}

export function printerFeedContract(backend: string, open: OpenPrinterFeed, options: ContractOptions = {}): void {
  describe(`printer feed contract: ${backend}`, function () {
    this.timeout(60_000);
    const start = Date.UTC(2026, 11, 7, 9);
    let time = start;
    const clock = (): number => time;
    const opened: OpenedPrinterFeed[] = [];
    const openFeed = async (limits: Partial<PrinterFeedLimits> = {}): Promise<OpenedPrinterFeed> => {
      const made = await open({ ttlMs: 3_600_000, ...limits }, clock);
      opened.push(made);
      return made;
    };
    let sequence = 0;
    /** A job received now: ids sort by time, as the port makes them. */
    const job = (overrides: Partial<PrinterJobRecord> = {}): PrinterJobRecord => ({
      id: `${String(time).padStart(15, '0')}-${String(++sequence).padStart(6, '0')}`,
      time: new Date(time).toISOString(),
      client: '127.0.0.1:50000',
      bytes: 120,
      labels: 2,
      warnings: ['^FO: field outside the label'],
      ...overrides,
    });
    const labels = (seed: number, bytes = 1000, pdf = true): PrintedLabel[] =>
      [0, 1].map((index) => ({
        index,
        png: image(seed + index, bytes),
        ...(pdf && { pdf: image(seed + index + 100, bytes) }),
      }));
    const add = async (feed: PrinterFeed, made = job(), printed = labels(sequence)): Promise<PrinterJobRecord> => {
      await feed.add(made, printed);
      time += 10;
      return made;
    };
    const ids = async (feed: PrinterFeed): Promise<string[]> => (await feed.list(100)).map((j) => j.id);

    before(async function () {
      await options.require?.(this);
    });
    beforeEach(() => {
      time = start;
    });
    afterEach(async () => {
      for (const made of opened.splice(0)) await made.close();
    });

    it('lists jobs newest first up to the limit, and serves each label as added', async () => {
      const { feed } = await openFeed();
      const first = job({ forward: { status: 'sent', attempts: 1 } });
      const printed = labels(7);
      await add(feed, first, printed);
      const second = await add(feed, job({ warnings: [] }), [{ index: 0, png: image(9, 500) }]);

      expect(await feed.list(10)).to.deep.equal([second, first]);
      expect(await feed.list(1)).to.deep.equal([second]);
      expect(await feed.list(0)).to.deep.equal([]);
      expect(await feed.get(first.id)).to.deep.equal(first);
      expect(await feed.get('no-such-job')).to.equal(undefined);
      for (const label of printed) {
        expect(Buffer.from((await feed.label(first.id, label.index, 'png'))!)).to.deep.equal(Buffer.from(label.png));
        expect(Buffer.from((await feed.label(first.id, label.index, 'pdf'))!)).to.deep.equal(Buffer.from(label.pdf!));
      }
      expect(await feed.label(second.id, 0, 'pdf'), 'no PDF was drawn').to.equal(undefined);
      expect(await feed.label(second.id, 1, 'png'), 'no such label').to.equal(undefined);
      expect(await feed.label('no-such-job', 0, 'png')).to.equal(undefined);
    });

    it('drops the oldest jobs over the job cap, with their images', async () => {
      const { feed } = await openFeed({ maxJobs: 3 });
      const made: PrinterJobRecord[] = [];
      for (let i = 0; i < 5; i++) made.push(await add(feed));
      expect(await ids(feed)).to.deep.equal(
        made
          .slice(2)
          .map((j) => j.id)
          .reverse(),
      );
      expect(await feed.get(made[1]!.id)).to.equal(undefined);
      expect(await feed.label(made[1]!.id, 0, 'png')).to.equal(undefined);
      expect(await feed.label(made[2]!.id, 0, 'png')).to.not.equal(undefined);
    });

    it("drops the oldest jobs' images over the byte cap and keeps their records", async () => {
      // Each job's two labels take 4000 bytes (PNG and PDF of 1000 each): two jobs fit under 9000, three do not.
      const { feed } = await openFeed({ maxBytes: 9000 });
      const made: PrinterJobRecord[] = [];
      for (let i = 0; i < 3; i++) made.push(await add(feed));
      expect(await ids(feed)).to.deep.equal(made.map((j) => j.id).reverse());
      expect(await feed.label(made[0]!.id, 0, 'png'), 'oldest images dropped').to.equal(undefined);
      expect(await feed.label(made[0]!.id, 1, 'pdf')).to.equal(undefined);
      expect(await feed.label(made[1]!.id, 0, 'png')).to.not.equal(undefined);
      expect(await feed.label(made[2]!.id, 1, 'pdf')).to.not.equal(undefined);

      // A job larger than the cap alone is listed without its images, and takes the others' images with it.
      const big = await add(feed, job(), labels(50, 5000));
      expect((await ids(feed))[0]).to.equal(big.id);
      expect(await feed.label(big.id, 0, 'png')).to.equal(undefined);
      expect(await feed.get(big.id)).to.deep.equal(big);
      // Room again: a small job's images are kept.
      const small = await add(feed, job(), labels(60, 100));
      expect(await feed.label(small.id, 1, 'png')).to.not.equal(undefined);
    });

    it('drops jobs past the retention with the next add', async () => {
      const { feed } = await openFeed({ ttlMs: 60_000 });
      const old = await add(feed);
      time += 30_000;
      const newer = await add(feed);
      time += 40_000; // old is 70 s old, newer 40 s
      const latest = await add(feed);
      expect(await ids(feed)).to.deep.equal([latest.id, newer.id]);
      expect(await feed.label(old.id, 0, 'png')).to.equal(undefined);
    });

    it("updates a kept job's summary and tells subscribers; a dropped job stays dropped", async () => {
      const { feed } = await openFeed({ maxJobs: 1 });
      const events: PrinterFeedEvent[] = [];
      const stop = feed.subscribe((event) => events.push(event));
      const first = await add(feed);
      const retrying = { ...first, forward: { status: 'retrying' as const, attempts: 2, error: 'ECONNREFUSED' } };
      await feed.update(retrying);
      expect(await feed.get(first.id)).to.deep.equal(retrying);
      const second = await add(feed);
      await feed.update({ ...first, forward: { status: 'failed', attempts: 5, error: 'ECONNREFUSED' } });
      expect(await feed.get(first.id), 'dropped by the cap').to.equal(undefined);
      expect(await ids(feed)).to.deep.equal([second.id]);
      expect(events).to.deep.equal([
        { type: 'job', job: first },
        { type: 'job', job: retrying },
        { type: 'job', job: second },
      ]);
      stop();
      await add(feed);
      expect(events, 'unsubscribed').to.have.length(3);
    });

    it('two replicas show one feed, and each hears the other', async function () {
      const { feed, other } = await openFeed();
      if (!other) this.skip();
      const replica = await other!();
      const first = feed;
      const made = job();
      const heard = nextEvent(replica, made.id);
      await replica.whenSubscribed?.();
      await add(first, made, labels(3));
      expect((await heard).job).to.deep.equal(made);
      expect(await ids(replica)).to.deep.equal([made.id]);
      expect(Buffer.from((await replica.label(made.id, 1, 'png'))!)).to.deep.equal(Buffer.from(labels(3)[1]!.png));

      // The other way, and an update: the first replica hears both.
      const back = job({ client: '10.0.0.7' });
      const heardBack = nextEvent(first, back.id);
      await first.whenSubscribed?.();
      await add(replica, back);
      expect((await heardBack).job).to.deep.equal(back);
      const sent = { ...made, forward: { status: 'sent' as const, attempts: 1 } };
      const heardUpdate = nextEvent(first, made.id);
      await replica.update(sent);
      expect((await heardUpdate).job).to.deep.equal(sent);
      expect(await first.list(10)).to.deep.equal([back, sent]);
    });
  });
}
