// Pages per day for documents that go to the legacy service (proxy mode, and fallback mode for PDF page
// composition): counted by our own interpreter and reserved before they go, like a local render, so concurrent
// documents overshoot the day's limit by at most one document. Real HTTP, a fake legacy service answering real
// PDFs, the real renderer counting in its pool, memory and Redis counters.

import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import {
  createLegacyRouter,
  createMemoryStores,
  createRedisStores,
  LEGACY_MOUNT_PATH,
  type KeyRecord,
  type LegacyRouter,
  type RenderFunction,
  type Stores,
} from '../index.js';
import { toStoredKey } from '../middleware/keys/key-record.js';
import { render } from '../renderer/index.js';
import { listen, recordingRender, type Listening } from './helpers/http-app.js';
import { REDIS_URL, redisAnswers, uniqueNamespace } from './helpers/http-redis.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const TEN_LABELS = '^XA^FO20,20^GB120,80,4^FS^FO20,120^A0N,30,30^FDLedger^FS^PQ10^XZ';
const DAY = '2026-06-01';
const NOW = () => new Date(`${DAY}T12:00:00.100Z`);
const LIMITED: KeyRecord = { key: 'k_ledger_twenty', scope: 'all', pagesPerDay: 20 };
const BUCKET = `pages:${toStoredKey(LIMITED).id}:${DAY}`;
const CONCURRENT = 20;
const PDF_PATH = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6`;

type Mode = 'proxy' | 'fallback';
/** What makes each mode forward an all-labels PDF: proxy mode forwards everything, fallback mode page composition. */
const MODE_HEADERS: Record<Mode, Record<string, string>> = { proxy: {}, fallback: { 'X-Page-Size': 'Letter' } };

interface Service {
  url: string;
  stores: Stores;
  close(): Promise<void>;
}

interface StoreKind {
  name: string;
  open(): Promise<{ stores: Stores; drop(): Promise<void> }>;
  available(): Promise<boolean>;
}

const STORE_KINDS: StoreKind[] = [
  {
    name: 'memory',
    available: async () => true,
    open: async () => ({ stores: createMemoryStores(), drop: async () => {} }),
  },
  {
    name: 'Redis',
    available: () => redisAnswers(),
    open: async () => {
      const namespace = uniqueNamespace();
      const stores = createRedisStores({ url: REDIS_URL, namespace, maxReconnectDelayMs: 200 });
      await stores.connection.connected;
      return {
        stores,
        drop: async () => {
          const keys = await stores.connection.client.keys(`${namespace}*`);
          if (keys.length > 0) await stores.connection.client.del(keys);
        },
      };
    },
  },
];

/** A 10-page PDF as the legacy service would answer it (drawn by our renderer, once). */
let tenPages: Buffer;

describe('pages per day for forwarded documents', function () {
  this.timeout(120_000); // requests are awaited to the last answer; the bound only ends a hang
  let upstream: FakeUpstream;

  before(async () => {
    const pdf = await render(TEN_LABELS, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf' });
    expect(pdf.pages).to.equal(10);
    tenPages = Buffer.from(pdf.body);
  });
  beforeEach(async () => {
    upstream = await startFakeUpstream((_r, res) => {
      res.status(200).set({ 'Content-Type': 'application/pdf', 'X-Total-Count': '10' }).end(tenPages);
    });
  });
  afterEach(() => upstream.close());

  /** The router in `mode` in front of the fake, on a real port, counting with the default renderer in a pool of one thread. */
  async function serve(
    mode: Mode,
    stores: Stores,
    extra: { maxLabels?: number; renderTimeoutMs?: number; render?: RenderFunction } = {},
  ): Promise<Service> {
    await stores.keyStore.add(LIMITED);
    const router: LegacyRouter = createLegacyRouter({
      ...stores,
      mode,
      upstream: { url: upstream.url },
      now: NOW,
      renderThreads: 1,
      storeTimeoutMs: 60_000,
      log: () => {},
      ...extra,
    });
    const listening: Listening = await listen(express().use(LEGACY_MOUNT_PATH, router));
    return {
      url: `http://127.0.0.1:${listening.port}`,
      stores,
      close: async () => {
        listening.close();
        await router.close();
      },
    };
  }

  const send = (service: Service, mode: Mode, zpl = TEN_LABELS, key = LIMITED.key): request.Test =>
    request(service.url)
      .post(PDF_PATH)
      .set('X-API-Key', key)
      .set('Accept', 'application/pdf')
      .set(MODE_HEADERS[mode])
      .type('form')
      .send(zpl)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });

  /**
   * Sends CONCURRENT requests; the legacy service holds every answer (a PDF with `X-Total-Count: count`) until
   * each request has either reached it or been refused here, so all of them are in flight together. `oneByOne`
   * sends each once the one before has reached the legacy service or been refused.
   */
  async function allInFlight(
    sendOne: () => request.Test,
    count: string,
    oneByOne = false,
  ): Promise<request.Response[]> {
    const held: Array<() => void> = [];
    const answers: Array<Promise<request.Response>> = [];
    let refused = 0;
    let allSent!: () => void;
    const sent = new Promise<void>((resolve) => {
      allSent = resolve;
    });
    const sendNext = (): void => {
      if (answers.length === CONCURRENT) return;
      answers.push(
        sendOne().then((res) => {
          if (res.status !== 200) {
            refused++;
            accounted();
          }
          return res;
        }),
      );
      if (answers.length === CONCURRENT) allSent();
    };
    const accounted = (): void => {
      if (held.length + refused === CONCURRENT) for (const answer of held.splice(0)) answer();
      else if (oneByOne) sendNext();
    };
    upstream.answer = (_r, res) => {
      held.push(() => res.status(200).set({ 'Content-Type': 'application/pdf', 'X-Total-Count': count }).end(tenPages));
      accounted();
    };
    if (oneByOne) sendNext();
    else for (let i = 0; i < CONCURRENT; i++) sendNext();
    await sent;
    return Promise.all(answers);
  }

  for (const kind of STORE_KINDS) {
    describe(`on ${kind.name} counters`, () => {
      let opened: Awaited<ReturnType<StoreKind['open']>> | undefined;
      let service: Service | undefined;

      beforeEach(async function () {
        if (!(await kind.available())) this.skip();
        opened = await kind.open();
      });
      afterEach(async () => {
        await service?.close();
        service = undefined;
        await opened?.drop();
        await opened?.stores.close();
        opened = undefined;
      });

      for (const mode of ['proxy', 'fallback'] as const) {
        it(`${mode} mode: answers at most 3 of ${CONCURRENT} concurrent 10-page documents against 20 pages a day, the rest 429`, async () => {
          service = await serve(mode, opened!.stores);
          const answers = await allInFlight(() => send(service!, mode), '10');

          const answered = answers.filter((r) => r.status === 200);
          expect(answered.length, 'answered').to.be.within(1, 3);
          for (const res of answered) {
            expect(res.headers['x-renderer']).to.equal('upstream');
            expect(Buffer.compare(res.body as Buffer, tenPages)).to.equal(0);
          }
          const others = answers.filter((r) => r.status !== 200);
          expect(others.map((r) => r.status)).to.deep.equal(others.map(() => 429));
          for (const res of others) {
            expect(JSON.parse((res.body as Buffer).toString('utf8'))).to.deep.include({
              error: 'rate_limited',
              limit_type: 'pages_per_day',
              limit_scope: 'key',
              limit: 20,
            });
            expect(res.headers['retry-after']).to.match(/^\d+$/);
          }
          expect(upstream.received, 'documents forwarded').to.have.length(answered.length);
          expect(await opened!.stores.usageStore.used(BUCKET), 'pages booked').to.equal(10 * answered.length);
          expect(await opened!.stores.usageStore.used(`${BUCKET}:held`), 'holds left').to.be.at.most(0);
        });
      }

      it('reserves ^PQ3 as 3 pages while the document is upstream, and settles down to the pages answered', async () => {
        service = await serve('proxy', opened!.stores);
        let answer: ((count: string) => void) | undefined;
        upstream.answer = (_r, res) => {
          answer = (count) =>
            res.status(200).set({ 'Content-Type': 'application/pdf', 'X-Total-Count': count }).end(tenPages);
        };
        const three = send(service, 'proxy', '^XA^FO10,10^GB50,50,50^FS^PQ3^XZ').then((r) => r);
        await upstream.requests(1);
        expect(await opened!.stores.usageStore.used(BUCKET), 'reserved while forwarded').to.equal(3);
        answer!('2'); // the legacy service printed fewer
        expect((await three).status).to.equal(200);
        expect(await opened!.stores.usageStore.used(BUCKET), 'booked once answered').to.equal(2);
      });
    });
  }

  describe('documents our interpreter refuses', () => {
    let stores: Stores;
    let service: Service | undefined;

    beforeEach(() => {
      stores = createMemoryStores();
    });
    afterEach(async () => {
      await service?.close();
      service = undefined;
    });

    for (const mode of ['proxy', 'fallback'] as const) {
      it(`${mode} mode: refuses a document over maxLabels before forwarding it, and books nothing`, async () => {
        service = await serve(mode, stores, { maxLabels: 5 });
        const res = await send(service, mode);
        expect(res.status).to.equal(413);
        expect((res.body as Buffer).toString('utf8')).to.equal(
          'ERROR: Too many labels: the ZPL generates 10 labels; the maximum is 5',
        );
        expect(upstream.received).to.have.length(0);
        expect(await stores.usageStore.used(BUCKET)).to.equal(0);
        expect(await stores.usageStore.used(`${BUCKET}:held`), 'the hold is given back').to.equal(0);
      });
    }

    it("answers a document it cannot count within a render's time budget as a render, and forwards nothing", async () => {
      service = await serve('proxy', stores, { renderTimeoutMs: 50 });
      const field = '^FO10,10^A0N,20,20^FDsome text here^FS';
      const res = await send(service, 'proxy', `^XA${field.repeat(20_000)}^XZ`); // 760 KB: about a second to interpret
      expect(res.status).to.equal(500);
      expect((res.body as Buffer).toString('utf8')).to.equal('ERROR: Rendering took longer than 50 ms and was stopped');
      expect(upstream.received).to.have.length(0);
      expect(await stores.usageStore.used(`${BUCKET}:held`), 'the hold is given back').to.equal(0);
    });

    it("counts with a host's render function that never asks admission by the labels it drew", async () => {
      const render = recordingRender({ totalCount: 10, pages: 1 });
      service = await serve('proxy', stores, { render });
      let answer: (() => void) | undefined;
      upstream.answer = (_r, res) => {
        answer = () => res.status(200).set({ 'Content-Type': 'application/pdf', 'X-Total-Count': '10' }).end(tenPages);
      };
      const first = send(service, 'proxy').then((r) => r);
      await upstream.requests(1);
      expect(await stores.usageStore.used(BUCKET), 'reserved while forwarded').to.equal(10);
      answer!();
      expect((await first).status).to.equal(200);
      expect(render.calls.map((c) => c.zpl.toString('latin1'))).to.deep.equal([TEN_LABELS]);
    });

    it('reserves a page for each document it counts empty: 20 in flight that the legacy service prints, 2 pages a day, at most 3 answered', async () => {
      const two: KeyRecord = { key: 'k_ledger_two', scope: 'all', pagesPerDay: 2 };
      await stores.keyStore.add(two);
      service = await serve('proxy', stores);
      const answers = await allInFlight(() => send(service!, 'proxy', 'not ZPL at all', two.key), '1', true);
      const answered = answers.filter((r) => r.status === 200).length;
      expect(answered, 'answered').to.be.within(1, 3);
      expect(answers.filter((r) => r.status === 429)).to.have.length(CONCURRENT - answered);
      expect(upstream.received).to.have.length(answered);
    });

    it('answers hostile documents when counting them, and keeps serving', async () => {
      service = await serve('proxy', stores);
      const hostile = [
        '^XA^PQ99999999999^XZ', // far over maxLabels
        '^XA^DFR:A.ZPL^FS^XFR:A.ZPL^XFR:A.ZPL^FS^XZ^XA^XFR:A.ZPL^XFR:A.ZPL^XZ', // a format recalling itself
        '^XA'.repeat(20_000), // labels that never end
        '\u0000\u00ff^~^~~~^^^XZ^XA^FO-1,-1^FD'.repeat(2000), // bytes, not ZPL
      ];
      const answers = await Promise.all(hostile.map((zpl) => send(service!, 'proxy', zpl)));
      for (const [i, res] of answers.entries()) {
        expect(res.status, hostile[i]!.slice(0, 40)).to.be.oneOf([200, 400, 404, 413]);
      }
      expect(answers[0]!.status).to.equal(413);
      const after = await send(service, 'proxy');
      expect(after.status).to.equal(200);
    });
  });
});
