// The standalone server's fleet settings: which store backend holds keys, counters and shadow cases (one Redis
// node, a Cluster, Sentinels, PostgreSQL, or this process: store-backends.ts) and where shadow mode keeps its cases
// (docs/stores-and-fleets.md).

import { optionalNumber } from './env-values.js';
import { familyVariables, selectStore, STORE_BACKENDS, type SelectedStore } from './store-backends.js';
import type { ServerEnv } from './variables.js';

export interface FleetConfig {
  /** The backend whose variable is set (REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS, DATABASE_URL), else memory. */
  store: SelectedStore;
  /**
   * SHADOW_STORE: `store` keeps shadow cases in that backend (every replica on it shares one report; the variable
   * names it by its family, `redis` or `postgres`), `files` in SHADOW_DIR.
   */
  shadowStore: 'store' | 'files';
  /** SHADOW_MAX_CASES: divergent cases kept per organization, oldest dropped first. */
  shadowMaxCases?: number;
  /** SHADOW_MAX_BYTES: image bytes kept per organization, oldest cases dropped first. */
  shadowMaxBytes?: number;
}

/** SHADOW_STORE's values: the family of every shared backend, or `files`. */
const SHADOW_STORE_VALUES = [...new Set(STORE_BACKENDS.filter((b) => b.shared).map((b) => b.family)), 'files'];

/** The fleet's variables; bad values throw naming the variable. */
export function readFleetConfig(env: ServerEnv = process.env): FleetConfig {
  const store = selectStore(env);
  const { family, shared } = store.backend;
  const named = (env.SHADOW_STORE ?? '').trim().toLowerCase() || (shared ? family : 'files');
  if (!SHADOW_STORE_VALUES.includes(named)) {
    throw new Error(
      `SHADOW_STORE must be ${SHADOW_STORE_VALUES.slice(0, -1).join(', ')} or files, not ${env.SHADOW_STORE}`,
    );
  }
  if (named !== 'files' && named !== family) {
    const label = STORE_BACKENDS.find((b) => b.family === named)!.label;
    throw new Error(
      `SHADOW_STORE=${named} needs a ${label} (${familyVariables(named)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')})`,
    );
  }
  const shadowMaxCases = optionalNumber(env, 'SHADOW_MAX_CASES', (n) => n > 0, 'a whole number above 0');
  const shadowMaxBytes = optionalNumber(env, 'SHADOW_MAX_BYTES', (n) => n > 0, 'a whole number above 0');
  return {
    store,
    shadowStore: named === 'files' ? 'files' : 'store',
    ...(shadowMaxCases !== undefined && { shadowMaxCases }),
    ...(shadowMaxBytes !== undefined && { shadowMaxBytes }),
  };
}
