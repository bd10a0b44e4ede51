// Redis for tests: the shared server (REDIS_URL or 127.0.0.1:6379) when it answers, and throw-away
// redis-server processes on spare ports for outage tests.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** True when a Redis server answers PING at `url` within half a second. */
export function redisAnswers(url = REDIS_URL): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG') || data.toString().startsWith('-NOAUTH')));
  });
}

let announced = false;

/** In a mocha `before`: skips the suite, saying so once, when no Redis answers. */
export async function requireRedis(ctx: Mocha.Context): Promise<void> {
  if (await redisAnswers()) return;
  if (!announced) {
    announced = true;
    console.log(`    (no Redis at ${REDIS_URL}: skipping the Redis test cases)`);
  }
  ctx.skip();
}

/** A namespace no other test run uses, so runs on one Redis never see each other's keys. */
export function uniqueNamespace(): string {
  return `zpl-test-${randomBytes(6).toString('hex')}`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A redis-server of our own on `port` (no persistence); resolves once it answers. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  // Generous: a busy machine may take seconds to start it; this bound only ends a run that would hang.
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${child.exitCode}`);
    if (await redisAnswers(url)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not answer`);
}

export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export function redisServerAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
    probe.once('error', () => resolve(false));
    probe.once('exit', (code) => resolve(code === 0));
  });
}

/** Polls `check` every 50 ms until it is true or `timeoutMs` passes (a bound against hanging, not a speed test). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
