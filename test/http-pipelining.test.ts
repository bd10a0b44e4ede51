// The standalone server's HTTP layer and pipelining: a malformed request sent behind a proxied one on the same
// connection is answered after the proxied answer, which reaches the client whole (it used to be wiped out by a raw
// 400 written first, closing the socket).

import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Response } from 'express';
import { createLegacyRouter, createMemoryStores, LEGACY_MOUNT_PATH } from '../middleware/index.js';
import { createHttpServer } from '../server/http-server.js';
import { openRaw } from './helpers/raw-http.js';
import { startFakeUpstream, UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';

const KEY = 'k_pipelining_0123456789';
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

describe('standalone HTTP server: a malformed request pipelined behind a proxied one', function () {
  this.timeout(60_000); // waits end on events; the bound only ends a hung run
  let upstream: FakeUpstream;
  let server: ReturnType<typeof createHttpServer>;
  let port = 0;
  const held: Response[] = [];
  let arrived: () => void = () => {};

  before(async () => {
    upstream = await startFakeUpstream((_received, res) => {
      held.push(res);
      arrived();
    });
    const stores = createMemoryStores();
    await stores.keyStore.add({ key: KEY, scope: 'all' });
    const app = express();
    app.use(
      LEGACY_MOUNT_PATH,
      createLegacyRouter({ ...stores, mode: 'proxy', upstream: { url: upstream.url }, log: () => {} }),
    );
    server = createHttpServer(app, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await upstream.close();
  });

  it('answers the proxied request first, whole, then the 400, then closes', async () => {
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const { socket, closed } = await openRaw(port);
    const good =
      `POST ${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEY}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${ZPL.length}\r\n\r\n${ZPL}`;
    socket.write(`${good}GARBAGE NOT HTTP\r\n\r\n`, 'latin1');
    await reached; // the proxied request is upstream; the malformed one was parsed (and refused) before it got there
    held.shift()!.status(200).set({ 'Content-Type': 'image/png', 'X-Total-Count': '1' }).end(UPSTREAM_PNG);
    const { raw } = await closed;
    const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses, raw.slice(0, 400)).to.deep.equal([200, 400]);
    const first = raw.slice(0, raw.indexOf('HTTP/1.1 400'));
    const length = Number(/content-length: (\d+)/i.exec(first)![1]);
    expect(
      Buffer.from(first.slice(first.indexOf('\r\n\r\n') + 4), 'latin1').equals(Buffer.from(UPSTREAM_PNG)),
    ).to.equal(true);
    expect(length).to.equal(UPSTREAM_PNG.length);
    expect(raw.slice(raw.indexOf('HTTP/1.1 400'))).to.match(/\r\n\r\nERROR: Bad request\n$/);
  });
});
