// `npm run postgres-burst`: the PostgreSQL stores under the two failures of issue 50, over real HTTP, on the
// machine's PostgreSQL (TEST_DATABASE_URL or 127.0.0.1:5432) through a TCP proxy of its own that it stalls (the
// server itself is never stopped), in a schema of its own that it drops after.
// 1. Idle then burst: a key is used, then nothing for --idle=S seconds (15), then 30 requests at once: how many 503.
// 2. Stall under load: --workers=N (6) clients send requests; after 1 s the proxy holds every byte for --stall=S
//    seconds (4), then load goes on for 2 s. Prints the pages counted against the 200s answered (one page each) and
//    what is held once the give-backs are in; then two minutes of traffic on the counters' clock (a request every 10
//    s, no waiting) and what is held after them.
// --build=DIR runs another build's middleware (e.g. main's dist) with this bench: the figures before and after.
// --rounds=N repeats the burst (3). Not a test: the figures move with the machine.

import express from 'express';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startTcpProxy, throughProxy } from '../test/helpers/tcp-proxy.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const IDLE_S = Number(args.get('idle') ?? 15);
const STALL_S = Number(args.get('stall') ?? 4);
const WORKERS = Number(args.get('workers') ?? 6);
const ROUNDS = Number(args.get('rounds') ?? 3);
const BUILD = resolve(args.get('build') ?? new URL('..', import.meta.url).pathname);
const DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const DAY_START = Date.UTC(2026, 5, 1, 12);
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

type Module = any;
const load = (path: string): Promise<Module> => import(pathToFileURL(resolve(BUILD, path)).href);
const middleware: Module = await load('middleware/index.js');
const postgres: Module = await load('middleware/stores/postgres/stores.js');

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** A namespace of this run's own (dropped at the end). */
const namespace = `zpl-bench-${process.pid}-${Date.now().toString(36)}`;

async function dropSchema(): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${namespace}" CASCADE`);
  await client.end();
}

async function main(): Promise<void> {
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(DATABASE_URL).port || 5432) });
  let clockOffset = 0;
  const stores = postgres.createPostgresStores({
    url: throughProxy(DATABASE_URL, proxy),
    namespace,
    now: () => Date.now() + clockOffset,
  });
  await stores.ready;
  const key = { key: `k_bench_${process.pid}`, scope: 'all', pagesPerDay: 1_000_000 };
  // The stall's own key: give-backs of the bursts' late reservations cannot move its count.
  const stallKey = { key: `k_stall_${process.pid}`, scope: 'all', pagesPerDay: 1_000_000 };
  await stores.keyStore.add(key);
  await stores.keyStore.add(stallKey);
  const id = (await stores.keyStore.find(stallKey.key)).id as string;
  // Which store each 503 waited for (both answer key_store_unavailable): counted from the router's events.
  const causes = new Map<string, number>();
  const events = middleware.createEventSink();
  events.subscribe((event: { type: string; cause?: string; message?: string }) => {
    if (event.type !== 'unavailable') return;
    const what = `${event.cause}${/did not answer/.test(event.message ?? '') ? ' late' : ' down'}`;
    causes.set(what, (causes.get(what) ?? 0) + 1);
  });
  const app = express();
  app.use(
    middleware.LEGACY_MOUNT_PATH,
    middleware.createLegacyRouter({
      keyStore: stores.keyStore,
      usageStore: stores.usageStore,
      events,
      now: () => new Date(DAY_START),
      // One page after an admission, as a real render reserves it (default store deadline: 75 ms).
      render: async (_zpl: unknown, _req: unknown, hooks?: { admit?: (plan: object) => Promise<void> }) => {
        await hooks?.admit?.({ totalCount: 1, pages: 1 });
        return {
          body: Buffer.from('png'),
          contentType: 'image/png',
          totalCount: 1,
          pages: 1,
          warnings: [],
          unsupported: [],
        };
      },
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${middleware.LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;
  const send = async (apiKey = key.key): Promise<number> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'X-API-Key': apiKey, Accept: 'image/png', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: ZPL,
    });
    const body = Buffer.from(await res.arrayBuffer()).toString();
    if (res.status >= 500 && res.status !== 503) console.log(`${res.status} ${body.slice(0, 200)}`);
    return res.status;
  };
  /** 30 at once: the 503s, by error, and the connections the proxy saw opened meanwhile. */
  const burst = async (): Promise<string> => {
    causes.clear();
    const opened = proxy.opened;
    const statuses = await Promise.all(Array.from({ length: 30 }, () => send()));
    const why = [...causes].map(([cause, n]) => `${cause} ${n}`).join(', ');
    return `503 ${statuses.filter((x) => x === 503).length} of 30${why ? ` (${why})` : ''}, connections opened ${proxy.opened - opened}`;
  };
  const pagesBucket = `pages:${id}:2026-06-01`;

  console.log(`build: ${BUILD}`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (let i = 0; i < 10; i++) await send(); // the key in use
    console.log(`burst with no idle, round ${round}: ${await burst()}`);
    await sleep(IDLE_S * 1000);
    console.log(`burst after ${IDLE_S} s idle, round ${round}: ${await burst()}`);
  }

  let answered = 0;
  let refused = 0;
  let stop = false;
  const worker = async (): Promise<void> => {
    while (!stop) {
      const status = await send(stallKey.key).catch(() => 0);
      if (status === 200) answered++;
      else if (status === 503) refused++;
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  await sleep(1000);
  proxy.stall();
  await sleep(STALL_S * 1000);
  proxy.resume();
  await sleep(2000);
  stop = true;
  await Promise.all(workers);
  // Give-backs of late answers land once the database is back: wait until the counter stops moving (or 20 s).
  let counted = Number(await stores.usageStore.used(pagesBucket));
  for (let i = 0; i < 40 && counted !== answered; i++) {
    await sleep(500);
    counted = Number(await stores.usageStore.used(pagesBucket));
  }
  const held = Number(await stores.usageStore.used(`${pagesBucket}:held`));
  console.log(
    `stall of ${STALL_S} s under load (${WORKERS} clients): 200 ${answered}, 503 ${refused}; ` +
      `pages counted ${counted} (${counted - answered >= 0 ? '+' : ''}${counted - answered}), held ${held}`,
  );
  let later = 0;
  for (let step = 0; step < 12; step++) {
    clockOffset += 10_000;
    if ((await send(stallKey.key)) === 200) later++;
  }
  const heldLater = Number(await stores.usageStore.used(`${pagesBucket}:held`));
  console.log(`two minutes later on the counters' clock (a request every 10 s, ${later} answered): held ${heldLater}`);

  server.close();
  await stores.close();
  await proxy.close();
  await dropSchema();
}

await main();
