// router.close() in a host app: a request in flight when the host begins shutting down is answered in full,
// and close() resolves only after it. The request is held in flight by its body (headers read, `100 Continue`
// sent); the order of the two events is the assertion, never a clock.

import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLegacyRouter, createMemoryStores } from '../index.js';
import { decodePng } from './helpers/png.js';

describe('router.close() in a host app', function () {
  this.timeout(120_000); // waits end on answers and promises; the bound only ends a hang

  it('answers the request in flight before it lets go of the renderer', async () => {
    const stores = createMemoryStores();
    await stores.keyStore.add({ key: 'k_host_close', scope: 'all' });
    const router = createLegacyRouter({ ...stores, renderThreads: 1, log: () => {} });
    // Called from a bare node:http server, the router sees paths below its mount point.
    const order: string[] = [];
    const server = http.createServer((req, res) => {
      res.once('finish', () => order.push('answered'));
      router(req, res, () => {
        res.statusCode = 404;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const body = '^XA^FO10,10^GB80,80,40^FS^XZ';
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/printers/8dpmm/labels/2x1/0',
      agent: false,
      headers: { 'X-API-Key': 'k_host_close', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
    });
    const answered = new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
        });
      });
      req.once('error', reject);
    });
    req.flushHeaders();
    await new Promise<void>((resolve) => req.once('continue', () => resolve()));

    // The host shuts down: its server stops listening and the router is closed while the request is in flight.
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    const routerClosed = router.close().then(() => {
      order.push('router closed');
    });
    req.end(body);
    const answer = await answered;
    await routerClosed;
    await serverClosed;
    expect(answer.status, answer.body.toString()).to.equal(200);
    expect(decodePng(answer.body).width).to.equal(406); // 2 in at 8 dpmm
    expect(order).to.deep.equal(['answered', 'router closed']);
  });
});
