// Two replicas on one Redis or one PostgreSQL show one printer feed, over real HTTP: a job the printer port of one
// keeps is listed by the other's /printer/jobs, its label served there, and the other's open /printer/events
// stream tells of it and of its forward status. Each backend under a namespace of its own.

import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  createPostgresStores,
  createPreviewRouter,
  createRedisStores,
  fieldBoxes,
  type OpenedStores,
  type PrinterFeed,
  type PrinterJobRecord,
  type RedisStores,
} from '../index.js';
import { storeNames } from '../middleware/stores/store-names.js';
import { eventually, REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';
import { DATABASE_URL, dropSchema, requirePostgres, sql } from './helpers/postgres.js';

const KEY = 'k_printer_replicas';

interface Replica {
  url: string;
  server: Server;
  stores: OpenedStores;
  feed: PrinterFeed;
}

async function startReplica(stores: OpenedStores): Promise<Replica> {
  await stores.ready;
  const feed = stores.printerFeed;
  const app = express();
  app.use(createPreviewRouter({ keyStore: stores.keyStore, layout: fieldBoxes, printerFeed: feed }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, stores, feed };
}

async function stopReplica(replica: Replica): Promise<void> {
  replica.server.closeAllConnections();
  await new Promise<void>((resolve) => replica.server.close(() => resolve()));
  await replica.stores.close();
}

/** The event stream's blocks, one at a time (a block ends with a blank line). */
function blocks(res: Response): () => Promise<string | undefined> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        return block;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffered += decoder.decode(value, { stream: true });
    }
  };
}

/** What a replica's stream says of the next job event, skipping heartbeats. */
async function nextJob(next: () => Promise<string | undefined>): Promise<PrinterJobRecord> {
  for (;;) {
    const block = await next();
    if (block === undefined) throw new Error('the stream ended');
    if (block.startsWith('event: job\n'))
      return JSON.parse(block.slice(block.indexOf('data: ') + 6)) as PrinterJobRecord;
  }
}

const backends: Array<{
  name: string;
  require: (ctx: Mocha.Context) => Promise<void>;
  open: (namespace: string) => OpenedStores;
  /** Removes what the test wrote, before the stores close. */
  cleanUp: (namespace: string, stores: OpenedStores | undefined) => Promise<void>;
}> = [
  {
    name: 'Redis',
    require: requireRedis,
    open: (namespace) => createRedisStores({ url: REDIS_URL, namespace }),
    cleanUp: async (namespace, stores) => {
      const { channel: _channel, ...keys } = storeNames(namespace).printerFeed;
      await (stores as RedisStores | undefined)?.connection.client.del(Object.values(keys));
    },
  },
  {
    name: 'PostgreSQL',
    require: requirePostgres,
    open: (namespace) => createPostgresStores({ url: DATABASE_URL, namespace }),
    cleanUp: (namespace) => dropSchema(namespace),
  },
];

for (const backend of backends) {
  describe(`printer feed on two replicas, one ${backend.name}`, function () {
    this.timeout(60_000);
    let namespace: string;
    let replicas: Replica[] = [];
    before(async function () {
      await backend.require(this);
    });
    beforeEach(() => {
      namespace = uniqueNamespace();
    });
    afterEach(async () => {
      await backend.cleanUp(namespace, replicas[0]?.stores);
      for (const replica of replicas.splice(0)) await stopReplica(replica);
    });

    it("lists, serves and streams a job the other replica kept, and its forward's status", async () => {
      replicas = [await startReplica(backend.open(namespace)), await startReplica(backend.open(namespace))];
      const [a, b] = replicas as [Replica, Replica];
      await a.stores.keyStore.add({ key: KEY, scope: 'all' });
      const hangUp = new AbortController();
      const res = await fetch(`${b.url}/printer/events`, { headers: { 'X-API-Key': KEY }, signal: hangUp.signal });
      expect(res.status, res.status === 200 ? '' : await res.text()).to.equal(200);
      const next = blocks(res);
      expect(await next()).to.equal(': connected');

      const job: PrinterJobRecord = {
        id: `${Date.now()}-0001`,
        time: new Date().toISOString(),
        client: '127.0.0.1:40000',
        bytes: 64,
        labels: 1,
        warnings: ['^FO: field outside the label'],
      };
      const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 9, 8, 7]);
      await a.feed.add(job, [{ index: 0, png }]);
      expect(await next()).to.equal(`event: job\ndata: ${JSON.stringify(job)}`);
      const sent = { ...job, forward: { status: 'sent' as const, attempts: 1 } };
      await a.feed.update(sent);
      expect(await next()).to.equal(`event: job\ndata: ${JSON.stringify(sent)}`);
      hangUp.abort();

      const listed = await fetch(`${b.url}/printer/jobs`, { headers: { 'X-API-Key': KEY } });
      expect(await listed.json()).to.deep.equal({ jobs: [sent] });
      const image = await fetch(`${b.url}/printer/jobs/${job.id}/labels/0.png`, { headers: { 'X-API-Key': KEY } });
      expect(new Uint8Array(await image.arrayBuffer())).to.deep.equal(png);
    });
  });
}

describe('printer feed on PostgreSQL, its LISTEN connection lost', function () {
  this.timeout(60_000);
  const namespace = uniqueNamespace();
  const replicas: Replica[] = [];
  before(async function () {
    await requirePostgres(this);
  });
  after(async () => {
    for (const replica of replicas.splice(0)) await stopReplica(replica);
    await dropSchema(namespace);
  });

  it('listens again, and the open stream hears the other replica once more', async () => {
    const listeners = async (): Promise<number[]> =>
      (
        await sql<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE query = $1 AND datname = current_database() ORDER BY pid`,
          [`LISTEN "printer:${namespace}"`],
        )
      ).map((row) => row.pid);
    replicas.push(
      await startReplica(createPostgresStores({ url: DATABASE_URL, namespace })),
      await startReplica(createPostgresStores({ url: DATABASE_URL, namespace })),
    );
    const [a, b] = replicas as [Replica, Replica];
    await a.stores.keyStore.add({ key: KEY, scope: 'all' });
    const res = await fetch(`${b.url}/printer/events`, { headers: { 'X-API-Key': KEY } });
    const next = blocks(res);
    expect(await next()).to.equal(': connected');
    const [lost] = await listeners();
    expect(lost, "B's LISTEN connection").to.be.a('number');

    await sql('SELECT pg_terminate_backend($1)', [lost]);
    expect(await eventually(async () => (await listeners()).some((pid) => pid !== lost))).to.equal(true);
    const job: PrinterJobRecord = {
      id: `${Date.now()}-0002`,
      time: new Date().toISOString(),
      client: '127.0.0.1:40001',
      bytes: 10,
      labels: 0,
      warnings: [],
    };
    await a.feed.add(job, []);
    expect(await nextJob(next)).to.deep.equal(job);
    res.body?.cancel().catch(() => undefined);
  });
});
