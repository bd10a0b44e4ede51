// Redis through a TCP proxy the test stalls and cuts (the shared server is never stopped): a give-back made while
// Redis does not answer (a render that failed after its page was reserved) is kept and applied once Redis answers,
// once however often it was sent, so the pages counted are the pages answered and nothing is held.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { LEGACY_MOUNT_PATH } from '../middleware/index.js';
import { createRedisStores, type RedisStores } from '../middleware/stores/redis/stores.js';
import type { RedisUsageStore } from '../middleware/stores/redis/usage-store.js';
import type { RenderHooks, RenderRequest, RenderResult } from '../renderer/index.js';
import { recordingRender, storesApp } from './helpers/http-app.js';
import { eventually, REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';
import { startTcpProxy, throughProxy, type TcpProxy } from './helpers/tcp-proxy.js';

const png = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
/** The label whose render fails after its page is reserved, once the test lets it. */
const FAILING = '^XA^FO10,10^FDfail^FS^XZ';
const FIXED = Date.UTC(2026, 5, 1, 12, 0, 0, 100);
const DAY = '2026-06-01';
const KEY = { key: 'k_redis_stall', scope: 'all', pagesPerDay: 1000 } as const;

describe('Redis through a stalled connection', function () {
  this.timeout(60_000); // only ends a hang
  let proxy: TcpProxy;
  let stores: RedisStores | undefined;
  let lines: string[];
  /** Resolves when the failing render has its page reserved; `fail` then makes it fail. */
  let admitted: Promise<void>;
  let fail: () => void;
  let server: Express;
  let bucket: string;

  before(async function () {
    await requireRedis(this);
  });
  beforeEach(async () => {
    const target = new URL(REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    lines = [];
    const opened = createRedisStores({
      url: throughProxy(REDIS_URL, proxy),
      namespace: uniqueNamespace(),
      log: (line) => lines.push(line),
    });
    stores = opened;
    await opened.ready;
    await opened.keyStore.add(KEY);
    bucket = `pages:${(await opened.keyStore.find(KEY.key))!.id}:${DAY}`;
    let reserved!: () => void;
    admitted = new Promise((resolve) => {
      reserved = resolve;
    });
    const failing = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const good = recordingRender({}, undefined, { admits: true });
    const render = async (zpl: Uint8Array | string, req: RenderRequest, hooks?: RenderHooks): Promise<RenderResult> => {
      if (Buffer.from(zpl).toString() !== FAILING) return good(zpl, req, hooks);
      await hooks?.admit?.({ totalCount: 1, pages: 1 });
      reserved();
      await failing;
      throw new Error('the renderer failed after admission');
    };
    server = storesApp(opened, { now: () => new Date(FIXED), storeTimeoutMs: 75, render });
  });
  afterEach(async () => {
    proxy.resume();
    await stores?.close();
    stores = undefined;
    await proxy.close();
  });

  const send = (zpl: string) =>
    request(server).post(png).set('X-API-Key', KEY.key).set('Accept', 'image/png').type('form').send(zpl);

  /** One page answered, then a render that fails with its page reserved, its give-back made in a stall. */
  const giveBackInStall = async (): Promise<request.Response> => {
    expect((await send(ZPL)).status).to.equal(200);
    const failed = send(FAILING).then((res) => res);
    await admitted;
    proxy.stall('requests');
    fail();
    const res = await failed;
    expect(res.status, 'the failed render').to.not.equal(200);
    return res;
  };
  const usage = (): RedisUsageStore => stores!.usageStore as RedisUsageStore;
  /** Whether every give-back is applied and the counters show it (false while Redis is being reached again). */
  const settled = async (): Promise<boolean> =>
    usage().pendingCorrections === 0 &&
    (await usage()
      .used(bucket)
      .catch(() => -1)) === 1 &&
    (await usage()
      .used(`${bucket}:held`)
      .catch(() => -1)) === 0;

  it('gives back once, though sent again after an attempt Redis answered late', async () => {
    await giveBackInStall();
    // The first attempt went unanswered past its wait: it is sent again (both reach Redis once it answers).
    expect(await eventually(() => lines.some((l) => /a correction failed, retrying/.test(l)), 20_000)).to.equal(true);
    proxy.resume();
    await eventually(settled, 20_000);
    expect(await usage().used(bucket), 'pages counted: the one answered').to.equal(1);
    expect(await usage().used(`${bucket}:held`), 'held').to.equal(0);
  });

  it('gives back once Redis is reached again, when the connection it was sent on was lost', async () => {
    await giveBackInStall();
    proxy.cut(); // the give-back sent in the stall is lost with its connection
    proxy.resume();
    await eventually(settled, 20_000);
    expect(await usage().used(bucket), 'pages counted: the one answered').to.equal(1);
    expect(await usage().used(`${bucket}:held`), 'held').to.equal(0);
  });
});
