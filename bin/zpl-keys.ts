#!/usr/bin/env node
// zpl-keys: create, list, revoke and expire API keys in Redis (REDIS_URL) or in a key file (API_KEYS_FILE).

import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readRedisTarget } from '../examples/fleet-config.js';
import { createRedisStores } from '../middleware/stores.js';
import { generateKey, hashKey, toStoredKey, validateKeyRecord, type KeyRecord, type StoredKey } from '../middleware/keys/key-record.js';
import type { KeyChanges, KeyStore } from '../middleware/keys/key-store.js';
import { loadKeyFile, saveKeyFile } from '../middleware/keys/key-file.js';

const USAGE = `usage: zpl-keys [--redis URL | --file PATH] <command> [options]

commands:
  create  --scope all|pdf|png [--key VALUE] [--expires ISO-DATE] [--rps N] [--pages-per-day N] [--org NAME]
          prints the new key once; only its SHA-256 is kept in Redis
  list    [--json]                 every key: id, scope, organization, expiry, revoked, limits
  revoke  <id|key>                 the key is refused from now on (401 invalid_key)
  expire  <id|key> [--at ISO-DATE] the key expires at that instant (default now; 401 key_expired)
  remove  <id|key>                 deletes the key

store: --redis URL (default $REDIS_URL, or a Cluster or Sentinels as $REDIS_CLUSTER_NODES or $REDIS_SENTINELS
       name them) with --namespace NAME (default zpl),
       or --file PATH (default $API_KEYS_FILE), the JSON key file the server seeds from.`;

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

/** The key file holds plain keys (it is the server's seed); entries are matched by id, hash prefix or key. */
function fileAdmin(path: string): KeyAdmin {
  // The file does not record when a key was made.
  const describe = (record: KeyRecord): StoredKey => ({ ...toStoredKey(record), createdAt: '' });
  const load = (): Promise<KeyRecord[]> => loadKeyFile(path);
  const find = (records: KeyRecord[], ref: string): number =>
    records.findIndex((r) => r.key === ref || (ref.length >= 8 && hashKey(r.key).startsWith(ref.toLowerCase())));
  return {
    async create(record) {
      const records = (await load()).filter((r) => r.key !== record.key);
      records.push(record);
      await saveKeyFile(path, records);
      return describe(record);
    },
    async list() {
      return (await load()).map(describe);
    },
    async update(ref, changes) {
      const records = await load();
      const i = find(records, ref);
      if (i < 0) return undefined;
      records[i] = validateKeyRecord({ ...records[i], ...changes });
      await saveKeyFile(path, records);
      return describe(records[i]!);
    },
    async remove(ref) {
      const records = await load();
      const i = find(records, ref);
      if (i < 0) return false;
      records.splice(i, 1);
      await saveKeyFile(path, records);
      return true;
    },
    close: async () => {},
  };
}

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} must be a positive integer`);
  return n;
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

async function openAdmin(values: { redis?: string; file?: string; namespace?: string }): Promise<KeyAdmin> {
  const file = values.file ?? (values.redis ? undefined : process.env.API_KEYS_FILE);
  // Without --redis or --file: the server's own variables (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS).
  const redis = values.redis ? { url: values.redis } : values.file ? undefined : readRedisTarget(process.env);
  if (redis) {
    const stores = createRedisStores({ ...redis, ...(values.namespace ? { namespace: values.namespace } : {}) });
    const reachable = await Promise.race([
      stores.connection.connected.then(() => stores.connection.isReady()),
      new Promise<false>((resolve) => setTimeout(resolve, 3000, false).unref()),
    ]);
    if (!reachable) {
      await stores.close();
      throw new Error('Redis is not reachable');
    }
    return storeAdmin(stores.keyStore);
  }
  if (file) {
    // A mistyped path must not start a key file the server never reads.
    if (!existsSync(file)) throw new Error(`key file ${file} does not exist; create it first (e.g. echo '[]' > ${file})`);
    return fileAdmin(file);
  }
  throw new Error('no key store: pass --redis URL or --file PATH (or set REDIS_URL or API_KEYS_FILE)');
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
  if (['revoke', 'expire', 'remove'].includes(command) && !ref) throw new Error(`${command} needs a key id or key`);
  if (command === 'create' && values.scope === undefined) throw new Error('create needs --scope all|pdf|png');

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
          ...(values.expires !== undefined && { expiresAt: values.expires }),
          ...(rps !== undefined && { requestsPerSecond: rps }),
          ...(pages !== undefined && { pagesPerDay: pages }),
          ...(values.org !== undefined && { organization: values.org }),
        });
        const stored = await admin.create(record);
        console.log(`key: ${key}`);
        console.log(`id: ${stored.id}`);
        break;
      }
      case 'list': {
        const keys = await admin.list();
        if (values.json) console.log(JSON.stringify(keys.map(({ hash: _hash, ...k }) => k), null, 2));
        else for (const k of keys) console.log(formatKey(k));
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
