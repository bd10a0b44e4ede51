// A host process for the lifecycle test: an Express app with the router from the package entry, in shadow
// mode against a stand-in legacy service, renders one label in the default worker pool and waits for the
// shadow comparison (the compare worker); then `server.close()` and `router.close()`, and nothing else.
// It must exit by itself. It prints one JSON line: what it saw, and the resources still open.

import { existsSync, readdirSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  createLegacyRouter,
  createMemoryStores,
  LEGACY_MOUNT_PATH,
  renderPng,
  type ShadowOutcome,
} from '../../index.js';

const listening = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const closed = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** OS threads of this process (Linux), worker threads included; undefined elsewhere. */
const threads = (): number | undefined =>
  existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : undefined;

const ZPL = '^XA^FO10,10^GB50,50,25^FS^XZ';
// The legacy service: answers with the label as this package draws it (rendered inline: no worker).
const legacyPng = await renderPng(ZPL, { dpmm: 8, widthIn: 1, heightIn: 1 });
const legacy = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'image/png', 'X-Total-Count': '1' }).end(legacyPng);
});
const threadsBefore = threads();
const legacyPort = await listening(legacy);

const stores = createMemoryStores();
await stores.keyStore.add({ key: 'k_exit', scope: 'all' });
let settle: (outcome: ShadowOutcome) => void = () => {};
const settled = new Promise<ShadowOutcome>((resolve) => {
  settle = resolve;
});
const router = createLegacyRouter({
  ...stores,
  renderThreads: 1,
  mode: 'shadow',
  upstream: { url: `http://127.0.0.1:${legacyPort}${LEGACY_MOUNT_PATH}` },
  shadow: { sampleRate: 1, onSettled: (outcome) => settle(outcome) },
  log: () => {},
});
const threadsAtCreate = threads();

const app = express();
app.use(LEGACY_MOUNT_PATH, router);
const server = http.createServer(app);
const port = await listening(server);

const answer = await fetch(`http://127.0.0.1:${port}${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/1x1/0`, {
  method: 'POST',
  headers: { 'X-API-Key': 'k_exit', 'Content-Type': 'application/octet-stream', Connection: 'close' },
  body: ZPL,
});
const body = Buffer.from(await answer.arrayBuffer());
const threadsAtRender = threads();
const outcome = await settled;

await closed(server);
await closed(legacy);
const threadsAfterServerClose = threads();
await router.close();
// Stores are the host's: closing them is the host's business (memory stores hold nothing open anyway).
process.stdout.write(
  `${JSON.stringify({
    status: answer.status,
    contentType: answer.headers.get('content-type'),
    shadow: outcome.outcome,
    same: Buffer.compare(body, legacyPng) === 0,
    threads: {
      before: threadsBefore,
      atCreate: threadsAtCreate,
      atRender: threadsAtRender,
      afterServerClose: threadsAfterServerClose,
      afterRouterClose: threads(),
    },
    openAfterClose: process.getActiveResourcesInfo(),
  })}\n`,
);
