// The standalone server's environment: every bad value is a start-up error naming its variable, numbers are
// decimal integers only, and LEGACY_CLIENTS turns on what unchanged legacy clients need and nothing else.

import { expect } from 'chai';
import { join } from 'node:path';
import { readServerConfig } from '../server/config.js';
import { spawnWatched } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'bin', 'zpl-server.js');

describe('standalone server environment', () => {
  it('names the variable of every bad value', () => {
    for (const [env, message] of [
      [{ PORT: '0x10' }, 'PORT must be a TCP port (0 to 65535), not 0x10'],
      [{ PORT: '1e3' }, 'PORT must be a TCP port (0 to 65535), not 1e3'],
      [{ PORT: '70000' }, 'PORT must be a TCP port (0 to 65535), not 70000'],
      [{ PORT: '-1' }, 'PORT must be a TCP port (0 to 65535), not -1'],
      [{ OPS_PORT: 'ops' }, 'OPS_PORT must be a TCP port (0 to 65535), not ops'],
      [{ MAX_BODY_BYTES: '1e6' }, 'MAX_BODY_BYTES must be a whole number of bytes above 0, not 1e6'],
      [{ MAX_BODY_BYTES: '1048576.0' }, 'MAX_BODY_BYTES must be a whole number of bytes above 0, not 1048576.0'],
      [{ MAX_LABELS: ' 0x20' }, 'MAX_LABELS must be a whole number above 0, not  0x20'],
      [{ RENDER_THREADS: '2.5' }, 'RENDER_THREADS must be a whole number of threads'],
      [{ SHUTDOWN_DELAY_MS: '5s' }, 'SHUTDOWN_DELAY_MS must be a whole number of milliseconds, not 5s'],
      [{ SHUTDOWN_TIMEOUT_MS: '0b11' }, 'SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds, not 0b11'],
      [{ SHADOW_SAMPLE_RATE: '1e-1' }, 'SHADOW_SAMPLE_RATE must be a share between 0 and 1, not 1e-1'],
      [
        { REDIS_URL: 'notaurl' },
        'REDIS_URL must be a redis:// or rediss:// URL like redis://127.0.0.1:6379, not notaurl',
      ],
      [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
      [
        { REDIS_URL: 'redis://user:secret@' },
        'REDIS_URL must be a redis:// or rediss:// URL like redis://127.0.0.1:6379, not redis://user:***@',
      ],
      [
        { UPSTREAM_MODE: 'proxy', UPSTREAM_URL: 'api.labelary.com/v1' },
        "UPSTREAM_URL must be the legacy service's http(s) base URL",
      ],
      [{ REDIS_NAMESPACE: 'a b' }, "REDIS_NAMESPACE must be 1 to 63 letters, digits, '.', '_', ':' or '-', not a b"],
      [{ STORE_NAMESPACE: 'x'.repeat(64) }, 'STORE_NAMESPACE must be 1 to 63 letters'],
      [
        { STORE_NAMESPACE: 'prod', REDIS_NAMESPACE: 'staging' },
        'STORE_NAMESPACE (prod) and REDIS_NAMESPACE (staging) differ: set one',
      ],
      [{ LEGACY_CLIENTS: 'maybe' }, 'LEGACY_CLIENTS must be 1 or 0, not maybe'],
      // PostgreSQL refuses these schemas: said at start, not an endless `503 starting`.
      [
        { DATABASE_URL: 'postgres://127.0.0.1:5432/labels', STORE_NAMESPACE: 'pg_x' },
        'STORE_NAMESPACE: PostgreSQL reserves schema names starting with pg_',
      ],
      [
        { DATABASE_URL: 'postgres://127.0.0.1:5432/labels', REDIS_NAMESPACE: 'information_schema' },
        'STORE_NAMESPACE: information_schema is a PostgreSQL system schema',
      ],
    ] as const) {
      expect(() => readServerConfig(env), JSON.stringify(env)).to.throw(message);
    }
  });

  it('reads decimal integers, and the new variables', () => {
    const config = readServerConfig({
      PORT: '8080',
      OPS_PORT: '9090',
      MAX_BODY_BYTES: '1000000',
      SHUTDOWN_DELAY_MS: '0',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_NAMESPACE: 'zpl-staging',
    });
    expect(config).to.deep.include({ port: 8080, opsPort: 9090, shutdownDelayMs: 0, storeNamespace: 'zpl-staging' });
    expect(config.fleet.store.target).to.deep.equal({ url: 'redis://127.0.0.1:6379' });
    expect(readServerConfig({ STORE_NAMESPACE: 'zpl-prod', REDIS_NAMESPACE: 'zpl-prod' }).storeNamespace).to.equal(
      'zpl-prod',
    );
    expect(config.limits.maxBodyBytes).to.equal(1_000_000);
    expect(readServerConfig({}).shutdownDelayMs).to.equal(5000);
    expect(readServerConfig({})).to.not.have.property('opsPort');
  });

  it('LEGACY_CLIENTS=1: /v1 beside the mount path, lenient paths, POST /graphics, POST /fonts and ?key=, never key-less access', () => {
    const on = readServerConfig({ LEGACY_CLIENTS: '1' }).clients;
    expect(on).to.deep.equal({
      legacyPaths: ['/compatibility/legacy/v1', '/v1'],
      allowQueryKey: true,
      lenientPaths: true,
      graphicsEndpoint: true,
      fontsEndpoint: true,
      legacyClients: true,
      outputs: [], // the extra outputs are a switch of their own (EXTRA_OUTPUTS)
    });
    expect(on).to.not.have.property('anonymousKey');
    expect(readServerConfig({ LEGACY_CLIENTS: '1', LEGACY_PATHS: '/api,/v1' }).clients.legacyPaths).to.deep.equal([
      '/api',
      '/v1',
    ]);
    const off = readServerConfig({}).clients;
    expect([
      off.legacyPaths,
      off.lenientPaths,
      off.graphicsEndpoint,
      off.fontsEndpoint,
      off.allowQueryKey,
    ]).to.deep.equal([['/compatibility/legacy/v1'], false, false, false, false]);
    expect(readServerConfig({ FONTS_ENDPOINT: '1' }).clients).to.deep.include({
      fontsEndpoint: true,
      graphicsEndpoint: false,
    });
  });

  it('a bad value stops the server with one ERROR line naming the variable', async () => {
    const server = spawnWatched(process.execPath, [SERVER], { PORT: '0x10', REDIS_URL: '', API_KEYS_FILE: '' });
    expect(await server.closed).to.equal(1);
    expect(server.lines).to.deep.equal(['ERROR: PORT must be a TCP port (0 to 65535), not 0x10']);
    const redis = spawnWatched(process.execPath, [SERVER], { PORT: '0', REDIS_URL: 'notaurl', API_KEYS_FILE: '' });
    expect(await redis.closed).to.equal(1);
    expect(redis.lines).to.deep.equal([
      'ERROR: REDIS_URL must be a redis:// or rediss:// URL like redis://127.0.0.1:6379, not notaurl',
    ]);
  });

  it('an ANONYMOUS_KEY_ID that matches no key stops a server whose keys are in memory', async () => {
    const server = spawnWatched(process.execPath, [SERVER], {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: '',
      API_KEYS_FILE: '',
      ANONYMOUS_KEY_ID: '0123456789abcdef',
    });
    expect(await server.closed).to.equal(1);
    expect(server.lines.at(-1)).to.equal(
      'ERROR: ANONYMOUS_KEY_ID 0123456789abcdef matches no key (ids as `npx zpl-keys list` prints them)',
    );
    expect(server.lines.some((l) => l.startsWith('listening on'))).to.equal(false);
  });
});
