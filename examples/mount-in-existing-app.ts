// Mounting the legacy router inside an application you already have, with the operations routes beside it.
//   node dist/examples/mount-in-existing-app.js   (then see README for a curl call)

import express from 'express';
import {
  createEventSink,
  createLegacyRouter,
  createLogger,
  createMemoryStores,
  createOpsRouter,
  LEGACY_MOUNT_PATH,
  logEvents,
} from '../middleware/index.js';

const app = express();

const stores = createMemoryStores();
await stores.keyStore.add({ key: 'k_example_123', scope: 'all', requestsPerSecond: 5, pagesPerDay: 1000, organization: 'acme' });

// One event sink: the legacy router emits into it, your logger and the ops router's metrics listen.
const events = createEventSink();
logEvents(events, createLogger({ level: 'info' }));
app.use(createOpsRouter({ keyStore: stores.keyStore, events })); // /healthz, /readyz, /metrics, /openapi.json

// Your own middleware can run first; the router reads the raw body itself, so mount it before any body
// parser that would consume or form-decode the ZPL.
app.use(LEGACY_MOUNT_PATH, createLegacyRouter({ ...stores, events, maxBodyBytes: 2 * 1024 * 1024, maxLabels: 100 }));

const server = app.listen(3001, '127.0.0.1', () => console.log('listening on http://127.0.0.1:3001'));
process.on('SIGTERM', () => server.close(() => void stores.close()));
