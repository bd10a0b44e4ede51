// Redis Cluster and Sentinel topologies for tests, from Debian's redis-server through .ci/redis-fleet.sh: the ones
// .ci/run started (TEST_REDIS_CLUSTER_NODES, TEST_REDIS_SENTINELS) or, without them, throw-away ones of our own.

import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = new URL('../../../.ci/redis-fleet.sh', import.meta.url).pathname;

export interface Topology {
  /** `cluster`: seed URLs; `sentinel`: `host:port` of the Sentinels. */
  nodes: string[];
  /** Sentinel setups: the ports of master and replica (the master first). */
  dataPorts: number[];
  /** Where its pid files are (undefined when .ci/run started it). */
  dir?: string;
  /** Stops what this helper started (nothing when .ci/run started it). */
  stop(): Promise<void>;
}

const announced = new Set<string>();

function warnOnce(what: string, why: string): void {
  if (announced.has(what)) return;
  announced.add(what);
  console.log(`    (no Redis ${what}: ${why}; skipping those test cases)`);
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port whose next five ports and cluster bus ports (+10000) are free. */
async function freeRun(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 9_000);
    const ports = [0, 1, 2, 3, 4].flatMap((i) => [base + i, base + i + 10_000]);
    if ((await Promise.all(ports.map(canBind))).every(Boolean)) return base;
  }
  throw new Error('no free run of ports for Redis');
}

export function redisToolsInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0 && spawnSync('redis-cli', ['--version']).status === 0;
}

/** Starts a topology of our own; undefined (with a warning) when it cannot start. */
export async function startTopology(kind: 'cluster' | 'sentinel'): Promise<Topology | undefined> {
  if (!redisToolsInstalled()) {
    warnOnce(kind === 'cluster' ? 'Cluster' : 'Sentinel', 'redis-server is not installed');
    return undefined;
  }
  const dir = await mkdtemp(join(tmpdir(), `zpl-redis-${kind}-`));
  const stop = async (): Promise<void> => {
    await run('bash', [SCRIPT, 'stop', dir]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const base = await freeRun();
    const { stdout } = await run('bash', [SCRIPT, kind, dir, String(base)], { timeout: 120_000 });
    const nodes = stdout.trim().split(' ')[1]!.split(',');
    return { nodes, dir, dataPorts: kind === 'sentinel' ? [base, base + 1] : [base, base + 1, base + 2], stop };
  } catch (err) {
    await stop();
    warnOnce(
      kind === 'cluster' ? 'Cluster' : 'Sentinel',
      `it did not start (${(err as Error).message.split('\n')[0]})`,
    );
    return undefined;
  }
}

/** The topology .ci/run started, else one of our own. */
export async function sharedTopology(kind: 'cluster' | 'sentinel'): Promise<Topology | undefined> {
  const given = kind === 'cluster' ? process.env.TEST_REDIS_CLUSTER_NODES : process.env.TEST_REDIS_SENTINELS;
  if (given) return { nodes: given.split(','), dataPorts: [], stop: async () => {} };
  return startTopology(kind);
}

/** The master's port as the Sentinels see it now. */
export async function sentinelMasterPort(sentinel: string): Promise<number> {
  const [host, port] = sentinel.split(':');
  const { stdout } = await run('redis-cli', [
    '-h',
    host!,
    '-p',
    port!,
    'sentinel',
    'get-master-addr-by-name',
    'mymaster',
  ]);
  return Number(stdout.trim().split('\n')[1]);
}

/** SIGKILLs the redis-server on `port` of a topology this helper started (its pid file says which process). */
export async function killRedis(topology: Topology, port: number): Promise<void> {
  const pid = Number(await readFile(join(topology.dir!, `redis-${port}.pid`), 'utf8'));
  process.kill(pid, 'SIGKILL');
}
