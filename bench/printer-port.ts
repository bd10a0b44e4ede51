// `node dist/bench/printer-port.js`: the printer port on loopback, in this process with a render pool of one
// thread. Prints: jobs and labels drawn per second for a connection sending N carrier-style labels (PNG only and
// PNG + PDF), the time a ~HS takes to be answered while jobs are drawn, and for a 100 MB job against an 8 MiB cap
// the bytes sent before the cut and the heap and RSS growth meanwhile. Figures, not a test.

import { once } from 'node:events';
import net from 'node:net';
import { createPrinterListener } from '../middleware/printer/index.js';
import { createRenderPool } from '../renderer/pool/index.js';

const LABEL =
  '^XA^FO40,40^A0N,60,60^FDSHIP TO^FS^FO40,120^A0N,40,40^FDACME WAREHOUSE 12^FS' +
  '^FO40,200^BCN,120,Y,N,N^FD1Z999AA10123456784^FS^FO40,400^BQN,2,6^FDMM,AHELLO PRINTER^FS^XZ\r\n';

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

async function throughput(pdf: boolean, jobs: number): Promise<void> {
  const pool = createRenderPool({ threads: 1, expressThreads: 0 });
  const listener = createPrinterListener({ render: pool.render, port: 0, pdf });
  const { port } = await listener.listen();
  let done = 0;
  const all = new Promise<void>((resolve) =>
    listener.on('job', () => {
      if (++done === jobs) resolve();
    }),
  );
  const socket = net.connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  const start = performance.now();
  const cpu = process.cpuUsage();
  socket.write(LABEL.repeat(jobs));
  // A ~HS sent behind the jobs is answered as it arrives, not after them.
  const asked = performance.now();
  const answered = new Promise<number>((resolve) => socket.once('data', () => resolve(performance.now() - asked)));
  socket.write('~HS');
  const hsMs = await answered;
  await all;
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  socket.end();
  await listener.close();
  await pool.close();
  console.log(
    `| ${pdf ? 'PNG + PDF' : 'PNG'} | ${jobs} | ${((jobs * 1000) / ms).toFixed(1)} | ${(ms / jobs).toFixed(1)} | ` +
      `${((used.user + used.system) / 1000 / jobs).toFixed(1)} | ${hsMs.toFixed(1)} |`,
  );
}

async function oversized(): Promise<void> {
  const pool = createRenderPool({ threads: 1, expressThreads: 0 });
  const cap = 8 * 1024 * 1024;
  const listener = createPrinterListener({ render: pool.render, port: 0, maxJobBytes: cap });
  const { port } = await listener.listen();
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const socket = net.connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const block = Buffer.alloc(256 * 1024, 0x41);
  let written = 0;
  const start = performance.now();
  socket.write('^XA^FO0,0^FD');
  while (written < 100 * 1024 * 1024 && !socket.destroyed) {
    written += block.length;
    if (!socket.write(block))
      await new Promise((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }
  await closed;
  const ms = performance.now() - start;
  await listener.close();
  await pool.close();
  console.log(
    `| 100 MB job, ${mib(cap)} cap | ${mib(written)} | ${ms.toFixed(0)} | ${mib(peakRss - before.rss)} | ${mib(peakHeap - before.heapUsed)} |`,
  );
}

console.log('| output | jobs (one label each) | jobs/s | ms/job | CPU ms/job | ~HS answered after (ms) |');
console.log('|---|---|---|---|---|---|');
await throughput(false, 100);
await throughput(true, 100);
console.log('\n| case | sent before the cut | ms | RSS growth (sender and port, one process) | heap growth |');
console.log('|---|---|---|---|---|');
await oversized();
