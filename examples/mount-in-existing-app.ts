// Mounting the legacy router inside an application you already have, with the operations routes beside it.
//   PORT=3001 node dist/examples/mount-in-existing-app.js   (PORT defaults to 3001; then see docs/mounting.md for curl calls)

import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  createEventSink,
  createLegacyRouter,
  createLogger,
  createMemoryStores,
  createOpsRouter,
  LEGACY_MOUNT_PATH,
  logEvents,
} from '../index.js';

const app = express();

const stores = createMemoryStores();
await stores.keyStore.add({
  key: 'k_example_123',
  scope: 'all',
  requestsPerSecond: 5,
  pagesPerDay: 1000,
  organization: 'acme',
});

// One event sink: the legacy router emits into it, your logger and the ops router's metrics listen.
const events = createEventSink();
logEvents(events, createLogger({ level: 'info' }));
app.use(createOpsRouter({ keyStore: stores.keyStore, events })); // /healthz, /readyz, /metrics, /openapi.json

// Your own middleware can run first; the router reads the raw body itself, so mount it before any body
// parser that would form-decode the ZPL (one that did gets a 500 naming the fault).
const legacy = createLegacyRouter({ ...stores, events, maxBodyBytes: 2 * 1024 * 1024, maxLabels: 100 });
app.use(LEGACY_MOUNT_PATH, legacy);

const server = app.listen(Number(process.env.PORT || 3001), '127.0.0.1', (err?: Error) => {
  if (err) {
    console.error(`ERROR: cannot listen: ${err.message}`);
    process.exit(1);
  }
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
// The router stops the workers it started; the stores are ours to close. Then the process exits by itself.
process.on('SIGTERM', () => server.close(() => void legacy.close().then(() => stores.close())));
