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
  const devKey = config.apiKeysFile ? undefined : developmentKey(config.redisUrl !== undefined);

  let stores: Stores;
  if (config.redisUrl) {
    const redis = createRedisStores({ url: config.redisUrl, log });
    stores = redis;
    // Keys are seeded once Redis answers; until then requests get 503, not a hang.
    redis.connection.connected
      .then(async () => {
        await seedKeys(redis.keyStore, records);
        if (devKey) await redis.keyStore.add(devKey, { ttlMs: DEV_KEY_TTL_MS });
        log(`API keys stored in Redis: ${records.length + (devKey ? 1 : 0)}`);
      })
      .catch((err: unknown) => log(`seeding API keys failed: ${(err as Error).message}`));
  } else {
    stores = createMemoryStores();
    await seedKeys(stores.keyStore, devKey ? [...records, devKey] : records);
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

  const server = app.listen(config.port, config.host, (err?: Error) => {
    if (err) {
      console.error(`ERROR: ${listenFailure(err as NodeJS.ErrnoException, config.host, config.port)}`);
      process.exit(1);
    }
    const { port } = server.address() as AddressInfo;
    if (devKey) {
      console.log(`dev API key: ${devKey.key}`);
      if (devKey.expiresAt) log(`the dev API key is stored in Redis until ${devKey.expiresAt}; set API_KEYS_FILE for lasting keys`);
    }
    console.log(`listening on http://${config.host}:${port}`);
  });
  server.on('error', (err) => {
    if (!server.listening) return; // a failed listen is reported above
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
    // Stop listening first, so that once the line below is printed no new connection is accepted.
    server.close(() => {
      Promise.all([legacy.close(), stores.close()]).finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    log(`${signal}: shutting down`);
    setTimeout(() => process.exit(0), config.shutdownTimeoutMs).unref(); // in-flight requests get this long
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** The dev key of a shared Redis outlives the process, so it expires (record and all) instead of piling up. */
const DEV_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A random all-scope key for a start without API_KEYS_FILE; in Redis it expires after DEV_KEY_TTL_MS. */
function developmentKey(inRedis: boolean): KeyRecord {
  const record: KeyRecord = { key: generateKey('zpl_dev_'), scope: 'all' };
  if (inRedis) record.expiresAt = new Date(Date.now() + DEV_KEY_TTL_MS).toISOString();
  return record;
}

/** One line for a listen that failed: the cause a newcomer can act on, never a stack trace. */
function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'EADDRINUSE': return `port ${port} is already in use`;
    case 'EACCES': return `no permission to listen on port ${port}`;
    case 'EADDRNOTAVAIL': return `cannot listen on ${host}: no such local address`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `cannot listen on ${host}: unknown host`;
    default: return `cannot listen on ${host}:${port}: ${err.message}`;
  }
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
