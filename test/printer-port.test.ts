// The printer port over real TCP: a job sent as warehouse software sends it (a ~DG logo, a ^DF format, three ^XF
// labels with ^PQ2, ~HS) in random chunks puts 6 labels in the feed, each the PNG the HTTP API draws; the logo is
// kept for the next connection; forwards reach a real printer after refusals; bad clients are refused or bounded.

import { expect } from 'chai';
import fc from 'fast-check';
import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import request from 'supertest';
import type { ServiceEvent } from '../middleware/index.js';
import { createPrinterListener, type PrinterListener, type PrinterJobRecord } from '../middleware/printer/index.js';
import { createRenderPool, type RenderPool } from '../renderer/pool/index.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { decodePng, inkCount } from './helpers/png.js';

const LOGO = '~DGR:LOGO.GRF,8,2,FFFF80018001FFFF\r\n';
const FORMAT = '^XA^DFR:SHIP.ZPL^FS^FO20,20^XGR:LOGO.GRF,8,8^FS^FO20,120^A0N,40,40^FN1^FS^XZ\r\n';
const LABELS = ['ONE', 'TWO', 'THREE'].map((t) => `^XA^XFR:SHIP.ZPL^FN1^FD${t}^FS^PQ2^XZ\r\n`);
const DOCUMENT = Buffer.from(LOGO + FORMAT + LABELS.join(''), 'latin1');
const SENT = Buffer.concat([DOCUMENT, Buffer.from('~HS', 'latin1')]);

let pool: RenderPool;
before(() => {
  pool = createRenderPool({ threads: 1, expressThreads: 0 });
});
after(() => pool.close());

/** The HTTP API's PNG of label `index` of `zpl` at 8 dpmm, 4 x 6 in. */
async function httpPng(zpl: Uint8Array, index: number): Promise<Buffer> {
  const { app } = await buildApp({ render: pool.render });
  const res = await request(app)
    .post(labelsPath('8dpmm', '4x6', String(index)))
    .set('X-API-Key', KEYS.all)
    .set('Content-Type', 'application/x-www-form-urlencoded')
    .send(Buffer.from(zpl).toString('latin1'))
    .buffer(true)
    .parse(binaryBody);
  expect(res.status, res.text).to.equal(200);
  return res.body as Buffer;
}

/** Collects the listener's job records; `until(n)` resolves once n jobs are kept. */
function jobs(listener: PrinterListener): { records: PrinterJobRecord[]; until(n: number): Promise<void> } {
  const records: PrinterJobRecord[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  listener.on('job', (r) => {
    records.push(r);
    for (const w of waiters.filter((w) => records.length >= w.n)) w.resolve();
  });
  return {
    records,
    until: (n) => (records.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
  };
}

async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.setNoDelay(true);
  await once(socket, 'connect');
  return socket;
}

/** Reads what the printer answers until `count` <ETX><CR><LF> have come. */
function answers(socket: net.Socket, count: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('latin1');
      if (text.split('\x03\r\n').length - 1 >= count) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
  });
}

/** Resolves when the socket closes, however (a refused client's writes fail). */
function closing(socket: net.Socket): Promise<void> {
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

async function writeChunks(socket: net.Socket, bytes: Buffer, cuts: number[]): Promise<void> {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const starts = [0, ...points];
  for (let k = 0; k < starts.length; k++) {
    const chunk = bytes.subarray(starts[k], points[k] ?? bytes.length);
    await new Promise<void>((resolve, reject) => socket.write(chunk, (err) => (err ? reject(err) : resolve())));
  }
}

describe('printer port', function () {
  this.timeout(0);

  it('a job in random chunks: 6 labels in the feed, each the HTTP API PNG; ~HS answers; the logo outlives the connection', async () => {
    const expected: Buffer[] = [];
    for (let i = 0; i < 6; i++) expected.push(await httpPng(DOCUMENT, i));
    const logoZpl = '^XA^FO10,10^XGR:LOGO.GRF,8,8^FS^XZ';
    const logoExpected = await httpPng(Buffer.from(LOGO + logoZpl), 0);
    expect(inkCount(decodePng(logoExpected))).to.be.above(0);

    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: SENT.length - 1 }), { maxLength: 25 }), async (cuts) => {
        const listener = createPrinterListener({ render: pool.render, port: 0 });
        try {
          const { port } = await listener.listen();
          const kept = jobs(listener);
          const socket = await connect(port);
          const answer = answers(socket, 3);
          await writeChunks(socket, SENT, cuts);
          const text = await answer;
          socket.end();
          await kept.until(4);

          const strings = text.split('\r\n').filter((s) => s !== '');
          expect(strings).to.have.length(3);
          const STX = String.fromCharCode(2);
          const ETX = String.fromCharCode(3);
          for (const s of strings) {
            expect(s.startsWith(STX) && s.endsWith(ETX), s).to.equal(true);
            expect(s.slice(1, -1)).to.not.include(STX).and.not.include(ETX);
          }
          const one = strings[0]!.slice(1, -1).split(',');
          const two = strings[1]!.slice(1, -1).split(',');
          expect(one).to.have.length(12);
          expect(one[3], 'label length in dots').to.equal('1218');
          expect(two).to.have.length(11);
          expect(two[10], 'graphics stored').to.equal('001');
          expect(strings[2]!.slice(1, -1).split(',')).to.have.length(2);

          const records = await listener.feed.list(10);
          expect(records.map((r) => r.labels).reverse()).to.deep.equal([0, 2, 2, 2]);
          const pngs: Buffer[] = [];
          for (const r of [...records].reverse())
            for (let i = 0; i < r.labels; i++)
              pngs.push(Buffer.from((await listener.feed.label(r.id, i, 'png')) ?? new Uint8Array()));
          expect(pngs).to.have.length(6);
          for (const [i, png] of pngs.entries()) expect(png.equals(expected[i]!), `label ${i}`).to.equal(true);
          const pdf = await listener.feed.label(records[0]!.id, 0, 'pdf');
          expect(Buffer.from(pdf!).subarray(0, 5).toString()).to.equal('%PDF-');

          const again = await connect(port);
          again.end(logoZpl);
          await kept.until(5);
          const [newest] = await listener.feed.list(1);
          const png = Buffer.from((await listener.feed.label(newest!.id, 0, 'png'))!);
          expect(png.equals(logoExpected), 'the logo on a new connection').to.equal(true);
        } finally {
          await listener.close();
        }
      }),
      { numRuns: 3 },
    );
  });

  it('forwards each job unchanged to a real printer, retrying a refused connection, the feed showing it', async () => {
    // A port nothing listens on yet: the first attempts are refused.
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const printerPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const events: ServiceEvent[] = [];
    const listener = createPrinterListener({
      render: pool.render,
      port: 0,
      pdf: false,
      forward: `tcp://127.0.0.1:${printerPort}`,
      retry: { attempts: 50, retryDelayMs: 5 },
      emit: (e) => events.push(e),
    });
    const received: Buffer[] = [];
    const printer = net.createServer((s) => {
      const chunks: Buffer[] = [];
      s.on('data', (c) => chunks.push(c));
      s.on('end', () => {
        received.push(Buffer.concat(chunks));
        s.end();
      });
    });
    try {
      const { port } = await listener.listen();
      const retrying = new Promise<void>((resolve) =>
        listener.on('forward', (r) => r.forward?.status === 'retrying' && resolve()),
      );
      const sent = new Promise<PrinterJobRecord>((resolve) =>
        listener.on('forward', (r) => r.forward?.status === 'sent' && resolve(r)),
      );
      const job = Buffer.from('^XA^FO10,10^GFB,4,4,1,^XZ\x00\x00^FS^XZ', 'latin1');
      (await connect(port)).end(job);
      await retrying;
      const [record] = await listener.feed.list(1);
      expect(record!.forward?.status).to.equal('retrying');
      expect(record!.forward?.error).to.match(/ECONNREFUSED/);
      printer.listen(printerPort, '127.0.0.1');
      const done = await sent;
      expect(done.forward!.attempts).to.be.above(1);
      await listener.settled();
      expect(Buffer.concat(received).equals(job)).to.equal(true);
      expect((await listener.feed.get(done.id))?.forward?.status).to.equal('sent');
      expect(events.some((e) => e.type === 'printer_forward' && e.status === 'retrying')).to.equal(true);
    } finally {
      await listener.close();
      printer.close();
    }
  });

  it('paused or out of paper, holds jobs, says so in ~HS and ~HQES, and prints them when cleared', async () => {
    const listener = createPrinterListener({ render: pool.render, port: 0, pdf: false });
    try {
      const { port } = await listener.listen();
      const kept = jobs(listener);
      listener.setConditions({ paperOut: true });
      const socket = await connect(port);
      const answer = answers(socket, 4);
      socket.write('^XA^LL600^FO10,10^GB50,50,25^FS^PQ3^XZ~HS~HQES');
      const fields = (await answer)
        .split('\r\n')
        .filter((l) => l.includes(','))[0]!
        .slice(1)
        .split(',');
      expect({ paperOut: fields[1], paused: fields[2], length: fields[3], formats: fields[4] }).to.deep.equal({
        paperOut: '1',
        paused: '0',
        length: '0600',
        formats: '001',
      });
      expect(listener.status().labelsRemaining).to.equal(3);
      expect(await answer).to.match(/ERRORS:\s+1 00000000 00000001/);
      expect(kept.records).to.have.length(0);
      // ~PP from the host pauses too; clearing the paper leaves it paused. Held jobs leave ~HS answered.
      const paused = answers(socket, 3);
      socket.write('^XA^FO10,10^FDheld^FS^XZ');
      socket.write('^XA^FO10,10^FDheld too^FS^XZ');
      socket.write('~PP~HS');
      const held = (await paused).split('\r\n')[0]!.split(',');
      expect({ paused: held[2], formats: held[4] }).to.deep.equal({ paused: '1', formats: '003' });
      listener.setConditions({ paperOut: false });
      expect(kept.records).to.have.length(0);
      socket.end('~PS');
      await kept.until(3);
      expect(kept.records.map((r) => r.labels)).to.deep.equal([3, 1, 1]);
      expect(listener.status()).to.include({ paused: false, paperOut: false, formatsInBuffer: 0, labelLength: 600 });
    } finally {
      await listener.close();
    }
  });

  it("ends a job's warnings with a count of those the renderer did not keep, through a worker", async () => {
    const listener = createPrinterListener({ render: pool.render, port: 0, pdf: false });
    try {
      const { port } = await listener.listen();
      const kept = jobs(listener);
      // 130 unknown commands: the renderer keeps 100 records and counts 30.
      (await connect(port)).end(`^XA${'^QQ'.repeat(130)}^FO10,10^FDx^FS^XZ`);
      await kept.until(1);
      const { warnings } = kept.records[0]!;
      expect(warnings).to.have.length(101);
      expect(warnings[0]).to.equal('3|3|^QQ||Unknown command ^QQ; ignored');
      expect(warnings[100]).to.equal('and 30 more: ^QQ 30');
    } finally {
      await listener.close();
    }
  });

  it("posts each job's summary to the webhook as JSON, retrying a failed answer", async () => {
    const bodies: unknown[] = [];
    let calls = 0;
    const hook = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls++;
        if (calls === 1) {
          res.writeHead(503).end();
          return;
        }
        bodies.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(204).end();
      });
    });
    hook.listen(0, '127.0.0.1');
    await once(hook, 'listening');
    const events: ServiceEvent[] = [];
    const listener = createPrinterListener({
      render: pool.render,
      port: 0,
      pdf: false,
      webhook: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/jobs`,
      retry: { retryDelayMs: 1 },
      emit: (e) => events.push(e),
    });
    try {
      const { port } = await listener.listen();
      const kept = jobs(listener);
      (await connect(port)).end('^XA^FO10,10^FDHOOK^FS^XZ');
      await kept.until(1);
      await listener.settled();
      expect(calls).to.equal(2);
      expect(bodies).to.have.length(1);
      expect(bodies[0]).to.include({ id: kept.records[0]!.id, labels: 1, bytes: 24 });
      expect(JSON.stringify(bodies[0])).to.not.include('HOOK');
      const statuses = events.flatMap((e) => (e.type === 'printer_forward' ? [`${e.target}:${e.status}`] : []));
      expect(statuses).to.deep.equal(['webhook:retrying', 'webhook:sent']);
    } finally {
      await listener.close();
      hook.close();
    }
  });

  it('refuses clients outside PRINTER_ALLOW and over the connection cap; cuts a 100 MB job at its cap; the HTTP API answers', async () => {
    const events: ServiceEvent[] = [];
    const checks = new Set<() => void>();
    const record = (e: ServiceEvent): void => {
      events.push(e);
      for (const check of [...checks]) check();
    };
    /** Resolves once `pred` holds, checked at every event. */
    const when = (pred: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (pred()) {
            checks.delete(check);
            resolve();
          }
        };
        checks.add(check);
        check();
      });
    const refused = (reason: string): number =>
      events.filter((e) => e.type === 'printer_refused' && e.reason === reason).length;
    const strict = createPrinterListener({ render: pool.render, port: 0, allow: ['10.0.0.0/8'], emit: record });
    const capped = createPrinterListener({
      render: pool.render,
      port: 0,
      maxConnections: 8,
      maxJobBytes: 1024 * 1024,
      // Long enough that no served connection goes idle while the 50 connect (a loaded machine takes its time).
      idleMs: 2000,
      pdf: false,
      emit: record,
    });
    const single = createPrinterListener({ render: pool.render, port: 0, maxJobBytes: 1024 * 1024, emit: record });
    try {
      const strictPort = (await strict.listen()).port;
      const cappedPort = (await capped.listen()).port;
      const singlePort = (await single.listen()).port;

      const outsider = await connect(strictPort);
      await closing(outsider);
      expect(refused('not-allowed')).to.equal(1);

      // 50 connections at once: 8 are served, the rest closed at once.
      const sockets = await Promise.all(Array.from({ length: 50 }, () => connect(cappedPort)));
      const closed = sockets.map(closing);
      await when(() => refused('connections') === 42);
      // Every client asks ~HI: the 8 served answer, the refused ones (closed, or about to be) do not.
      const answered = await Promise.all(
        sockets.map((s, k) => {
          const a = Promise.race([answers(s, 1), closed[k]!.then(() => '')]);
          if (!s.destroyed) s.write('~HI');
          return a;
        }),
      );
      expect(answered.filter((a) => a.startsWith('\x02ZPL-LEGACY-COMPAT,'))).to.have.length(8);
      // Slow senders: silent connections end after the idle time, their unfinished job drawn.
      for (const [k, s] of sockets.entries()) if (answered[k] !== '') s.write('^XA^FO10,10^FDslow');
      await Promise.all(closed);
      expect(refused('connections')).to.equal(42);

      // A 100 MB job: the connection is closed at the 1 MiB cap, long before the sender is done.
      const big = await connect(singlePort);
      big.on('error', () => undefined);
      const bigClosed = closing(big);
      let written = 0;
      const block = Buffer.alloc(64 * 1024, 0x41);
      big.write('^XA^FO0,0^FD');
      while (written < 100 * 1024 * 1024 && !big.destroyed) {
        written += block.length;
        if (!big.write(block))
          await new Promise((resolve) => {
            big.once('drain', resolve);
            big.once('close', resolve);
          });
      }
      await bigClosed;
      expect(written).to.be.below(100 * 1024 * 1024);
      expect(refused('job-bytes')).to.equal(1);

      const png = await httpPng(Buffer.from('^XA^FO10,10^GB100,100,50^FS^XZ'), 0);
      expect(inkCount(decodePng(png))).to.be.above(0);
      await capped.settled();
      const slow = await capped.feed.list(50);
      expect(slow.filter((r) => r.warnings.some((w) => w.includes('Missing ^XZ')))).to.have.length(8);
    } finally {
      await strict.close();
      await capped.close();
      await single.close();
    }
  });
});
