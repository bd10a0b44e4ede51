// The fleet's variables: one store backend, a Redis of three forms or PostgreSQL (two at once is a start-up error
// naming both), the shadow store and its caps; and the standalone server on a real Redis Cluster.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { readFleetConfig, type FleetConfig } from '../server/fleet-config.js';
import { redisKind } from '../middleware/stores/redis/connection.js';
import { sharedTopology, type Topology } from './helpers/redis-fleet.js';
import { startServer, stopServer } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'server', 'server.js');

function failedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SERVER],
      { env: { ...process.env, PORT: '0', REDIS_URL: '', ...env } },
      (err, _stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr });
      },
    );
  });
}

describe('fleet settings', () => {
  it('reads each of the three Redis forms and PostgreSQL, and the shadow store defaults to that store when there is one', () => {
    const store = (config: FleetConfig) => ({
      id: config.store.backend.id,
      target: config.store.target,
      shadowStore: config.shadowStore,
    });
    expect(store(readFleetConfig({ REDIS_URL: 'redis://r:6379' }))).to.deep.equal({
      id: 'redis',
      target: { url: 'redis://r:6379' },
      shadowStore: 'store',
    });
    expect(store(readFleetConfig({ REDIS_CLUSTER_NODES: 'redis://a:7001, redis://b:7002' })).target).to.deep.equal({
      clusterNodes: ['redis://a:7001', 'redis://b:7002'],
    });
    expect(
      store(readFleetConfig({ REDIS_SENTINELS: 's1:26379,s2', REDIS_SENTINEL_MASTER: 'labels' })).target,
    ).to.deep.equal({ sentinels: ['s1:26379', 's2'], sentinelMaster: 'labels' });
    expect(
      store(readFleetConfig({ DATABASE_URL: 'postgresql://zpl@db:5432/labels', SHADOW_STORE: 'postgres' })),
    ).to.deep.equal({ id: 'postgres', target: { url: 'postgresql://zpl@db:5432/labels' }, shadowStore: 'store' });
    expect(store(readFleetConfig({}))).to.deep.equal({ id: 'memory', target: undefined, shadowStore: 'files' });
    expect(
      readFleetConfig({
        REDIS_URL: 'redis://r',
        SHADOW_STORE: 'files',
        SHADOW_MAX_CASES: '50',
        SHADOW_MAX_BYTES: '1048576',
      }),
    ).to.include({ shadowStore: 'files', shadowMaxCases: 50, shadowMaxBytes: 1048576 });
  });

  it('refuses two Redis forms at once, naming both, and other bad values by name', () => {
    const error = (env: NodeJS.ProcessEnv): string => {
      try {
        readFleetConfig(env);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(error({ REDIS_URL: 'redis://r', REDIS_CLUSTER_NODES: 'redis://a:1' })).to.equal(
      'REDIS_URL and REDIS_CLUSTER_NODES cannot both be set: choose one Redis',
    );
    expect(error({ REDIS_CLUSTER_NODES: 'redis://a:1', REDIS_SENTINELS: 's:1' })).to.equal(
      'REDIS_CLUSTER_NODES and REDIS_SENTINELS cannot both be set: choose one Redis',
    );
    expect(error({ REDIS_URL: 'redis://r', REDIS_SENTINELS: 's:1' })).to.contain('REDIS_URL and REDIS_SENTINELS');
    expect(error({ REDIS_URL: 'redis://r', DATABASE_URL: 'postgres://db/labels' })).to.equal(
      'REDIS_URL and DATABASE_URL cannot both be set: choose one store',
    );
    expect(error({ DATABASE_URL: 'postgres://db/labels', REDIS_SENTINELS: 's:1' })).to.equal(
      'REDIS_SENTINELS and DATABASE_URL cannot both be set: choose one store',
    );
    expect(error({ DATABASE_URL: 'mysql://db/labels' })).to.contain(
      'DATABASE_URL must be a postgres:// or postgresql:// URL',
    );
    expect(error({ DATABASE_URL: 'postgres://zpl:secret@' })).to.contain('not postgres://zpl:***@');
    expect(error({ DATABASE_URL: 'postgres://db/labels', SHADOW_STORE: 'redis' })).to.contain(
      'SHADOW_STORE=redis needs a Redis (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS)',
    );
    expect(error({ REDIS_SENTINEL_MASTER: 'm' })).to.contain('REDIS_SENTINEL_MASTER needs REDIS_SENTINELS');
    expect(error({ REDIS_CLUSTER_NODES: 'a:7001' })).to.contain('REDIS_CLUSTER_NODES must be redis:// URLs');
    expect(error({ REDIS_SENTINELS: 's:99999' })).to.contain('REDIS_SENTINELS must be host:port');
    expect(error({ SHADOW_STORE: 'redis' })).to.contain('SHADOW_STORE=redis needs a Redis');
    expect(error({ SHADOW_STORE: 'disk' })).to.contain('SHADOW_STORE must be redis, postgres or files');
    expect(error({ SHADOW_MAX_CASES: '1e3' })).to.contain('SHADOW_MAX_CASES must be a whole number');
    // The library's options say the same in their own names.
    expect(() => redisKind({ url: 'redis://r', sentinels: ['s:1'] })).to.throw(
      'Redis options url and sentinels cannot be used together',
    );
  });

  it('the standalone server stops at start-up with one ERROR line naming both variables', async () => {
    const { code, stderr } = await failedStart({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_SENTINELS: '127.0.0.1:26379',
    });
    expect(code).to.not.equal(0);
    expect(stderr.trim()).to.equal('ERROR: REDIS_URL and REDIS_SENTINELS cannot both be set: choose one Redis');
  });

  describe('the standalone server on a Redis Cluster', function () {
    this.timeout(120_000);
    let topology: Topology | undefined;
    before(async function () {
      topology = await sharedTopology('cluster');
      if (!topology) this.skip();
    });
    after(async () => {
      await topology?.stop();
    });

    it('seeds its key in the cluster and serves it', async () => {
      const server = await startServer({ REDIS_CLUSTER_NODES: topology!.nodes.join(','), RENDER_THREADS: '0' });
      try {
        const send = () =>
          fetch(`${server.base}/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0`, {
            method: 'POST',
            headers: { 'X-API-Key': server.devKey! },
            body: '^XA^FO10,10^GB50,50,50^FS^XZ',
          });
        // A 503 (seeding not done yet) is retried: "ready means ready" is the server entry's own test.
        let res = await send();
        for (let i = 0; res.status === 503 && i < 200; i++) {
          await new Promise((r) => setTimeout(r, 50));
          res = await send();
        }
        expect(res.status).to.equal(200);
        expect(
          Buffer.from(await res.arrayBuffer())
            .subarray(1, 4)
            .toString(),
        ).to.equal('PNG');
      } finally {
        await stopServer(server.child);
      }
    });
  });
});
