// Key stores (their contract runs in store-contracts.test.ts on every backend), the key file, and the zpl-keys admin CLI.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import request from 'supertest';
import { createLegacyRouter, createRedisStores, LEGACY_MOUNT_PATH, loadKeyFile } from '../index.js';
import { hashKey } from '../middleware/keys/key-record.js';
import { Keyv } from 'keyv';
import { DEFAULT_FIND_CACHE_MS, KeyvKeyStore } from '../middleware/stores/key-store.js';
import type { StoredKey } from '../middleware/keys/key-record.js';
import { recordingRender } from './helpers/http-app.js';
import { eventually, freePort, REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist', 'bin', 'zpl-keys.js');

describe('key store look-ups cached briefly', () => {
  // Two stores over one backing map: the service's, and another process's (zpl-keys, a second instance).
  const open = (clock?: () => number): { service: KeyvKeyStore; admin: KeyvKeyStore } => {
    const shared = new Map();
    const keyv = (): Keyv<StoredKey> =>
      new Keyv<StoredKey>({ store: shared, namespace: 'zpl-keys', throwOnErrors: true });
    return { service: new KeyvKeyStore(keyv(), { ...(clock && { clock }) }), admin: new KeyvKeyStore(keyv()) };
  };

  it('a revocation made elsewhere takes effect within a second; one made through the store at once', async () => {
    let now = 0;
    const { service, admin } = open(() => now);
    await admin.add({ key: 'k_cached', scope: 'all' });
    expect((await service.find('k_cached'))?.revoked).to.equal(false);
    await admin.revoke('k_cached');
    now = 999;
    expect((await service.find('k_cached'))?.revoked, 'revoked elsewhere, 999 ms later').to.equal(true);
    await admin.update('k_cached', { revoked: false });
    now = 2000;
    expect((await service.find('k_cached'))?.revoked).to.equal(false);
    await service.revoke('k_cached');
    expect((await service.find('k_cached'))?.revoked, 'revoked through this store, no time passed').to.equal(true);
    await service.remove('k_cached');
    expect(await service.find('k_cached')).to.equal(undefined);
  });

  it('answers from the record it read within the cache time, and reads again after it', async () => {
    let now = 0;
    const { service, admin } = open(() => now);
    await admin.add({ key: 'k_scope', scope: 'all' });
    expect((await service.find('k_scope'))?.scope).to.equal('all');
    await admin.update('k_scope', { scope: 'pdf' });
    now = DEFAULT_FIND_CACHE_MS - 1;
    expect((await service.find('k_scope'))?.scope, 'still the record read at 0').to.equal('all');
    now = DEFAULT_FIND_CACHE_MS;
    expect((await service.find('k_scope'))?.scope).to.equal('pdf');
    const uncached = new KeyvKeyStore(new Keyv<StoredKey>({ store: new Map(), namespace: 'x', throwOnErrors: true }), {
      findCacheMs: 0,
      clock: () => 0,
    });
    await uncached.add({ key: 'k_now', scope: 'all' });
    await uncached.find('k_now');
    await uncached.add({ key: 'k_now', scope: 'png' });
    expect((await uncached.find('k_now'))?.scope).to.equal('png');
  });
});

describe('key file (API_KEYS_FILE)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zpl-keys-'));
  });

  it('reads the contract record format', async () => {
    const path = join(dir, 'keys.json');
    await writeFile(
      path,
      JSON.stringify([
        {
          key: 'k_live_123',
          scope: 'all',
          expiresAt: '2030-01-01T00:00:00Z',
          revoked: false,
          requestsPerSecond: 5,
          pagesPerDay: 1000,
          organization: 'acme',
        },
        { key: 'k2', scope: 'png' },
      ]),
    );
    expect(await loadKeyFile(path)).to.deep.equal([
      {
        key: 'k_live_123',
        scope: 'all',
        expiresAt: '2030-01-01T00:00:00.000Z',
        revoked: false,
        requestsPerSecond: 5,
        pagesPerDay: 1000,
        organization: 'acme',
      },
      { key: 'k2', scope: 'png' },
    ]);
  });

  it('names the file and record of a mistake', async () => {
    const notArray = join(dir, 'object.json');
    await writeFile(notArray, '{"key":"k"}');
    const badRecord = join(dir, 'bad.json');
    await writeFile(badRecord, '[{"key":"k","scope":"all"},{"key":"k2","scope":"jpeg"}]');
    const message = (path: string): Promise<string> =>
      loadKeyFile(path).then(
        () => '',
        (e: Error) => e.message,
      );
    expect(await message(notArray)).to.contain('must hold a JSON array');
    expect(await message(badRecord))
      .to.contain('record 1')
      .and.to.contain('"scope"');
    expect(await message(join(dir, 'missing.json'))).to.contain('cannot read key file');
  });

  it('refuses a misspelled field and a key listed twice, naming them', async () => {
    const misspelled = join(dir, 'misspelled.json');
    await writeFile(misspelled, '[{"key":"k_live_123","scope":"all","rps":5}]');
    const twice = join(dir, 'twice.json');
    await writeFile(
      twice,
      '[{"key":"k_live_123","scope":"all"},{"key":"k2","scope":"png"},{"key":"k_live_123","scope":"png"}]',
    );
    const message = (path: string): Promise<string> =>
      loadKeyFile(path).then(
        () => '',
        (e: Error) => e.message,
      );
    expect(await message(misspelled)).to.match(
      /record 0: unknown field "rps" \(fields: key, scope, expiresAt, revoked, requestsPerSecond, pagesPerDay, organization\)$/,
    );
    const duplicate = await message(twice);
    expect(duplicate).to.contain(`record 2: the same key as record 0 (id ${hashKey('k_live_123').slice(0, 16)})`);
    expect(duplicate, 'the key itself is never printed').to.not.contain('k_live_123');
  });
});

describe('zpl-keys CLI', function () {
  // Each case runs CLI processes and waits for each to exit; a loaded machine takes its time. The bound only ends a hang.
  this.timeout(180_000);

  it('creates, lists, revokes, expires and removes keys in a key file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zpl-keys-cli-'));
    const file = join(dir, 'keys.json');
    const cli = (...args: string[]) => run(process.execPath, [CLI, '--file', file, ...args]);
    await writeFile(file, '[]');

    const created = await cli('create', '--scope', 'pdf', '--org', 'acme', '--rps', '4', '--pages-per-day', '100');
    const key = /^key: (\S+)$/m.exec(created.stdout)![1]!;
    const id = /^id: ([0-9a-f]{16})$/m.exec(created.stdout)![1]!;
    expect(id).to.equal(hashKey(key).slice(0, 16));
    expect(JSON.parse(await readFile(file, 'utf8'))).to.deep.equal([
      { key, scope: 'pdf', requestsPerSecond: 4, pagesPerDay: 100, organization: 'acme' },
    ]);
    expect((await cli('list')).stdout).to.contain(
      `${id}  scope=pdf  org=acme  expires=never  revoked=false  rps=4  pages/day=100`,
    );
    expect((await cli('revoke', id)).stdout).to.contain('revoked=true');
    expect((await cli('expire', key, '--at', '2030-05-06T00:00:00Z')).stdout).to.contain(
      'expires=2030-05-06T00:00:00.000Z',
    );
    const keys = await loadKeyFile(file);
    expect(keys[0]).to.include({ revoked: true, expiresAt: '2030-05-06T00:00:00.000Z' });
    await cli('remove', id);
    expect(await loadKeyFile(file)).to.deep.equal([]);
  });

  it('update changes a key and --revoked false lifts a revocation', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zpl-keys-cli-'));
    const file = join(dir, 'keys.json');
    const cli = (...args: string[]) => run(process.execPath, [CLI, '--file', file, ...args]);
    await writeFile(file, '[]');
    expect((await cli('list')).stdout).to.equal(`no keys in key file ${file}\n`);
    const id = /^id: ([0-9a-f]{16})$/m.exec((await cli('create', '--scope', 'png')).stdout)![1]!;
    await cli('revoke', id);
    const updated = await cli(
      'update',
      id,
      '--revoked',
      'false',
      '--scope',
      'all',
      '--rps',
      '7',
      '--pages-per-day',
      '70',
      '--organization',
      'acme',
      '--expires',
      '2031-02-03T00:00:00Z',
    );
    expect(updated.stdout).to.contain(
      `${id}  scope=all  org=acme  expires=2031-02-03T00:00:00.000Z  revoked=false  rps=7  pages/day=70`,
    );
    expect((await cli('update', id, '--expires', 'never')).stdout).to.contain('expires=never');
    const [record] = await loadKeyFile(file);
    expect(record).to.include({
      scope: 'all',
      revoked: false,
      requestsPerSecond: 7,
      pagesPerDay: 70,
      organization: 'acme',
    });
    expect(record).to.not.have.property('expiresAt');
  });

  it('refuses a short --key, a past --expires, --file with --redis, and a misspelled update', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zpl-keys-cli-'));
    const file = join(dir, 'keys.json');
    await writeFile(file, '[]');
    const failure = (...args: string[]) =>
      run(process.execPath, [CLI, ...args]).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
    for (const [args, message] of [
      [
        ['--file', file, 'create', '--scope', 'all', '--key', 'x'],
        'ERROR: --key takes the key itself, at least 16 characters',
      ],
      [
        ['--file', file, 'create', '--scope', 'all', '--expires', '2020-01-01T00:00:00Z'],
        'ERROR: --expires 2020-01-01T00:00:00Z has already passed',
      ],
      [
        ['--file', file, '--redis', 'redis://127.0.0.1:6379', 'list'],
        'ERROR: --redis and --file name two key stores; pass one',
      ],
      [
        ['--file', file, 'update', '0123456789abcdef', '--revoked', 'no'],
        'ERROR: --revoked takes true or false, not no',
      ],
      [['--file', file, 'update', '0123456789abcdef'], 'ERROR: update needs at least one of'],
      [
        ['--file', file, 'update', '0123456789abcdef', '--expires', '2000-01-01'],
        'ERROR: --expires 2000-01-01 has already passed',
      ],
    ] as const) {
      const result = await failure(...args);
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.stderr, args.join(' ')).to.match(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    expect(JSON.parse(await readFile(file, 'utf8'))).to.deep.equal([]);
  });

  it('fails at once naming the URL when --redis has no server', async () => {
    const port = await freePort();
    const result = await run(process.execPath, [CLI, '--redis', `redis://127.0.0.1:${port}`, 'list']).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(
      new RegExp(`^ERROR: cannot reach Redis at redis://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
  });

  it('exits non-zero with an ERROR line on a mistake', async () => {
    const failure = await run(process.execPath, [
      CLI,
      '--file',
      '/nonexistent/dir/keys.json',
      'revoke',
      'abcdef0123',
    ]).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure?.code).to.equal(2);
    expect(failure?.stderr).to.match(/^ERROR: --file \/nonexistent\/dir\/keys.json does not exist/);
    const bogus = await run(process.execPath, [CLI, '--file', '/tmp/x.json', 'frobnicate']).then(
      () => undefined,
      (e: { code: number }) => e,
    );
    expect(bogus?.code).to.equal(2);
  });

  describe('against Redis', () => {
    before(async function () {
      await requireRedis(this);
    });

    it('manages the keys a running router reads: a created key works, a revoked one is refused', async () => {
      const namespace = uniqueNamespace();
      const cli = (...args: string[]) =>
        run(process.execPath, [CLI, '--redis', REDIS_URL, '--namespace', namespace, ...args]);
      const stores = createRedisStores({ url: REDIS_URL, namespace });
      try {
        await stores.connection.connected;
        const app = express();
        app.use(LEGACY_MOUNT_PATH, createLegacyRouter({ ...stores, render: recordingRender(), log: () => {} }));
        const path = `${LEGACY_MOUNT_PATH}/printers/8/labels/4x6/0`;

        const key = /^key: (\S+)$/m.exec((await cli('create', '--scope', 'all')).stdout)![1]!;
        expect((await request(app).post(path).set('X-API-Key', key).send('^XA^XZ')).status).to.equal(200);
        const stored = await stores.connection.client.keys(`${namespace}*`);
        const values = await Promise.all(stored.map((k) => stores.connection.client.get(k)));
        expect(JSON.stringify({ stored, values })).to.not.contain(key);

        await cli('revoke', key);
        // Revoked in another process: the router's store may answer from the record it read for up to
        // DEFAULT_FIND_CACHE_MS (that bound is tested on a fixed clock above); the revocation then holds.
        expect(
          await eventually(
            async () =>
              (await request(app).post(path).set('X-API-Key', key).send('^XA^XZ')).body.error === 'invalid_key',
          ),
        ).to.equal(true);
        await cli('expire', hashKey(key).slice(0, 16));
        expect((await cli('list')).stdout).to.contain('revoked=true');
        await cli('remove', key);
        expect((await cli('list')).stdout.trim()).to.match(
          new RegExp(`^no keys in Redis at redis://\\S+ \\(namespace ${namespace}\\)$`),
        );
      } finally {
        const leftovers = await stores.connection.client.keys(`${namespace}*`);
        if (leftovers.length > 0) await stores.connection.client.del(leftovers);
        await stores.close();
      }
    });
  });
});
