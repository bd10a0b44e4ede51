// The standalone server when nobody reads its standard output (a stalled log pipeline). Synchronous log writes froze
// it once the pipe held 64 KiB (about 200 access lines): requests, /healthz and SIGTERM alike. Each wait here ends
// on an event (a printed line, an answer, the process exiting); a server that blocks fails by the test's timeout.

import { expect } from 'chai';
import { startServer, type StartedServer } from './helpers/server-process.js';

const MOUNT = '/compatibility/legacy/v1';
/** Access lines are about 350 bytes: 500 of them are well past a 64 KiB pipe. */
const REQUESTS = 500;

/** The server, its standard output no longer read once it is listening. */
async function startStalled(): Promise<StartedServer> {
  const s = await startServer({ LOG_LEVEL: 'info', UPSTREAM_MODE: 'off' });
  s.child.stdout!.pause();
  return s;
}

async function render(s: StartedServer): Promise<number> {
  const res = await fetch(`${s.base}${MOUNT}/printers/8dpmm/labels/2x1/0`, {
    method: 'POST',
    headers: { 'X-API-Key': s.devKey!, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '^XA^FO10,10^GB80,80,40^FS^XZ',
  });
  await res.arrayBuffer();
  return res.status;
}

/** The exit code, once the process has exited and its output has been read to the end. */
const closed = (s: StartedServer): Promise<number | null> =>
  new Promise((resolve) => s.child.once('close', (code) => resolve(code)));

describe('standalone server with a standard output nobody reads', function () {
  this.timeout(120_000);

  it('keeps answering past a full pipe, then writes every access line once read', async () => {
    const s = await startStalled();
    const statuses: number[] = [];
    for (let i = 0; i < REQUESTS; i++) statuses.push(await render(s));
    expect(statuses.filter((v) => v !== 200)).to.deep.equal([]);
    expect((await fetch(`${s.base}/healthz`)).status).to.equal(200);

    const done = closed(s);
    s.child.stdout!.resume();
    s.child.kill('SIGTERM');
    expect(await done).to.equal(0);
    const lines = s.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { event?: string; route?: string });
    expect(lines.filter((l) => l.event === 'request' && l.route?.startsWith('/printers/'))).to.have.length(REQUESTS);
  });

  it('stops on SIGTERM while its queued lines cannot be written', async () => {
    const s = await startStalled();
    for (let i = 0; i < REQUESTS; i++) expect(await render(s)).to.equal(200);
    const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
    s.child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    s.child.stdout!.destroy();
  });
});
