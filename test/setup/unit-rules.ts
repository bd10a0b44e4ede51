// What the unit run refuses (test/setup/unit-guard.ts applies it): sockets to other hosts and to the services'
// ports, and every child process. Plain functions, so test/test-loops.test.ts checks them without the guard.

import { isIP } from 'node:net';

/** Ports of the services the integration run uses: the defaults, what the environment names, the CI's fleet. */
export function servicePorts(env: NodeJS.ProcessEnv = process.env): Map<number, string> {
  const ports = new Map<number, string>([
    [6379, 'Redis'],
    [26379, 'Redis Sentinel'],
    [5432, 'PostgreSQL'],
  ]);
  const portOf = (url: string | undefined, fallback: number): number | undefined => {
    if (!url) return undefined;
    try {
      return Number(new URL(url).port || fallback);
    } catch {
      return undefined;
    }
  };
  const redis = portOf(env.REDIS_URL, 6379);
  if (redis) ports.set(redis, 'Redis (REDIS_URL)');
  const postgres = portOf(env.TEST_DATABASE_URL, 5432);
  if (postgres) ports.set(postgres, 'PostgreSQL (TEST_DATABASE_URL)');
  for (const name of ['TEST_REDIS_CLUSTER_NODES', 'TEST_REDIS_SENTINELS'] as const) {
    for (const node of (env[name] ?? '').split(/[\s,]+/).filter(Boolean)) {
      const port = Number(node.split(':').at(-1));
      if (port) ports.set(port, `Redis (${name})`);
    }
  }
  // .ci/run's Redis Cluster (17100...) and Sentinel setup (17200...).
  for (let port = 17100; port < 17300; port++) if (!ports.has(port)) ports.set(port, 'Redis (the CI fleet)');
  return ports;
}

const SERVICE_PORTS = servicePorts();

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', '']);

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(bare)) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare.startsWith('::ffff:127.');
  return false;
}

/** Why a unit test may not open this connection, or undefined when it may. */
export function socketRefusal(
  target: { host?: string; port?: number | string; path?: string },
  ports: Map<number, string> = SERVICE_PORTS,
): string | undefined {
  if (target.path !== undefined) {
    return /PGSQL|redis/i.test(target.path) ? `a service's unix socket (${target.path})` : undefined;
  }
  const host = target.host ?? 'localhost';
  if (!isLoopback(host)) return `a connection to another host (${host}:${target.port})`;
  const service = ports.get(Number(target.port));
  return service ? `a connection to ${service} (${host}:${target.port})` : undefined;
}

/**
 * Why a unit test may not start this program: none may. A unit test runs in the test process (worker threads
 * are fine); the server, the CLIs, npm, browsers, databases and poppler are the integration run's.
 */
export function spawnRefusal(file: string, args: readonly string[] = []): string {
  return `starting a process (${[file, ...args].join(' ').slice(0, 120)})`;
}
