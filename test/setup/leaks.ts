// Root hook plugin of every run (.mocharc.json): a test file that leaves a server, socket, timer, worker or child
// process holding the event loop fails, naming each one and the line that made it. Mocha no longer exits by force,
// so a leak would otherwise hang the run: once named, leaked handles are unref'd and leaked child processes killed.

import { createHook } from 'node:async_hooks';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { atEachFileEnd, fileName, RUN, runningFile, runningTitle, wireFileHooks } from './file-hooks.js';

/** Async resource types that can keep the process alive. */
const WATCHED = new Set([
  'TCPWRAP',
  'TCPSERVERWRAP',
  'PIPEWRAP',
  'PIPESERVERWRAP',
  'UDPWRAP',
  'PROCESSWRAP',
  'WORKER',
  'MESSAGEPORT',
  'Timeout',
  'FSEVENTWRAP',
  'STATWATCHER',
  'SIGNALWRAP',
  'TTYWRAP',
]);

interface Tracked {
  type: string;
  resource: Handle;
  /** The test file that was running, or whose module made it while loading. */
  file: string | undefined;
  /** The test or hook that was running. */
  during: string | undefined;
  made: { stack?: string };
}

interface Handle {
  hasRef?(): boolean;
  unref?(): void;
  _destroyed?: boolean;
  _idleTimeout?: number;
  _repeat?: number | null;
  _onTimeout?: { name?: string };
  [key: symbol]: unknown;
}

/** These root hooks' folder: what they make (a check's wait, a wrapped runnable's timer) is the runner's. */
const SETUP = fileURLToPath(new URL('.', import.meta.url));
const live = new Map<number, Tracked>();

function stackHere(omit: (...args: never) => unknown = init): { stack?: string } {
  const made: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  Error.captureStackTrace(made, omit);
  Error.stackTraceLimit = limit;
  return made;
}

// A server listening on a host name or a socket connecting makes its handle in a later tick, with no stack of
// the test: keep the stack of the call on the server or socket.
const MADE = Symbol('made at');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenMarked(this: net.Server, ...args: unknown[]) {
  (this as unknown as Record<symbol, unknown>)[MADE] = stackHere(listenMarked);
  return listen.apply(this, args as never);
} as typeof listen;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connectMarked(this: net.Socket, ...args: unknown[]) {
  (this as unknown as Record<symbol, unknown>)[MADE] = stackHere(connectMarked);
  return connect.apply(this, args as never);
} as typeof connect;

function init(asyncId: number, type: string, _trigger: number, resource: object): void {
  if (!WATCHED.has(type)) return;
  live.set(asyncId, {
    type,
    resource: resource as Handle,
    file: runningFile(),
    during: runningTitle(),
    made: stackHere(),
  });
}

createHook({
  init,
  destroy(asyncId) {
    live.delete(asyncId);
  },
}).enable();

/** Stack lines outside node's internals. */
function outsideNode(made: { stack?: string }): string[] {
  return (made.stack ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().replace(/^at /, ''))
    .filter((line) => !/\(node:|^node:/.test(line));
}

const isRunner = (line: string): boolean =>
  /[\\/]node_modules[\\/]mocha[\\/]/.test(line) || (line.includes(SETUP) && !line.includes('.fixture.js'));

/** Stack lines of the project and its dependencies: not node's internals, mocha's runner or these hooks. */
function frames(made: { stack?: string }): string[] {
  return outsideNode(made).filter((line) => !isRunner(line));
}

/** Mocha's own timers (a runnable's timeout) and these hooks' waits. */
function madeByRunner(made: { stack?: string }): boolean {
  const lines = outsideNode(made);
  return lines.length > 0 && lines.every(isRunner);
}

/** The test file a resource made while files were loading belongs to, from its stack. */
function fileOf(entry: Tracked): string | undefined {
  if (entry.file) return entry.file;
  const line = frames(entry.made).find((frame) => /[\\/]dist[\\/]test[\\/][^\\/]+\.test\.js/.test(frame));
  const match = line && /((?:file:\/\/)?[^\s(]+[\\/]dist[\\/]test[\\/][^\\/:]+\.test\.js)/.exec(line);
  return match ? match[1]!.replace(/^file:\/\//, '') : undefined;
}

function isHolding(entry: Tracked): boolean {
  const resource = entry.resource;
  if (entry.type === 'Timeout') return !resource._destroyed && resource.hasRef?.() === true;
  return resource.hasRef?.() === true;
}

function ownerOf(resource: Handle): any {
  const symbol = Object.getOwnPropertySymbols(resource).find((s) => s.description === 'owner_symbol');
  return symbol ? resource[symbol] : undefined;
}

function describe(entry: Tracked): string {
  const { type, resource } = entry;
  const owner = ownerOf(resource);
  try {
    if (type === 'Timeout') {
      const kind = resource._repeat ? 'setInterval' : 'setTimeout';
      const callback = resource._onTimeout?.name ? ` calling ${resource._onTimeout.name}()` : '';
      return `a timer (${kind}, ${resource._idleTimeout} ms${callback})`;
    }
    if (type === 'TCPSERVERWRAP' || type === 'PIPESERVERWRAP') {
      const address = owner?.address?.();
      const where = typeof address === 'string' ? address : address ? `${address.address}:${address.port}` : '?';
      return `a server listening on ${where}`;
    }
    if (type === 'TCPWRAP') {
      const socket = owner?.remotePort !== undefined ? owner : owner?.socket;
      return `a socket ${socket?.localAddress}:${socket?.localPort} -> ${socket?.remoteAddress}:${socket?.remotePort}`;
    }
    if (type === 'PIPEWRAP') return 'a pipe (a child process stdio or a unix socket)';
    if (type === 'PROCESSWRAP') return `a child process (pid ${owner?.pid}: ${(owner?.spawnargs ?? []).join(' ')})`;
    if (type === 'WORKER') return `a worker thread (id ${owner?.threadId})`;
    if (type === 'MESSAGEPORT') return 'a MessagePort';
  } catch {
    // A half-closed handle may throw on inspection: fall back to its type.
  }
  return `a ${type} handle`;
}

/** Frees a leaked handle so the run can end: kills a child process, unrefs the rest. */
function release(entry: Tracked): void {
  const owner = ownerOf(entry.resource);
  try {
    if (entry.type === 'PROCESSWRAP') owner?.kill?.('SIGKILL');
    entry.resource.unref?.();
    owner?.unref?.();
  } catch {
    // Already closing.
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What `file` left holding the event loop, once closes in flight have had their turns. */
async function leaksOf(file: string): Promise<Tracked[]> {
  const mine = (): Tracked[] =>
    [...live.values()].filter(
      (entry) => (fileOf(entry) ?? RUN) === file && isHolding(entry) && !madeByRunner(entry.made),
    );
  // Closing a handle takes a few turns of the loop (more on a loaded machine); a handle still open after
  // 200 turns and 5 seconds is not closing.
  const started = Date.now();
  for (let turn = 0; mine().length > 0 && (turn < 200 || Date.now() - started < 5000); turn++) {
    await settle();
    if (turn >= 200) await new Promise((resolve) => setTimeout(resolve, 20).unref());
  }
  return mine();
}

atEachFileEnd(async (file) => {
  const leaks = await leaksOf(file);
  for (const entry of leaks) release(entry);
  if (leaks.length === 0) return;
  const lines = leaks.map((entry) => {
    const marked = ownerOf(entry.resource)?.[MADE] as { stack?: string } | undefined;
    const made = frames(entry.made).length === 0 && marked ? marked : entry.made;
    const where = frames(made).slice(0, 3).join('\n        <- ');
    const during = entry.during ? `\n      during "${entry.during}"` : '';
    return `  ${describe(entry)}${during}\n      made at ${where || '(a callback of node: no stack of the test)'}`;
  });
  const who = file === RUN ? 'The run (no test file)' : fileName(file);
  const error = new Error(`${who} left ${leaks.length} handle(s) open after its tests:\n${lines.join('\n')}`);
  error.stack = error.message;
  throw error;
});

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    wireFileHooks(this.test!.parent!);
  },
};
