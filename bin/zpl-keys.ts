#!/usr/bin/env node
// zpl-keys: create, list, revoke and expire API keys in the server's store (Redis, PostgreSQL: any shared backend of
// server/store-backends.ts) or in a key file (API_KEYS_FILE).

import { existsSync } from 'node:fs';
import { readStoreNamespace } from '../server/config.js';
import { DEFAULT_STORE_NAMESPACE, STORE_NAMESPACE_PATTERN } from '../middleware/index.js';
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
import {
  answeredHelpOrVersion,
  badValue,
  parseCommandLine,
  reportedUsageError,
  shown,
  UsageError,
  type FlagSpec,
} from './cli-args.js';

/** A key given with --key must not be guessable: a hand-typed key this short is. */
const MIN_KEY_LENGTH = 16;
/** How long a store may take to answer before the command gives up (it fails at once when refused). */
const STORE_CONNECT_MS = 3000;

/** The store flags, one per backend that names one (--redis, --database), each taking the backend's URL. */
const STORE_FLAGS = STORE_BACKENDS.flatMap((b) => (b.keysFlag === undefined ? [] : [b.keysFlag]));
/** The store variables zpl-keys reads when no flag names a store, as the server reads them. */
const STORE_VARIABLES = STORE_BACKENDS.flatMap((b) =>
  b.variable === undefined ? [] : [b.variable, ...(b.companions ?? [])],
);

const ISO_DATE = 'an ISO 8601 date like 2030-01-01T00:00:00Z';

/** Every flag and what its value is: the usage and every error about a flag say the same. */
const FLAGS: Record<string, FlagSpec> = {
  ...Object.fromEntries(
    STORE_FLAGS.map((flag) => [flag, { takes: `a ${flag === 'redis' ? 'redis://' : 'postgres://'} URL` }]),
  ),
  file: { takes: 'the path of an existing JSON key file' },
  namespace: { takes: "1 to 63 letters, digits, '.', '_', ':' or '-'" },
  scope: { takes: 'all, pdf or png' },
  key: { takes: `the key itself, at least ${MIN_KEY_LENGTH} characters` },
  expires: { takes: `${ISO_DATE} still to come (or never, with update)` },
  at: { takes: ISO_DATE },
  rps: { takes: 'a positive whole number (requests per second)' },
  'pages-per-day': { takes: 'a positive whole number' },
  org: { takes: 'an organization name' },
  organization: { takes: 'an organization name' },
  revoked: { takes: 'true or false' },
  json: {},
  help: { short: 'h' },
  version: {},
};

/** The commands, whether they name a key, and the flags each takes besides the store flags. */
const COMMANDS: Record<string, { ref: boolean; flags: readonly string[] }> = {
  create: { ref: false, flags: ['scope', 'key', 'expires', 'rps', 'pages-per-day', 'org', 'organization'] },
  list: { ref: false, flags: ['json'] },
  update: { ref: true, flags: ['scope', 'rps', 'pages-per-day', 'organization', 'org', 'expires', 'revoked'] },
  revoke: { ref: true, flags: [] },
  expire: { ref: true, flags: ['at'] },
  remove: { ref: true, flags: [] },
};
const STORE_OPTIONS = [...STORE_FLAGS, 'file', 'namespace'];

const USAGE = `usage: zpl-keys [--redis URL | --database URL | --file PATH] [--namespace NAME] <command> [options]

commands:
  create  --scope all|pdf|png [--key VALUE] [--expires ISO-DATE] [--rps N] [--pages-per-day N] [--org NAME]
          prints the new key once. A store (Redis, PostgreSQL) keeps only its SHA-256; a key file keeps the key
          itself (it is the server's seed: keep it mode 600). --key sets the key (at least ${MIN_KEY_LENGTH} characters)
          instead of a random one; --organization is --org's long name
  list    [--json]                 every key: id, scope, organization, expiry, revoked, limits
  update  <id|key> [--scope S] [--rps N] [--pages-per-day N] [--organization O] [--expires ISO-DATE|never]
          [--revoked true|false]   changes a key; --revoked false lifts a revocation
  revoke  <id|key>                 the key is refused from now on (401 invalid_key)
  expire  <id|key> [--at ISO-DATE] the key expires at that instant (default now; 401 key_expired)
  remove  <id|key>                 deletes the key

store (one of):
  --redis URL      a Redis (redis:// or rediss://)
  --database URL   a PostgreSQL (postgres:// or postgresql://)
  --file PATH      the JSON key file the server seeds from (API_KEYS_FILE); it must exist: echo '[]' > keys.json
  Without a flag, the store the server's own variables name (at most one):
    ${STORE_VARIABLES.join(', ')}; else the file API_KEYS_FILE names.
  --namespace NAME: the store's namespace (default $STORE_NAMESPACE or $REDIS_NAMESPACE, else ${DEFAULT_STORE_NAMESPACE});
    a key file has none.

options
  -h, --help       this text
  --version        the package version

Exit status: 0 done, 1 the store or file could not be used or no key matches, 2 a bad command line.`;

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
  if (!Number.isInteger(n) || n <= 0) throw badValue(flag, FLAGS[flag.slice(2)]!.takes!, value);
  return n;
}

/** An expiry that has not passed yet (`expire` is the command that ends a key now). */
function futureDate(value: string, flag: string): string {
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw badValue(flag, ISO_DATE, value);
  if (at <= Date.now()) throw new UsageError(`${flag} ${value} has already passed; \`expire <id>\` ends a key now`);
  return new Date(at).toISOString();
}

function booleanFlag(value: string, flag: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw badValue(flag, FLAGS[flag.slice(2)]!.takes!, value);
}

function scopeFlag(value: string): KeyChanges['scope'] {
  if (!['all', 'pdf', 'png'].includes(value)) throw badValue('--scope', FLAGS.scope!.takes!, value);
  return value as KeyChanges['scope'];
}

type Values = Record<string, string | undefined>;

/** The changes `update` makes, from its flags; at least one. */
function updateChanges(values: Values): KeyChanges {
  const changes: KeyChanges = {};
  if (values.scope !== undefined) changes.scope = scopeFlag(values.scope);
  const rps = positiveInt(values.rps, '--rps');
  if (rps !== undefined) changes.requestsPerSecond = rps;
  const pages = positiveInt(values['pages-per-day'], '--pages-per-day');
  if (pages !== undefined) changes.pagesPerDay = pages;
  const organization = values.organization ?? values.org;
  if (organization !== undefined) changes.organization = organization === '' ? undefined : organization;
  const expires = values.expires;
  if (expires !== undefined) changes.expiresAt = expires === 'never' ? undefined : futureDate(expires, '--expires');
  if (values.revoked !== undefined) changes.revoked = booleanFlag(values.revoked, '--revoked');
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
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

/** What the commands work on, read from the flags (or the variables) before anything is opened. */
type AdminTarget = { kind: 'store'; selected: SelectedStore; namespace?: string } | { kind: 'file'; path: string };

/** A flag's value read through the store table: its error (`--redis must be a redis:// ... URL`) is a usage error. */
function storeFlag(flag: string, value: string): SelectedStore {
  try {
    return storeFromFlag(flag, value);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function adminTarget(values: Values): AdminTarget {
  const given = [...STORE_FLAGS, 'file'].filter((flag) => values[flag] !== undefined);
  if (given.length > 1)
    throw new UsageError(`${given.map((f) => `--${f}`).join(' and ')} name two key stores; pass one`);
  if (values.namespace !== undefined && !STORE_NAMESPACE_PATTERN.test(values.namespace))
    throw badValue('--namespace', FLAGS.namespace!.takes!, values.namespace);
  if (values.file !== undefined) {
    if (values.namespace !== undefined)
      throw new UsageError("--namespace names a store's namespace; a key file (--file) has none");
    // A mistyped path must not start a key file the server never reads.
    if (!existsSync(values.file))
      throw new UsageError(`--file ${shown(values.file)} does not exist; create it first: echo '[]' > ${values.file}`);
    return { kind: 'file', path: values.file };
  }
  // A key file has no namespace: the variables are read only for a store.
  const namespace = values.namespace ?? readStoreNamespace(process.env);
  const flag = STORE_FLAGS.find((f) => values[f] !== undefined);
  // Without a flag: the server's own variables (REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS, DATABASE_URL).
  const selected = flag !== undefined ? storeFlag(flag, values[flag]!) : selectStore(process.env);
  if (selected.backend.shared) return { kind: 'store', selected, ...(namespace !== undefined && { namespace }) };
  const file = process.env.API_KEYS_FILE;
  if (file) {
    if (!existsSync(file))
      throw new Error(`API_KEYS_FILE ${file} does not exist; create it first (e.g. echo '[]' > ${file})`);
    return { kind: 'file', path: file };
  }
  throw new UsageError(
    `no key store: pass ${STORE_FLAGS.map((f) => `--${f} URL`).join(', ')} or --file PATH (or set ${STORE_BACKENDS.filter(
      (b) => b.keysFlag,
    )
      .map((b) => b.variable)
      .join(', ')} or API_KEYS_FILE)`,
  );
}

function openAdmin(target: AdminTarget): Promise<KeyAdmin> {
  return target.kind === 'file'
    ? Promise.resolve(fileAdmin(target.path))
    : openStoreAdmin(target.selected, target.namespace);
}

/** One run of zpl-keys as the command line asks it, every flag read and checked. */
interface KeysCommand {
  command: string;
  ref?: string;
  values: Values;
  target: AdminTarget;
  /** `update`'s changes. */
  changes?: KeyChanges;
  /** `create`'s record, with a random key unless --key gave one. */
  record?: KeyRecord;
  /** `expire`'s instant. */
  at?: Date;
}

function parseKeysCommand(argv: string[]): KeysCommand {
  const { flags, positionals } = parseCommandLine('zpl-keys', argv, FLAGS);
  const values: Values = {};
  for (const [name, value] of flags) values[name] = value === true ? 'true' : value;
  const [command, ref, extra] = positionals;
  const names = Object.keys(COMMANDS);
  if (command === undefined) throw new UsageError(`a command is needed: ${names.join(', ')} (zpl-keys --help)`);
  const spec = COMMANDS[command];
  if (spec === undefined)
    throw new UsageError(`unknown command ${shown(command)}; the commands are ${names.join(', ')}`);
  if (spec.ref && !ref) throw new UsageError(`${command} needs a key id or the key itself`);
  const unexpected = spec.ref ? extra : ref;
  if (unexpected !== undefined)
    throw new UsageError(
      `unexpected argument ${shown(unexpected)}: ${command} takes ${spec.ref ? 'one key id or key' : 'no argument'}`,
    );
  for (const name of flags.keys()) {
    if (STORE_OPTIONS.includes(name) || spec.flags.includes(name)) continue;
    const takers = names.filter((c) => COMMANDS[c]!.flags.includes(name));
    throw new UsageError(
      `--${name} is not an option of ${command}${takers.length > 0 ? `; ${takers.join(' and ')} take${takers.length === 1 ? 's' : ''} it` : ''}`,
    );
  }
  if (values.org !== undefined && values.organization !== undefined && values.org !== values.organization)
    throw new UsageError('--org and --organization name two organizations; pass one');
  const parsed: KeysCommand = { command, ...(ref !== undefined && { ref }), values, target: adminTarget(values) };
  if (command === 'update') parsed.changes = updateChanges(values);
  if (command === 'expire' && values.at !== undefined) {
    parsed.at = new Date(values.at);
    if (Number.isNaN(parsed.at.getTime())) throw badValue('--at', ISO_DATE, values.at);
  }
  if (command === 'create') {
    if (values.scope === undefined) throw new UsageError(`create needs --scope: ${FLAGS.scope!.takes}`);
    if (values.key !== undefined && values.key.length < MIN_KEY_LENGTH)
      throw new UsageError(`--key takes ${FLAGS.key!.takes} (or leave it out for a random key)`);
    const rps = positiveInt(values.rps, '--rps');
    const pages = positiveInt(values['pages-per-day'], '--pages-per-day');
    const organization = values.org ?? values.organization;
    parsed.record = validateKeyRecord({
      key: values.key ?? generateKey(),
      scope: scopeFlag(values.scope),
      ...(values.expires !== undefined && { expiresAt: futureDate(values.expires, '--expires') }),
      ...(rps !== undefined && { requestsPerSecond: rps }),
      ...(pages !== undefined && { pagesPerDay: pages }),
      ...(organization !== undefined && { organization }),
    });
  }
  return parsed;
}

async function main(argv: string[]): Promise<void> {
  const { command, ref, values, target, changes, record, at } = parseKeysCommand(argv);
  const admin = await openAdmin(target);
  try {
    switch (command) {
      case 'create': {
        const stored = await admin.create(record!);
        console.log(`key: ${record!.key}`);
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
      case 'update':
      case 'revoke':
      case 'expire': {
        const change: KeyChanges =
          command === 'update'
            ? changes!
            : command === 'revoke'
              ? { revoked: true }
              : { expiresAt: (at ?? new Date()).toISOString() };
        const updated = await admin.update(ref!, change);
        if (!updated) throw new Error(`no key matches ${ref}`);
        console.log(formatKey(updated));
        break;
      }
      case 'remove':
        if (!(await admin.remove(ref!))) throw new Error(`no key matches ${ref}`);
        console.log(`removed ${ref}`);
        break;
    }
  } finally {
    await admin.close();
  }
}

const argv = process.argv.slice(2);
if (!answeredHelpOrVersion('zpl-keys', argv, USAGE)) {
  main(argv).catch((err: unknown) => {
    if (reportedUsageError(err)) return;
    console.error(`ERROR: ${(err as Error).message}`);
    process.exitCode = 1;
  });
}
