// The standalone server's fleet settings: which Redis (one node, a Cluster or Sentinels) and where shadow mode keeps
// its cases (docs/stores-and-fleets.md).

import { parseSentinel, type RedisTarget } from '../middleware/redis-connection.js';
import { optionalNumber } from './env-values.js';

export interface FleetConfig {
  /** REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS (+ REDIS_SENTINEL_MASTER); unset: keys and limits in memory. */
  redis?: RedisTarget;
  /** SHADOW_STORE: `redis` (every replica on the same Redis shares one report) or `files` (SHADOW_DIR). */
  shadowStore: 'redis' | 'files';
  /** SHADOW_MAX_CASES: divergent cases kept per organization, oldest dropped first. */
  shadowMaxCases?: number;
  /** SHADOW_MAX_BYTES: image bytes kept per organization, oldest cases dropped first. */
  shadowMaxBytes?: number;
}

const REDIS_VARIABLES = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const;

function list(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** Which Redis the variables name, if any; throws `REDIS_URL and REDIS_SENTINELS cannot both be set` (naming both). */
export function readRedisTarget(env: NodeJS.ProcessEnv = process.env): RedisTarget | undefined {
  const set = REDIS_VARIABLES.filter((name) => (env[name] ?? '').trim() !== '');
  if (set.length > 1) throw new Error(`${set.join(' and ')} cannot both be set: choose one Redis`);
  if ((env.REDIS_SENTINEL_MASTER ?? '') !== '' && !set.includes('REDIS_SENTINELS')) {
    throw new Error('REDIS_SENTINEL_MASTER needs REDIS_SENTINELS (the Sentinels that know the master)');
  }
  let redis: RedisTarget | undefined;
  if (set[0] === 'REDIS_URL') redis = { url: env.REDIS_URL!.trim() };
  if (set[0] === 'REDIS_CLUSTER_NODES') {
    const nodes = list(env.REDIS_CLUSTER_NODES!);
    for (const node of nodes) {
      if (!/^rediss?:\/\/[^/]+/.test(node)) throw new Error(`REDIS_CLUSTER_NODES must be redis:// URLs separated by commas, not ${node}`);
    }
    redis = { clusterNodes: nodes };
  }
  if (set[0] === 'REDIS_SENTINELS') {
    const sentinels = list(env.REDIS_SENTINELS!);
    for (const sentinel of sentinels) {
      try {
        parseSentinel(sentinel);
      } catch {
        throw new Error(`REDIS_SENTINELS must be host:port pairs separated by commas, not ${sentinel}`);
      }
    }
    redis = { sentinels, ...(env.REDIS_SENTINEL_MASTER ? { sentinelMaster: env.REDIS_SENTINEL_MASTER.trim() } : {}) };
  }
  return redis;
}

/** The fleet's variables; bad values throw naming the variable. */
export function readFleetConfig(env: NodeJS.ProcessEnv = process.env): FleetConfig {
  const redis = readRedisTarget(env);
  const store = (env.SHADOW_STORE ?? '').trim().toLowerCase() || (redis ? 'redis' : 'files');
  if (store !== 'redis' && store !== 'files') throw new Error(`SHADOW_STORE must be redis or files, not ${env.SHADOW_STORE}`);
  if (store === 'redis' && !redis) throw new Error('SHADOW_STORE=redis needs a Redis (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS)');
  const shadowMaxCases = optionalNumber(env, 'SHADOW_MAX_CASES', (n) => n > 0, 'a whole number above 0');
  const shadowMaxBytes = optionalNumber(env, 'SHADOW_MAX_BYTES', (n) => n > 0, 'a whole number above 0');
  return {
    ...(redis && { redis }),
    shadowStore: store,
    ...(shadowMaxCases !== undefined && { shadowMaxCases }),
    ...(shadowMaxBytes !== undefined && { shadowMaxBytes }),
  };
}
