// The standalone server behind `npm start`: the legacy router on /compatibility/legacy/v1.

import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  createLegacyRouter,
  createMemoryStores,
  createRedisStores,
  generateKey,
  LEGACY_MOUNT_PATH,
  loadKeyFile,
  seedKeys,
  type KeyRecord,
  type Stores,
} from '../middleware/index.js';
import { readServerConfig } from './config.js';

const log = (message: string): void => console.error(message);

async function main(): Promise<void> {
  const config = readServerConfig();

  const records: KeyRecord[] = config.apiKeysFile ? await loadKeyFile(config.apiKeysFile) : [];
  if (!config.apiKeysFile) {
    const key = generateKey('zpl_dev_');
    records.push({ key, scope: 'all' });
    console.log(`dev API key: ${key}`);
  }

  let stores: Stores;
  if (config.redisUrl) {
    const redis = createRedisStores({ url: config.redisUrl, log });
    stores = redis;
    // Keys are seeded once Redis answers; until then requests get 503, not a hang.
    redis.connection.connected
      .then(() => seedKeys(redis.keyStore, records))
      .catch((err: unknown) => log(`seeding API keys failed: ${(err as Error).message}`));
  } else {
    stores = createMemoryStores();
    await seedKeys(stores.keyStore, records);
  }

  const app = express();
  app.disable('x-powered-by');
  const { mode, ...upstream } = config.upstream;
  const legacy = createLegacyRouter({
    ...stores,
    log,
    mode,
    ...(upstream.url !== undefined && { upstream: { ...upstream, url: upstream.url } }),
    shadow: config.shadow,
  });
  app.use(LEGACY_MOUNT_PATH, legacy);
  if (mode !== 'off') log(`UPSTREAM_MODE=${mode}: legacy service at ${redactUrl(upstream.url!)}`);

  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    console.log(`listening on http://${config.host}:${port}`);
  });
  server.on('error', (err) => {
    log(`server error: ${err.message}`);
    process.exit(1);
  });
  // Requests Node's HTTP parser rejects (a URL or headers over ~16 KB, garbage) still get an `ERROR: ` text.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    const tooLong = err.code === 'HPE_HEADER_OVERFLOW';
    const body = tooLong ? 'ERROR: Request URL or headers are too long; send long labels with POST\n' : 'ERROR: Bad request\n';
    socket.end(`HTTP/1.1 ${tooLong ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n`
      + `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    server.close(() => {
      Promise.all([legacy.close(), stores.close()]).finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref(); // in-flight renders get 10 s
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** The URL without credentials, for the log. */
function redactUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

main().catch((err: unknown) => {
  console.error(`ERROR: ${(err as Error).message}`);
  process.exit(1);
});
