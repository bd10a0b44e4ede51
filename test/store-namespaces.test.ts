// Two deployments on one Redis with different namespaces (STORE_NAMESPACE, and REDIS_NAMESPACE, its alias) see
// nothing of each other: keys, usage counters and shadow cases. A full session on a redis-server of our own (keys
// seeded, labels rendered, a daily limit reached, shadow cases stored) writes every Redis key under its namespace:
// the test lists them all with SCAN. The shadow store used to be opened without the namespace and wrote
// `zpl:shadow:{org%3Aacme}:...` for both, so each report listed the other's cases.

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisConnection } from '../index.js';
import { connectRedis } from '../middleware/stores/redis/connection.js';
import { sendRaw, type RawResponse } from './helpers/http-checks.js';
import {
  eventually,
  freePort,
  redisServerAvailable,
  startRedisServer,
  stopProcess,
  uniqueNamespace,
} from './helpers/http-redis.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const SERVER = join(process.cwd(), 'dist', 'bin', 'zpl-server.js');
const MOUNT = '/compatibility/legacy/v1';
/** In both deployments' key files: same key, same organization, one page a day. */
const SHARED_KEY = 'k_namespaces_shared_0123';
/** Only in deployment A's key file. */
const ONLY_A_KEY = 'k_namespaces_only_a_0123';

interface Deployment {
  namespace: string;
  server: WatchedProcess;
  port: number;
}

type Report = { cases: { requestId: string }[]; summary: { compared: number; diverged: number } };

describe('store namespaces: two deployments on one Redis', function () {
  this.timeout(240_000);
  let dir: string;
  let redis: ChildProcess | undefined;
  let connection: RedisConnection | undefined;
  let upstream: FakeUpstream | undefined;
  const deployments: Deployment[] = [];

  before(async function () {
    if (!(await redisServerAvailable())) this.skip();
    dir = await mkdtemp(join(tmpdir(), 'zpl-namespaces-'));
  });
  after(async () => {
    await Promise.all(deployments.map((d) => stopProcess(d.server.child, 'SIGTERM')));
    await connection?.close();
    if (redis) await stopProcess(redis);
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function deploy(
    name: string,
    variable: 'STORE_NAMESPACE' | 'REDIS_NAMESPACE',
    redisPort: number,
    keys: object[],
  ): Promise<Deployment> {
    const namespace = uniqueNamespace();
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify(keys));
    const port = await freePort();
    const server = spawnWatched(process.execPath, [SERVER], {
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      [variable]: namespace,
      API_KEYS_FILE: file,
      UPSTREAM_MODE: 'shadow',
      UPSTREAM_URL: upstream!.url,
      SHADOW_SAMPLE_RATE: '1',
      SHUTDOWN_DELAY_MS: '0',
      RENDER_THREADS: '1',
      LOG_LEVEL: 'warn',
    });
    const deployment = { namespace, server, port };
    deployments.push(deployment);
    await server.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    return deployment;
  }

  const render = (d: Deployment, key: string): Promise<RawResponse> =>
    sendRaw(
      `http://127.0.0.1:${d.port}`,
      'POST',
      `${MOUNT}/printers/8dpmm/labels/2x1/0`,
      { 'X-API-Key': key, 'Content-Type': 'application/x-www-form-urlencoded' },
      Buffer.from('^XA^FO10,10^GB80,80,40^FS^XZ'),
    );
  const report = async (d: Deployment): Promise<Report> => {
    const res = await sendRaw(`http://127.0.0.1:${d.port}`, 'GET', '/shadow/cases.json', { 'X-API-Key': SHARED_KEY });
    expect(res.status, res.body.toString()).to.equal(200);
    return JSON.parse(res.body.toString()) as Report;
  };

  async function allKeys(): Promise<string[]> {
    const found: string[] = [];
    for await (const batch of connection!.client.scanIterator({ MATCH: '*', COUNT: 100 }))
      found.push(...([] as string[]).concat(batch));
    return found.sort();
  }

  it('keeps keys, counters and shadow cases apart, and writes every Redis key under its namespace', async () => {
    const redisPort = await freePort();
    redis = await startRedisServer(redisPort);
    connection = connectRedis({ url: `redis://127.0.0.1:${redisPort}` });
    await connection.connected;
    upstream = await startFakeUpstream(); // a 16x8 PNG: every label we draw diverges from it, so each is a stored case
    const shared = { key: SHARED_KEY, scope: 'all', organization: 'acme', pagesPerDay: 1 };
    const a = await deploy('a', 'STORE_NAMESPACE', redisPort, [shared, { key: ONLY_A_KEY, scope: 'all' }]);
    const b = await deploy('b', 'REDIS_NAMESPACE', redisPort, [shared]);

    // Keys: A's own key is unknown to B.
    expect((await render(a, ONLY_A_KEY)).status).to.equal(200);
    const unknown = await render(b, ONLY_A_KEY);
    expect(unknown.status).to.equal(401);
    expect(JSON.parse(unknown.body.toString()).error).to.equal('invalid_key');

    // Counters: the shared key's one page a day is used up on A, and still there on B.
    const onA = await render(a, SHARED_KEY);
    expect(onA.status, onA.body.toString()).to.equal(200);
    expect((await render(a, SHARED_KEY)).status, 'A: the second page of the day').to.equal(429);
    const onB = await render(b, SHARED_KEY);
    expect(onB.status, onB.body.toString()).to.equal(200);
    expect((await render(b, SHARED_KEY)).status, 'B: the second page of the day').to.equal(429);

    // Shadow cases: each report lists its own deployment's case only.
    const [idA, idB] = [onA.headers['x-request-id'], onB.headers['x-request-id']];
    expect(
      await eventually(async () => (await report(a)).cases.length > 0 && (await report(b)).cases.length > 0),
      'both cases stored',
    ).to.equal(true);
    expect((await report(a)).cases.map((c) => c.requestId)).to.deep.equal([idA]);
    expect((await report(b)).cases.map((c) => c.requestId)).to.deep.equal([idB]);
    expect((await report(a)).summary).to.include({ compared: 1, diverged: 1 });

    // Every key in this Redis belongs to one of the two namespaces, and each namespace holds every kind of name.
    const keys = await allKeys();
    const outside = keys.filter((k) => !deployments.some((d) => k.startsWith(`${d.namespace}:`)));
    expect(outside, 'keys outside both namespaces').to.deep.equal([]);
    for (const { namespace } of [a, b]) {
      const mine = keys.filter((k) => k.startsWith(`${namespace}:`)).map((k) => k.slice(namespace.length + 1));
      const records = namespace === a.namespace ? 2 : 1;
      expect(
        mine.filter((k) => k.startsWith('keys::') && !k.startsWith('keys::id:')),
        `${namespace}: key records`,
      ).to.have.length(records);
      expect(
        mine.filter((k) => k.startsWith('keys::id:')),
        `${namespace}: key id index`,
      ).to.have.length(records);
      expect(mine, `${namespace}: seed marker`).to.include('seeded');
      expect(
        mine.some((k) => k.startsWith('usage:')),
        `${namespace}: usage counters`,
      ).to.equal(true);
      for (const part of ['index', 'records', 'images', 'summary'])
        expect(mine, `${namespace}: shadow ${part}`).to.include(`shadow:{org%3Aacme}:${part}`);
    }
  });
});
