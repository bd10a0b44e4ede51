// Mounting the legacy router inside an application you already have.
//   node dist/examples/mount-in-existing-app.js   (then see README for a curl call)

import express from 'express';
import { createLegacyRouter, createMemoryStores, LEGACY_MOUNT_PATH } from '../middleware/index.js';

const app = express();
app.get('/health', (_req, res) => {
  res.json({ ok: true });
});

const stores = createMemoryStores();
await stores.keyStore.add({ key: 'k_example_123', scope: 'all', requestsPerSecond: 5, pagesPerDay: 1000, organization: 'acme' });

// Your own middleware (logging, CORS, ...) can run first; the router reads the raw body itself, so mount
// it before any body parser that would form-decode the ZPL (one that did gets a 500 naming the fault).
const legacy = createLegacyRouter({ ...stores, maxBodyBytes: 2 * 1024 * 1024, maxLabels: 100 });
app.use(LEGACY_MOUNT_PATH, legacy);

const server = app.listen(3001, '127.0.0.1', () => console.log('listening on http://127.0.0.1:3001'));
// The router stops the workers it started; the stores are ours to close. Then the process exits by itself.
process.on('SIGTERM', () => server.close(() => void legacy.close().then(() => stores.close())));
