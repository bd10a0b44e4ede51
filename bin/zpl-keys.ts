#!/usr/bin/env node
// zpl-keys: create, list, revoke and expire API keys in Redis (REDIS_URL) or in a key file (API_KEYS_FILE).

import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readRedisTarget } from '../server/fleet-config.js';
import { describeTarget, redactUrl, type RedisTarget } from '../middleware/redis-connection.js';
import { createRedisStores } from '../middleware/stores.js';
import { generateKey, hashKey, toStoredKey, validateKeyRecord, type KeyRecord, type StoredKey } from '../middleware/keys/key-record.js';
import type { KeyChanges, KeyStore } from '../middleware/keys/key-store.js';
import { changeKeyFile, loadKeyFile } from '../middleware/keys/key-file.js';

const USAGE = `usage: zpl-keys [--redis URL | --file PATH] <command> [options]

commands:
  create  --scope all|pdf|png [--key VALUE] [--expires ISO-DATE] [--rps N] [--pages-per-day N] [--org NAME]
          prints the new key once; only its SHA-256 is kept in Redis
  list    [--json]                 every key: id, scope, organization, expiry, revoked, limits
  update  <id|key> [--scope S] [--rps N] [--pages-per-day N] [--organization O] [--expires ISO-DATE|never]
          [--revoked true|false]   changes a key; --revoked false lifts a revocation
  revoke  <id|key>                 the key is refused from now on (401 invalid_key)
  expire  <id|key> [--at ISO-DATE] the key expires at that instant (default now; 401 key_expired)
  remove  <id|key>                 deletes the key

store: --redis URL (default $REDIS_URL, or a Cluster or Sentinels as $REDIS_CLUSTER_NODES or $REDIS_SENTINELS
       name them) with --namespace NAME (default $REDIS_NAMESPACE, else zpl),
       or --file PATH (default $API_KEYS_FILE), the JSON key file the server seeds from.`;

/** A key given with --key must not be guessable: a hand-typed key this short is. */
const MIN_KEY_LENGTH = 16;
/** How long a --redis store may take to answer before the command gives up (it fails at once when refused). */
const REDIS_CONNECT_MS = 3000;

/** The operations every admin target offers; Redis and the key file implement them. */
interface KeyAdmin {
  create(record: KeyRecord): Promise<StoredKey>;
  list(): Promise<StoredKey[]>;
  update(ref: string, changes: KeyChanges): Promise<StoredKey | undefined>;
  remove(ref: string): Promise<boolean>;
  close(): Promise<void>;
}

function storeAdmin(store: KeyStore): KeyAdmin {
  return {
    create: (record) => store.add(record),
    list: () => store.list(),
    update: (ref, changes) => store.update(ref, changes),
    remove: (ref) => store.remove(ref),
    close: () => store.close(),
  };
}

/**
 * The key file holds plain keys (it is the server's seed); entries are matched by id, hash prefix or key. Every change
 * is made under the file's lock and written whole, so concurrent runs lose nothing (changeKeyFile).
 */
function fileAdmin(path: string): KeyAdmin {
  // The file does not record when a key was made.
  const describe = (record: KeyRecord): StoredKey => ({ ...toStoredKey(record), createdAt: '' });
  const find = (records: KeyRecord[], ref: string): number =>
    records.findIndex((r) => r.key === ref || (ref.length >= 8 && hashKey(r.key).startsWith(ref.toLowerCase())));
  return {
    create: (record) => changeKeyFile(path, (records) => {
      const same = records.findIndex((r) => r.key === record.key);
      if (same >= 0) records.splice(same, 1);
      records.push(record);
      return describe(record);
    }),
    async list() {
      return (await loadKeyFile(path)).map(describe);
    },
    update: (ref, changes) => changeKeyFile(path, (records) => {
      const i = find(records, ref);
      if (i < 0) return undefined;
      const updated: Record<string, unknown> = { ...records[i], ...changes };
      for (const field of Object.keys(updated)) if (updated[field] === undefined) delete updated[field];
      records[i] = validateKeyRecord(updated);
      return describe(records[i]!);
    }),
    remove: (ref) => changeKeyFile(path, (records) => {
      const i = find(records, ref);
      if (i >= 0) records.splice(i, 1);
      return i >= 0;
    }),
    close: async () => {},
  };
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive integer (decimal digits), not ${value}`);
  return n;
}

/** An expiry that has not passed yet (`expire` is the command that ends a key now). */
function futureDate(value: string, flag: string): string {
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new Error(`${flag} must be an ISO 8601 date like 2030-01-01T00:00:00Z, not ${value}`);
  if (at <= Date.now()) throw new Error(`${flag} ${value} has already passed; use \`expire <id>\` to end a key now`);
  return new Date(at).toISOString();
}

function booleanFlag(value: string, flag: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`${flag} must be true or false, not ${value}`);
}

/** The changes `update` makes, from its flags; at least one. */
function updateChanges(values: Record<string, string | boolean | undefined>): KeyChanges {
  const text = (name: string): string | undefined => values[name] as string | undefined;
  const changes: KeyChanges = {};
  const scope = text('scope');
  if (scope !== undefined) {
    if (!['all', 'pdf', 'png'].includes(scope)) throw new Error(`--scope must be all, pdf or png, not ${scope}`);
    changes.scope = scope as KeyChanges['scope'];
  }
  const rps = positiveInt(text('rps'), '--rps');
  if (rps !== undefined) changes.requestsPerSecond = rps;
  const pages = positiveInt(text('pages-per-day'), '--pages-per-day');
  if (pages !== undefined) changes.pagesPerDay = pages;
  const organization = text('organization') ?? text('org');
  if (organization !== undefined) changes.organization = organization === '' ? undefined : organization;
  const expires = text('expires');
  if (expires !== undefined) changes.expiresAt = expires === 'never' ? undefined : futureDate(expires, '--expires');
  const revoked = text('revoked');
  if (revoked !== undefined) changes.revoked = booleanFlag(revoked, '--revoked');
  if (Object.keys(changes).length === 0) {
    throw new Error('update needs at least one of --scope, --rps, --pages-per-day, --organization, --expires, --revoked');
  }
  return changes;
}

function formatKey(k: StoredKey): string {
  return [
    k.id,
    `scope=${k.scope}`,
    `org=${k.organization ?? '-'}`,
    `expires=${k.expiresAt ?? 'never'}`,
    `revoked=${k.revoked}`,
    `rps=${k.requestsPerSecond ?? '-'}`,
    `pages/day=${k.pagesPerDay ?? '-'}`,
  ].join('  ');
}

/** `--redis URL`, checked. */
function redisUrlFlag(url: string): RedisTarget {
  if (!URL.canParse(url) || !['redis:', 'rediss:'].includes(new URL(url).protocol)) {
    throw new Error(`--redis must be a redis:// URL like redis://127.0.0.1:6379, not ${redactUrl(url)}`);
  }
  return { url };
}

/** The key store in Redis, once it answers; a refused or silent Redis is an error naming it, at once. */
async function openRedisAdmin(target: RedisTarget, namespace: string | undefined): Promise<KeyAdmin> {
  let failure: (message: string) => void = () => {};
  const failed = new Promise<string>((resolve) => { failure = resolve; });
  const stores = createRedisStores({ ...target, ...(namespace ? { namespace } : {}), log: (message) => failure(message) });
  const timer = setTimeout(failure, REDIS_CONNECT_MS, `no answer within ${REDIS_CONNECT_MS} ms`);
  const outcome = await Promise.race([stores.connection.connected.then(() => undefined), failed]);
  clearTimeout(timer);
  if (outcome !== undefined || !stores.connection.isReady()) {
    await stores.close();
    throw new Error(`cannot reach ${describeTarget(target)}: ${(outcome ?? 'not ready').replace(/^.* unavailable: /, '')}`);
  }
  return storeAdmin(stores.keyStore);
}

async function openAdmin(values: { redis?: string; file?: string; namespace?: string }): Promise<KeyAdmin> {
  if (values.redis !== undefined && values.file !== undefined) {
    throw new Error('--redis and --file name two key stores; pass one');
  }
  const file = values.file ?? (values.redis ? undefined : process.env.API_KEYS_FILE);
  // Without --redis or --file: the server's own variables (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS).
  const redis = values.redis ? redisUrlFlag(values.redis) : values.file ? undefined : readRedisTarget(process.env);
  if (redis) return openRedisAdmin(redis, values.namespace ?? (process.env.REDIS_NAMESPACE || undefined));
  if (file) {
    // A mistyped path must not start a key file the server never reads.
    if (!existsSync(file)) throw new Error(`key file ${file} does not exist; create it first (e.g. echo '[]' > ${file})`);
    return fileAdmin(file);
  }
  throw new Error('no key store: pass --redis URL or --file PATH (or set REDIS_URL or API_KEYS_FILE)');
}

/** The store a command worked on, for messages. */
function storeName(values: { redis?: string; file?: string; namespace?: string }): string {
  const redis = values.redis ? { url: values.redis } : values.file ? undefined : readRedisTarget(process.env);
  if (redis) return `${describeTarget(redis)} (namespace ${values.namespace ?? (process.env.REDIS_NAMESPACE || 'zpl')})`;
  return `key file ${values.file ?? process.env.API_KEYS_FILE}`;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      redis: { type: 'string' },
      file: { type: 'string' },
      namespace: { type: 'string' },
      scope: { type: 'string' },
      key: { type: 'string' },
      expires: { type: 'string' },
      at: { type: 'string' },
      rps: { type: 'string' },
      'pages-per-day': { type: 'string' },
      org: { type: 'string' },
      organization: { type: 'string' },
      revoked: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ref] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!command && !values.help) process.exitCode = 2;
    return;
  }
  if (['update', 'revoke', 'expire', 'remove'].includes(command) && !ref) throw new Error(`${command} needs a key id or key`);
  if (command === 'create' && values.scope === undefined) throw new Error('create needs --scope all|pdf|png');
  if (command === 'create' && values.key !== undefined && values.key.length < MIN_KEY_LENGTH) {
    throw new Error(`--key must be at least ${MIN_KEY_LENGTH} characters (or leave it out for a random key)`);
  }
  const changes = command === 'update' ? updateChanges(values) : undefined;
  const expires = command === 'create' && values.expires !== undefined ? futureDate(values.expires, '--expires') : undefined;

  const admin = await openAdmin(values);
  try {
    switch (command) {
      case 'create': {
        const rps = positiveInt(values.rps, '--rps');
        const pages = positiveInt(values['pages-per-day'], '--pages-per-day');
        const key = values.key ?? generateKey();
        const record = validateKeyRecord({
          key,
          scope: values.scope,
          ...(expires !== undefined && { expiresAt: expires }),
          ...(rps !== undefined && { requestsPerSecond: rps }),
          ...(pages !== undefined && { pagesPerDay: pages }),
          ...((values.org ?? values.organization) !== undefined && { organization: values.org ?? values.organization }),
        });
        const stored = await admin.create(record);
        console.log(`key: ${key}`);
        console.log(`id: ${stored.id}`);
        break;
      }
      case 'list': {
        const keys = await admin.list();
        if (values.json) console.log(JSON.stringify(keys.map(({ hash: _hash, ...k }) => k), null, 2));
        else if (keys.length === 0) console.log(`no keys in ${storeName(values)}`);
        else for (const k of keys) console.log(formatKey(k));
        break;
      }
      case 'update': {
        const updated = await admin.update(ref!, changes!);
        if (!updated) throw new Error(`no key matches ${ref}`);
        console.log(formatKey(updated));
        break;
      }
      case 'revoke':
      case 'expire': {
        let changes: KeyChanges = { revoked: true };
        if (command === 'expire') {
          const at = values.at === undefined ? new Date() : new Date(values.at);
          if (Number.isNaN(at.getTime())) throw new Error('--at must be an ISO 8601 date');
          changes = { expiresAt: at.toISOString() };
        }
        const updated = await admin.update(ref!, changes);
        if (!updated) throw new Error(`no key matches ${ref}`);
        console.log(formatKey(updated));
        break;
      }
      case 'remove':
        if (!(await admin.remove(ref!))) throw new Error(`no key matches ${ref}`);
        console.log(`removed ${ref}`);
        break;
      default:
        throw new Error(`unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await admin.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(`ERROR: ${(err as Error).message}`);
  process.exitCode = 1;
});
