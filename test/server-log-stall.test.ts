// The standalone server when nobody reads its standard output (a stalled log pipeline). Synchronous log writes froze
// it once the pipe held 64 KiB (about 200 access lines): requests, /healthz and SIGTERM alike. Each wait here ends
// on an event (a printed line, an answer, the process exiting); a server that blocks fails by the test's timeout.

import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const SERVER = join(process.cwd(), 'dist', 'examples', 'server.js');
const MOUNT = '/compatibility/legacy/v1';
/** Access lines are about 350 bytes: 500 of them are well past a 64 KiB pipe. */
const REQUESTS = 500;

interface Stalled {
  child: ChildProcess;
  base: string;
  key: string;
  /** Everything printed on standard output, as read so far. */
  output(): string;
  /** The exit code, once the process has exited and its standard output has been read to the end. */
  closed: Promise<number | null>;
}

/** Starts the server and stops reading its standard output once it is listening. */
function startStalled(): Promise<Stalled> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', API_KEYS_FILE: '', SHUTDOWN_DELAY_MS: '0', LOG_LEVEL: 'info', UPSTREAM_MODE: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let text = '';
  let started = false;
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const listening = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(text);
      const key = /^dev API key: (\S+)$/m.exec(text);
      if (started || !listening || !key) return;
      started = true;
      child.stdout!.pause();
      resolve({ child, base: listening[1]!, key: key[1]!, output: () => text, closed });
    });
    void closed.then((code) => reject(new Error(`server exited with ${code}: ${text}`)));
  });
}

async function render(s: Stalled): Promise<number> {
  const res = await fetch(`${s.base}${MOUNT}/printers/8dpmm/labels/2x1/0`, {
    method: 'POST', headers: { 'X-API-Key': s.key, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '^XA^FO10,10^GB80,80,40^FS^XZ',
  });
  await res.arrayBuffer();
  return res.status;
}

describe('standalone server with a standard output nobody reads', function () {
  this.timeout(120_000);

  it('keeps answering past a full pipe, then writes every access line once read', async () => {
    const s = await startStalled();
    const statuses: number[] = [];
    for (let i = 0; i < REQUESTS; i++) statuses.push(await render(s));
    expect(statuses.filter((v) => v !== 200)).to.deep.equal([]);
    expect((await fetch(`${s.base}/healthz`)).status).to.equal(200);

    s.child.stdout!.resume();
    s.child.kill('SIGTERM');
    expect(await s.closed).to.equal(0);
    const lines = s.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { event?: string; route?: string });
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
