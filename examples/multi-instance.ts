// Two instances sharing one Redis: keys and limits (requests per second, pages per day) hold across both.
//   REDIS_URL=redis://127.0.0.1:6379 PORT=3101 node dist/examples/multi-instance.js
// then send requests to ports PORT and PORT+1 (default 3101 and 3102; PORT=0 picks two free ports) with the
// printed key: the limits count them together. The key expires after an hour, record and all.

import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLegacyRouter, createRedisStores, generateKey, LEGACY_MOUNT_PATH } from '../index.js';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const basePort = Number(process.env.PORT || 3101);
const ports = basePort === 0 ? [0, 0] : [basePort, basePort + 1];

const instances = ports.map((port) => {
  // In production each instance is its own process or machine; only REDIS_URL (and the namespace) is shared.
  const stores = createRedisStores({ url, namespace: 'zpl-example', log: (m) => console.error(`[${port}] ${m}`) });
  const app = express();
  const legacy = createLegacyRouter({ ...stores, organizationRequestsPerSecond: 20 });
  app.use(LEGACY_MOUNT_PATH, legacy);
  const server = app.listen(port, '127.0.0.1', (err?: Error) => {
    if (err) {
      console.error(`ERROR: cannot listen on port ${port}: ${err.message}`);
      process.exit(1);
    }
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  return { stores, server, legacy };
});

const admin = instances[0]!.stores;
await admin.ready;
const key = generateKey();
// An example key in a shared Redis: it expires (and its record goes) after an hour, so runs leave nothing behind.
const HOUR_MS = 3600_000;
await admin.keyStore.add(
  {
    key,
    scope: 'all',
    requestsPerSecond: 2,
    pagesPerDay: 10,
    organization: 'example',
    expiresAt: new Date(Date.now() + HOUR_MS).toISOString(),
  },
  { ttlMs: HOUR_MS },
);
console.log(`API key (2 requests/s, 10 pages/day across both instances): ${key}`);

process.on('SIGINT', () => {
  for (const { stores, server, legacy } of instances)
    server.close(() => void legacy.close().then(() => stores.close()));
});
