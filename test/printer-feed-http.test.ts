// The printer view's routes over real HTTP on loopback, on a memory feed: the jobs newest first with their
// summaries, each label's PNG and PDF as kept, a key as every keyed route, and the event stream: one event per job
// added or updated, heartbeat comments, ended (and unsubscribed) when its client goes or its server closes.

import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  createMemoryPrinterFeed,
  createMemoryStores,
  createPreviewRouter,
  fieldBoxes,
  type PrinterFeed,
  type PrinterJobRecord,
} from '../index.js';

const KEY = 'k_printer_view';

interface Site {
  url: string;
  server: Server;
  feed: PrinterFeed;
  /** Resolves each time a subscription ends (a stream let go of the feed). */
  unsubscribed: () => Promise<void>;
  subscriptions: () => number;
}

async function startSite(heartbeatMs?: number): Promise<Site> {
  const stores = createMemoryStores();
  await stores.keyStore.add({ key: KEY, scope: 'pdf' }); // any scope may watch the printer
  const inner = createMemoryPrinterFeed();
  let live = 0;
  const waiting: Array<() => void> = [];
  // The feed as the router sees it, counting the streams subscribed to it.
  const feed: PrinterFeed = {
    ...inner,
    subscribe: (listener) => {
      live++;
      const stop = inner.subscribe(listener);
      return () => {
        stop();
        live--;
        for (const resolve of waiting.splice(0)) resolve();
      };
    },
  };
  const app = express();
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      layout: fieldBoxes,
      printerFeed: feed,
      ...(heartbeatMs !== undefined && { printerHeartbeatMs: heartbeatMs }),
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    feed,
    unsubscribed: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
      }),
    subscriptions: () => live,
  };
}

function stopSite(site: Site | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!site) return resolve();
    site.server.closeAllConnections();
    site.server.close(() => resolve());
  });
}

let sequence = 0;
const job = (overrides: Partial<PrinterJobRecord> = {}): PrinterJobRecord => ({
  id: `${Date.UTC(2026, 11, 7, 9) + ++sequence}-${sequence}`,
  time: new Date(Date.UTC(2026, 11, 7, 9)).toISOString(),
  client: '192.0.2.7:51000',
  bytes: 77,
  labels: 1,
  warnings: ['^FO: field outside the label'],
  ...overrides,
});
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const PDF = Uint8Array.from(Buffer.from('%PDF-1.4 label'));

/** Reads an event stream block by block (blocks end with a blank line). */
function blocks(res: Response): { next: () => Promise<string | undefined> } {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    next: async () => {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          return block;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
  };
}

describe('printer view routes', function () {
  this.timeout(30_000);
  let site: Site | undefined;
  afterEach(async () => {
    await stopSite(site);
    site = undefined;
  });

  it('lists the jobs newest first with their summaries, and serves each label as kept', async () => {
    site = await startSite();
    const first = job({ forward: { status: 'retrying', attempts: 2, error: 'ECONNREFUSED' } });
    const second = job({ labels: 2, warnings: [] });
    await site.feed.add(first, [{ index: 0, png: PNG, pdf: PDF }]);
    await site.feed.add(second, [
      { index: 0, png: PNG },
      { index: 1, png: PNG },
    ]);

    const res = await fetch(`${site.url}/printer/jobs`, { headers: { 'X-API-Key': KEY } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(await res.json()).to.deep.equal({ jobs: [second, first] });
    const one = await fetch(`${site.url}/printer/jobs?limit=1`, { headers: { 'X-API-Key': KEY } });
    expect(((await one.json()) as { jobs: PrinterJobRecord[] }).jobs).to.deep.equal([second]);
    const bad = await fetch(`${site.url}/printer/jobs?limit=all`, { headers: { 'X-API-Key': KEY } });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.contain('limit must be a whole number');

    const png = await fetch(`${site.url}/printer/jobs/${first.id}/labels/0.png`, { headers: { 'X-API-Key': KEY } });
    expect(png.headers.get('content-type')).to.equal('image/png');
    expect(new Uint8Array(await png.arrayBuffer())).to.deep.equal(PNG);
    const pdf = await fetch(`${site.url}/printer/jobs/${first.id}/labels/0.pdf`, { headers: { 'X-API-Key': KEY } });
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    expect(new Uint8Array(await pdf.arrayBuffer())).to.deep.equal(PDF);
    for (const missing of [`${second.id}/labels/0.pdf`, `${second.id}/labels/2.png`, 'nope/labels/0.png']) {
      const res404 = await fetch(`${site.url}/printer/jobs/${missing}`, { headers: { 'X-API-Key': KEY } });
      expect(res404.status, missing).to.equal(404);
    }
  });

  it('asks for a key, as every route that shows a label', async () => {
    site = await startSite();
    for (const path of ['/printer/jobs', '/printer/events', '/printer/jobs/x/labels/0.png']) {
      expect((await fetch(`${site.url}${path}`)).status, path).to.equal(401);
      const wrong = await fetch(`${site.url}${path}`, { headers: { 'X-API-Key': 'k_nobody' } });
      expect(wrong.status, path).to.equal(401);
    }
    expect(site.subscriptions()).to.equal(0);
    // The page itself needs none.
    const page = await fetch(`${site.url}/printer`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.contain('preview/printer.js');
  });

  it('streams one event per job added or updated, with heartbeats, and lets go of the feed when the client goes', async () => {
    site = await startSite(20);
    const hangUp = new AbortController();
    const res = await fetch(`${site.url}/printer/events`, { headers: { 'X-API-Key': KEY }, signal: hangUp.signal });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    const stream = blocks(res);
    expect(await stream.next()).to.equal(': connected');

    const added = job();
    await site.feed.add(added, [{ index: 0, png: PNG }]);
    const sent = { ...added, forward: { status: 'sent' as const, attempts: 1 } };
    await site.feed.update(sent);
    const events: string[] = [];
    while (events.length < 2) {
      const block = (await stream.next())!;
      if (block !== ': heartbeat') events.push(block);
    }
    expect(events).to.deep.equal([
      `event: job\ndata: ${JSON.stringify(added)}`,
      `event: job\ndata: ${JSON.stringify(sent)}`,
    ]);
    // Quiet now: only heartbeat comments.
    expect(await stream.next()).to.equal(': heartbeat');

    const gone = site.unsubscribed();
    hangUp.abort();
    await gone;
    expect(site.subscriptions()).to.equal(0);
  });

  it('ends its streams when the server stops listening', async () => {
    site = await startSite(20);
    const res = await fetch(`${site.url}/printer/events`, { headers: { 'X-API-Key': KEY } });
    const stream = blocks(res);
    expect(await stream.next()).to.equal(': connected');
    const gone = site.unsubscribed();
    const closed = new Promise<void>((resolve) => site!.server.close(() => resolve()));
    let block: string | undefined;
    do block = await stream.next();
    while (block !== undefined);
    await Promise.all([gone, closed]);
    expect(site.subscriptions()).to.equal(0);
    site = undefined;
  });
});
