// The standalone server with PRINTER_PORT: the port it names at start-up takes a job over TCP, answers ~HS with
// the logo a first job stored, forwards each job unchanged to PRINTER_FORWARD, counts the job in /metrics, and
// takes its paper out from the ops side (/printer/status), and shows its jobs on the preview router (/printer/jobs);
// a PRINTER_* mistake stops it at start-up naming the variable.

import { expect } from 'chai';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { startServer, stopServer } from './helpers/server-process.js';

function printerPort(lines: string[]): number {
  const line = lines.find((l) => l.includes('PRINTER_PORT: raw ZPL printer on tcp://'));
  expect(line, lines.join('\n')).to.be.a('string');
  return Number(/tcp:\/\/127\.0\.0\.1:(\d+)/.exec(line!)![1]);
}

describe('standalone server: printer port', function () {
  this.timeout(60_000);

  it('prints, answers ~HS, forwards unchanged and counts jobs in /metrics', async () => {
    let received = Buffer.alloc(0);
    let gotAll: () => void = () => undefined;
    const job = Buffer.from(
      '~DGR:LOGO.GRF,8,2,FFFF80018001FFFF\r\n^XA^FO10,10^XGR:LOGO.GRF,4,4^FS^XZ^XA^FO10,10^XGLOGO^FS^PQ2^XZ',
      'latin1',
    );
    const allReceived = new Promise<void>((resolve) => {
      gotAll = resolve;
    });
    const printer = net.createServer((s) => {
      s.on('data', (c: Buffer) => {
        received = Buffer.concat([received, c]);
        if (received.length >= job.length) gotAll();
      });
      s.on('end', () => s.end());
    });
    printer.listen(0, '127.0.0.1');
    await once(printer, 'listening');
    const { child, base, lines, devKey } = await startServer({
      PRINTER_PORT: '0',
      RENDER_THREADS: '1',
      PRINTER_FORWARD: `tcp://127.0.0.1:${(printer.address() as AddressInfo).port}`,
    });
    try {
      const socket = net.connect({ port: printerPort(lines), host: '127.0.0.1' });
      await once(socket, 'connect');
      socket.write(job);
      await allReceived;
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c.toString('latin1');
      });
      socket.end('~HS');
      await once(socket, 'close');
      expect(received.equals(job)).to.equal(true);
      const strings = text.split('\r\n').filter((s) => s !== '');
      expect(strings).to.have.length(3);
      expect(strings[1]!.split(',')[10]!.slice(0, 3)).to.equal('001');
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).to.match(/^zpl_printer_jobs_total\{outcome="printed"\} 2$/m);
      expect(metrics).to.match(/^zpl_printer_labels_total 3$/m);
      expect(metrics).to.match(/^zpl_printer_forwards_total\{target="printer",status="sent"\} 2$/m);
      // The printer view's routes serve the port's feed: both jobs, and the two-copy label's PNG.
      const listed = (await (await fetch(`${base}/printer/jobs`, { headers: { 'X-API-Key': devKey! } })).json()) as {
        jobs: { id: string; labels: number; bytes: number }[];
      };
      expect(listed.jobs.map((j) => j.labels)).to.deep.equal([2, 1]);
      expect(listed.jobs.reduce((n, j) => n + j.bytes, 0)).to.equal(job.length);
      const png = await fetch(`${base}/printer/jobs/${listed.jobs[0]!.id}/labels/1.png`, {
        headers: { 'X-API-Key': devKey! },
      });
      expect(png.status).to.equal(200);
      expect(
        Buffer.from(await png.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).to.equal('PNG');
      const jobLines = lines.filter((l) => l.includes('"event":"printer_job"'));
      expect(jobLines).to.have.length(2);
      for (const l of jobLines) expect(l).to.not.include('LOGO');

      // The ops side takes the paper out: ~HQES and /printer/status say so; a bad value is a 400.
      const set = await fetch(`${base}/printer/status?paperOut=1`, { method: 'POST' });
      expect(set.status).to.equal(200);
      expect(await set.json()).to.include({ paperOut: true, paused: false, graphics: 1 });
      const query = net.connect({ port: printerPort(lines), host: '127.0.0.1' });
      let status = '';
      query.on('data', (c: Buffer) => {
        status += c.toString('latin1');
      });
      query.end('~HQES');
      await once(query, 'close');
      expect(status).to.match(/ERRORS:\s+1 00000000 00000001/);
      expect((await fetch(`${base}/printer/status?paused=maybe`, { method: 'POST' })).status).to.equal(400);
      expect(await (await fetch(`${base}/printer/status`)).json()).to.include({ paperOut: true });
    } finally {
      expect(await stopServer(child)).to.equal(0);
      printer.close();
    }
  });

  it('stops at start-up on a PRINTER_* mistake, naming the variable', async () => {
    const failed = await startServer({ PRINTER_PORT: '0', PRINTER_SIZE: 'large' }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).to.match(/ERROR: PRINTER_SIZE must be WIDTHxHEIGHT in inches/);
  });
});
