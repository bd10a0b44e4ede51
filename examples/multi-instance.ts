// Two instances sharing one Redis: keys and limits (requests per second, pages per day) hold across both.
//   REDIS_URL=redis://127.0.0.1:6379 node dist/examples/multi-instance.js
// then send requests to ports 3101 and 3102 with the printed key: the limits count them together.

import express from 'express';
import { createLegacyRouter, createRedisStores, generateKey, LEGACY_MOUNT_PATH } from '../middleware/index.js';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ports = [3101, 3102];

const instances = ports.map((port) => {
  // In production each instance is its own process or machine; only REDIS_URL (and the namespace) is shared.
  const stores = createRedisStores({ url, namespace: 'zpl-example', log: (m) => console.error(`[${port}] ${m}`) });
  const app = express();
  const legacy = createLegacyRouter({ ...stores, organizationRequestsPerSecond: 20 });
  app.use(LEGACY_MOUNT_PATH, legacy);
  const server = app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
  return { stores, server, legacy };
});

const admin = instances[0]!.stores;
await admin.ready;
const key = generateKey();
await admin.keyStore.add({ key, scope: 'all', requestsPerSecond: 2, pagesPerDay: 10, organization: 'example' });
console.log(`API key (2 requests/s, 10 pages/day across both instances): ${key}`);

process.on('SIGINT', () => {
  for (const { stores, server, legacy } of instances) server.close(() => void legacy.close().then(() => stores.close()));
});
