#!/usr/bin/env node
// zpl-keys: create, list, revoke and expire API keys in the server's store (Redis, PostgreSQL: any shared backend of
// server/store-backends.ts) or in a key file (API_KEYS_FILE).

import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readStoreNamespace } from '../server/config.js';
import { DEFAULT_STORE_NAMESPACE } from '../middleware/index.js';
import {
  openSelectedStore,
  selectStore,
  storeFromFlag,
  STORE_BACKENDS,
  type SelectedStore,
} from '../server/store-backends.js';
import {
  generateKey,
  hashKey,
  toStoredKey,
  validateKeyRecord,
  type KeyRecord,
  type StoredKey,
} from '../middleware/keys/key-record.js';
import type { KeyChanges, KeyStore } from '../middleware/stores/key-store.js';
import { changeKeyFile, loadKeyFile } from '../middleware/keys/key-file.js';

const USAGE = `usage: zpl-keys [--redis URL | --database URL | --file PATH] <command> [options]

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
       name them) or --database URL (default $DATABASE_URL, a postgres:// URL), with --namespace NAME (default
       $STORE_NAMESPACE or $REDIS_NAMESPACE, else zpl), or --file PATH (default $API_KEYS_FILE), the JSON key file
       the server seeds from.`;

/** A key given with --key must not be guessable: a hand-typed key this short is. */
const MIN_KEY_LENGTH = 16;
/** How long a store may take to answer before the command gives up (it fails at once when refused). */
const STORE_CONNECT_MS = 3000;

/** The store flags, one per backend that names one (--redis, --database). */
const STORE_FLAGS = STORE_BACKENDS.flatMap((b) => (b.keysFlag === undefined ? [] : [b.keysFlag]));

/** The operations every admin target offers; every store backend and the key file implement them. */
interface KeyAdmin {
  /** What the commands work on, for messages. */
  description: string;
  create(record: KeyRecord): Promise<StoredKey>;
  list(): Promise<StoredKey[]>;
  update(ref: string, changes: KeyChanges): Promise<StoredKey | undefined>;
  remove(ref: string): Promise<boolean>;
  close(): Promise<void>;
}

function storeAdmin(store: KeyStore, description: string): KeyAdmin {
  return {
    description,
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
    description: `key file ${path}`,
    create: (record) =>
      changeKeyFile(path, (records) => {
        const same = records.findIndex((r) => r.key === record.key);
        if (same >= 0) records.splice(same, 1);
        records.push(record);
        return describe(record);
      }),
    async list() {
      return (await loadKeyFile(path)).map(describe);
    },
    update: (ref, changes) =>
      changeKeyFile(path, (records) => {
        const i = find(records, ref);
        if (i < 0) return undefined;
        const updated: Record<string, unknown> = { ...records[i], ...changes };
        for (const field of Object.keys(updated)) if (updated[field] === undefined) delete updated[field];
        records[i] = validateKeyRecord(updated);
        return describe(records[i]!);
      }),
    remove: (ref) =>
      changeKeyFile(path, (records) => {
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
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${flag} must be a positive integer (decimal digits), not ${value}`);
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
    throw new Error(
      'update needs at least one of --scope, --rps, --pages-per-day, --organization, --expires, --revoked',
    );
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

/** A store's keys once it answers; a refused or silent store is an error naming it, at once. */
async function openStoreAdmin(selected: SelectedStore, namespace: string | undefined): Promise<KeyAdmin> {
  let failure: (message: string) => void = () => {};
  const failed = new Promise<string>((resolve) => {
    failure = resolve;
  });
  const stores = openSelectedStore(selected, {
    ...(namespace ? { namespace } : {}),
    log: (message) => failure(message),
  });
  const timer = setTimeout(failure, STORE_CONNECT_MS, `no answer within ${STORE_CONNECT_MS} ms`);
  const outcome = await Promise.race([stores.connected.then(() => undefined), failed]);
  clearTimeout(timer);
  if (outcome !== undefined || !stores.isReady()) {
    await stores.close();
    throw new Error(`cannot reach ${stores.description}: ${(outcome ?? 'not ready').replace(/^.* unavailable: /, '')}`);
  }
  return storeAdmin(stores.keyStore, `${stores.description} (namespace ${namespace ?? DEFAULT_STORE_NAMESPACE})`);
}

type StoreFlags = { file?: string; namespace?: string } & Record<string, string | boolean | undefined>;

async function openAdmin(values: StoreFlags): Promise<KeyAdmin> {
  const given = [...STORE_FLAGS, 'file'].filter((flag) => values[flag] !== undefined);
  if (given.length > 1) throw new Error(`${given.map((f) => `--${f}`).join(' and ')} name two key stores; pass one`);
  // A key file has no namespace: the variables are read only for a store.
  const namespace = (): string | undefined => values.namespace ?? readStoreNamespace(process.env);
  const flag = STORE_FLAGS.find((f) => values[f] !== undefined);
  if (flag !== undefined) return openStoreAdmin(storeFromFlag(flag, values[flag] as string), namespace());
  if (values.file === undefined) {
    // Without a flag: the server's own variables (REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS, DATABASE_URL).
    const selected = selectStore(process.env);
    if (selected.backend.shared) return openStoreAdmin(selected, namespace());
  }
  const file = values.file ?? process.env.API_KEYS_FILE;
  if (file) {
    // A mistyped path must not start a key file the server never reads.
    if (!existsSync(file))
      throw new Error(`key file ${file} does not exist; create it first (e.g. echo '[]' > ${file})`);
    return fileAdmin(file);
  }
  throw new Error(
    `no key store: pass ${STORE_FLAGS.map((f) => `--${f} URL`).join(', ')} or --file PATH (or set ${STORE_BACKENDS.filter(
      (b) => b.keysFlag,
    )
      .map((b) => b.variable)
      .join(', ')} or API_KEYS_FILE)`,
  );
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...Object.fromEntries(STORE_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
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
  if (['update', 'revoke', 'expire', 'remove'].includes(command) && !ref)
    throw new Error(`${command} needs a key id or key`);
  if (command === 'create' && values.scope === undefined) throw new Error('create needs --scope all|pdf|png');
  if (command === 'create' && values.key !== undefined && values.key.length < MIN_KEY_LENGTH) {
    throw new Error(`--key must be at least ${MIN_KEY_LENGTH} characters (or leave it out for a random key)`);
  }
  const changes = command === 'update' ? updateChanges(values) : undefined;
  const expires =
    command === 'create' && values.expires !== undefined ? futureDate(values.expires, '--expires') : undefined;

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
        if (values.json)
          console.log(
            JSON.stringify(
              keys.map(({ hash: _hash, ...k }) => k),
              null,
              2,
            ),
          );
        else if (keys.length === 0) console.log(`no keys in ${admin.description}`);
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
