// The standalone server as a newcomer meets it: a busy port, SIGTERM through `npm start`, the dev key in a
// shared Redis. Real child processes; every wait is on an event (a printed line, an exit, a closed pipe).

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createRedisStores } from '../index.js';
import { freePort, redisServerAvailable, startRedisServer, stopProcess } from './helpers/http-redis.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const SERVER = join(process.cwd(), 'dist', 'server', 'server.js');
const BASE_ENV = { HOST: '127.0.0.1', REDIS_URL: '', API_KEYS_FILE: '', UPSTREAM_MODE: 'off', SHUTDOWN_DELAY_MS: '0' };

function run(command: string, args: string[], env: Record<string, string>): WatchedProcess {
  return spawnWatched(command, args, { ...BASE_ENV, ...env });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** Every live descendant of `pid` (Linux /proc), so a test can tell whether a child was orphaned. */
function descendants(pid: number): number[] {
  if (!existsSync('/proc')) return [];
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* exited meanwhile */
    }
  }
  const found: number[] = [];
  const walk = (parent: number): void => {
    for (const [child, ppid] of parentOf)
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
  };
  walk(pid);
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('standalone server: start and stop as a newcomer meets them', function () {
  this.timeout(120_000);
  const leftovers: number[] = [];
  afterEach(() => {
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('says in one line that the port is busy, and exits 1', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const server = run(process.execPath, [SERVER], { PORT: String(port) });
      expect(await server.closed).to.equal(1);
      expect(server.lines).to.deep.equal([`ERROR: port ${port} is already in use`]);
    } finally {
      holder.close();
    }
  });

  it('stops the node server when SIGTERM goes to npm (`npm start`, as containers do)', async () => {
    const npm = run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start', '--silent'], { PORT: '0' });
    const line = await npm.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(/:(\d+)$/.exec(line)![1]);
    const started = descendants(npm.child.pid!);
    leftovers.push(...started);
    expect(started.length, 'npm runs the server as a child').to.be.greaterThan(0);

    const npmExited = new Promise((resolve) => npm.child.once('exit', resolve));
    npm.child.kill('SIGTERM');
    await npmExited; // npm waits for its child; an orphaned server would still be running now
    expect(started.filter(alive), 'processes left running after npm exited').to.deep.equal([]);
    await npm.closed;
    expect(npm.lines.some((l) => l.includes('"msg":"SIGTERM: shutting down"'))).to.equal(true);
    expect(await refused(port)).to.equal(true);
  });

  it('runs the mounting example on PORT', async () => {
    const port = await freePort();
    const example = run(process.execPath, [join(process.cwd(), 'dist', 'examples', 'mount-in-existing-app.js')], {
      PORT: String(port),
    });
    try {
      await example.waitFor(new RegExp(`^listening on http://127\\.0\\.0\\.1:${port}$`));
      expect(await refused(port)).to.equal(false);
    } finally {
      example.child.kill('SIGKILL');
      await example.closed;
    }
  });

  it('keeps no permanent dev key in a shared Redis: the one it makes expires with its record', async function () {
    if (!(await redisServerAvailable())) this.skip();
    const redisPort = await freePort();
    const redis = await startRedisServer(redisPort);
    const url = `redis://127.0.0.1:${redisPort}`;
    const stores = createRedisStores({ url });
    try {
      const before = Date.now();
      for (let start = 0; start < 2; start++) {
        const server = run(process.execPath, [SERVER], { PORT: '0', REDIS_URL: url });
        expect(await server.waitFor(/^dev API key: /)).to.match(/^dev API key: zpl_dev_\S{20,}$/);
        await server.waitFor(/"msg":"API keys stored in Redis: 1"/); // a JSON log line
        server.child.kill('SIGTERM');
        expect(await server.closed).to.equal(0);
      }

      await stores.connection.connected;
      const keys = await stores.keyStore.list();
      expect(keys).to.have.length(2);
      for (const key of keys) {
        expect(key.scope).to.equal('all');
        const expires = Date.parse(key.expiresAt!);
        expect(expires)
          .to.be.greaterThan(before + 23 * 3600_000)
          .and.at.most(Date.now() + 24 * 3600_000);
      }
      const stored = await stores.connection.client.keys('zpl:keys*');
      expect(stored).to.have.length(4); // each record and its id entry (key-store.ts)
      expect(stored.filter((name) => name.startsWith('zpl:keys::id:'))).to.have.length(2);
      for (const name of stored) {
        const ttl = await stores.connection.client.pTTL(name);
        expect(ttl, `${name} expires in Redis`)
          .to.be.greaterThan(0)
          .and.at.most(24 * 3600_000);
      }
    } finally {
      await stores.close();
      await stopProcess(redis);
    }
  });
});
