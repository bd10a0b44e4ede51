// zpl-keys opens its store through the backend table (server/store-backends.ts), as the server does: one flag per
// backend (--redis, --database) or the server's variables, the namespace from --namespace, STORE_NAMESPACE or
// REDIS_NAMESPACE (its alias), and the same errors as the server for two stores at once.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectRedis } from '../middleware/stores/redis/connection.js';
import { storeNames } from '../middleware/stores/store-names.js';
import { REDIS_URL, requireRedis, uniqueNamespace } from './helpers/http-redis.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist', 'bin', 'zpl-keys.js');
/** No store variable of the environment the tests run in leaks into a command. */
const CLEAN = {
  REDIS_URL: '',
  REDIS_CLUSTER_NODES: '',
  REDIS_SENTINELS: '',
  DATABASE_URL: '',
  API_KEYS_FILE: '',
  STORE_NAMESPACE: '',
  REDIS_NAMESPACE: '',
};

function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, ...CLEAN, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe('zpl-keys: stores through the backend table', function () {
  this.timeout(30_000);

  it('refuses two stores at once, naming both, and a bad --database URL', async () => {
    // A bad command line is exit status 2, a bad variable 1 (as the server's start-up).
    for (const [args, env, message, status] of [
      [
        ['--redis', 'redis://127.0.0.1:6379', '--database', 'postgres://127.0.0.1/labels', 'list'],
        {},
        'ERROR: --redis and --database name two key stores; pass one',
        2,
      ],
      [
        ['--database', 'postgres://127.0.0.1/labels', '--file', 'keys.json', 'list'],
        {},
        'ERROR: --database and --file name two key stores; pass one',
        2,
      ],
      [
        ['--database', 'mysql://127.0.0.1/labels', 'list'],
        {},
        'ERROR: --database must be a postgres:// or postgresql:// URL',
        2,
      ],
      [
        ['list'],
        { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://127.0.0.1/labels' },
        'ERROR: REDIS_URL and DATABASE_URL cannot both be set: choose one store',
        1,
      ],
      [
        ['list'],
        { STORE_NAMESPACE: 'a', REDIS_NAMESPACE: 'b', REDIS_URL: 'redis://127.0.0.1:6379' },
        'ERROR: STORE_NAMESPACE (a) and REDIS_NAMESPACE (b) differ',
        1,
      ],
      [['list'], {}, 'ERROR: no key store: pass --redis URL, --database URL or --file PATH', 2],
    ] as const) {
      const result = await cli([...args], env);
      expect(result.code, args.join(' ')).to.equal(status);
      expect(result.stderr, args.join(' ')).to.contain(message);
    }
  });

  describe('against Redis', () => {
    before(async function () {
      await requireRedis(this);
    });

    for (const variable of ['STORE_NAMESPACE', 'REDIS_NAMESPACE'] as const) {
      it(`keeps the keys it creates under ${variable}'s namespace`, async () => {
        const namespace = uniqueNamespace();
        const connection = connectRedis({ url: REDIS_URL });
        try {
          await connection.connected;
          const created = await cli(['--redis', REDIS_URL, 'create', '--scope', 'png'], { [variable]: namespace });
          expect(created.code, created.stderr).to.equal(0);
          const id = /^id: (\S+)$/m.exec(created.stdout)![1]!;
          const listed = await cli(['list'], { REDIS_URL, [variable]: namespace });
          expect(listed.stdout).to.match(new RegExp(`^${id}  scope=png`));
          const names = storeNames(namespace);
          // Besides the record: its id index entry (key-store.ts), and after a removal only the tombstone.
          const written = await connection.client.keys(`${names.keys}::*`);
          const records = written.filter((name) => !name.startsWith(`${names.keys}::id:`));
          expect(records).to.have.length(1);
          expect(records[0]!.startsWith(names.keyRecord(id))).to.equal(true);
          expect(written.filter((name) => name.startsWith(`${names.keys}::id:${id}`))).to.have.length(1);
          await cli(['--redis', REDIS_URL, '--namespace', namespace, 'remove', id]);
          const left = await connection.client.keys(`${namespace}:*`);
          expect(left.map((name) => name.slice(0, `${names.keys}::removed:`.length))).to.deep.equal([
            `${names.keys}::removed:`,
          ]);
        } finally {
          const left = await connection.client.keys(`${namespace}:*`);
          if (left.length > 0) await connection.client.del(left);
          await connection.close();
        }
      });
    }
  });
});
