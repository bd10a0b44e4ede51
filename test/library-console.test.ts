// What libraries print with console.log and friends. node-redis's Sentinel client prints a stack trace each second
// while no Sentinel answers: the standalone server must keep its standard output JSON lines, and must not crash
// when the reader of that output is gone. Waits end on printed lines and on the process exiting.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import { routeConsole, type RoutedConsoleMethod } from '../server/library-console.js';

const SERVER = join(process.cwd(), 'dist', 'server', 'server.js');

/** Servers a test started: killed after it, whether it passed or not. */
const started: ChildProcess[] = [];

/** A loopback port nobody listens on (taken from the kernel, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The server with Sentinels that never answer; its standard output's lines, apart from its standard error, and the
 * first of them to carry node-redis's Sentinel error.
 */
async function startWithoutSentinels(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: '',
      API_KEYS_FILE: '',
      UPSTREAM_MODE: 'off',
      REDIS_SENTINELS: `127.0.0.1:${await closedPort()}`,
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const libraryLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      if (line.includes('None of the sentinels are available')) resolve(line); // as a JSON line, or as printed raw
    });
    void exited.then(() =>
      reject(new Error(`exited before node-redis printed:\n${[...stdout, ...stderr].join('\n')}`)),
    );
  });
  return { child, stdout, stderr, exited, libraryLine };
}

describe('console output of libraries in the standalone server', function () {
  this.timeout(120_000);
  afterEach(() => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('routeConsole reports console.log, info, debug and warn as the text they would print', () => {
    const reports: [RoutedConsoleMethod, string][] = [];
    const target = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
    routeConsole(target, (method, text) => reports.push([method, text]));
    target.log('throwing %s error', 'READONLY');
    target.info({ a: 1 });
    target.debug('x', 2);
    target.warn(new Error('gone'));
    expect(reports.slice(0, 3)).to.deep.equal([
      ['log', 'throwing READONLY error'],
      ['info', '{ a: 1 }'],
      ['debug', 'x 2'],
    ]);
    expect(reports[3]![0]).to.equal('warn');
    expect(reports[3]![1]).to.match(/^Error: gone\n\s+at /);
  });

  it('keeps standard output JSON lines while node-redis prints a stack trace for Sentinels that never answer', async () => {
    const s = await startWithoutSentinels();
    const line = JSON.parse(await s.libraryLine) as Record<string, unknown>;
    expect(line).to.include({ level: 'info', event: 'library_output', method: 'log' });
    expect(line.msg).to.match(/^Error: None of the sentinels are available\n\s+at /);
    for (const printed of s.stdout) expect(() => JSON.parse(printed), printed).not.to.throw();
    s.child.kill('SIGTERM');
    expect(await s.exited).to.equal(0);
  });

  it('goes on when the reader of its standard output is gone, and exits 0 on SIGTERM', async () => {
    // node-redis tries the Sentinels again each second, so it prints (into the closed pipe) during the shutdown's
    // 3 s delay: timers fire in the order they are due, however late. Before, the first such line crashed the
    // server with an unhandled EPIPE 'error' on process.stdout (exit status 1).
    const s = await startWithoutSentinels({ SHUTDOWN_DELAY_MS: '3000' });
    await s.libraryLine;
    s.child.stdout!.destroy();
    s.child.kill('SIGTERM');
    expect(await s.exited, s.stderr.join('\n')).to.equal(0);
    expect(s.stderr).to.deep.equal([]);
  });
});
