// Root hook plugin of the unit run (test/mocharc.unit.cjs): a unit test runs in the test process and talks to
// nothing but loopback servers it started. A socket to another host or to a service's port (Redis, PostgreSQL, the
// CI's Redis Cluster and Sentinels) is refused, and so is starting any process (npm, the server, a CLI, a browser,
// redis-server, poppler); the test that tried fails, saying to list its file in test/suites.json.

import childProcess, { ChildProcess } from 'node:child_process';
import Mocha from 'mocha';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import { atEachFileEnd, fileName, wireFileHooks } from './file-hooks.js';
import { socketRefusal, spawnRefusal } from './unit-rules.js';

const refusals: string[] = [];
let reported = 0;

function refuse(what: string): Error {
  const file = new Error().stack?.match(/[\\/]dist[\\/]test[\\/][^\\/:]+\.test\.js/)?.[0];
  const message =
    `unit run: ${what} is not allowed in a unit test` +
    `${file ? ` (${fileName(file)})` : ''}; list the file in test/suites.json with what it needs`;
  refusals.push(message);
  return new Error(message);
}

// Sockets: every client connection (net, http, fetch, pg, redis) goes through Socket#connect.
type ConnectArgs = [unknown, ...unknown[]];
const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = Array.isArray(args[0]) ? (args[0] as ConnectArgs)[0] : args[0];
  const target =
    typeof first === 'object' && first !== null
      ? (first as { host?: string; port?: number; path?: string })
      : typeof first === 'string' && Number.isNaN(Number(first))
        ? { path: first }
        : { port: Number(first), host: typeof args[1] === 'string' ? args[1] : undefined };
  const why = socketRefusal(target);
  if (why) {
    const error = refuse(why);
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
} as typeof net.Socket.prototype.connect;

// Child processes: spawn, exec, execFile and fork all go through ChildProcess#spawn; the sync forms do not.
type SpawnOptions = { file: string; args?: string[] };
const processProto = ChildProcess.prototype as unknown as { spawn(options: SpawnOptions): unknown };
processProto.spawn = (options: SpawnOptions) => {
  throw refuse(spawnRefusal(options.file, options.args?.slice(1)));
};
for (const name of ['spawnSync', 'execSync', 'execFileSync'] as const) {
  (childProcess as Record<string, unknown>)[name] = (...args: unknown[]) => {
    const [file, rest] = args as [string, unknown];
    throw refuse(spawnRefusal(file, Array.isArray(rest) ? rest : []));
  };
}
syncBuiltinESMExports();

/** An error whose message says it all: the stack would only show these hooks. */
function bare(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

function takeRefusals(): string[] {
  const fresh = refusals.slice(reported);
  reported = refusals.length;
  return fresh;
}

// A refusal fails the test or hook that made it, even when it swallowed the error (a Redis probe that skips
// its suite fails it instead); one made after its test ended fails the file.
type Done = (error?: unknown) => void;
const runnable = Mocha.Runnable.prototype as unknown as { run(done: Done): void };
const run = runnable.run;
runnable.run = function unitGuardRun(this: Mocha.Runnable, done: Done) {
  return run.call(this, (error?: unknown) => {
    const fresh = takeRefusals();
    if (fresh.length === 0) return done(error);
    // A skip after a refused probe ("no Redis here") is no skip in the unit run: the refusal fails it.
    (this as { pending: boolean }).pending = false;
    done(bare(fresh.join('\n')));
  });
};

atEachFileEnd(() => {
  const fresh = takeRefusals();
  if (fresh.length > 0) throw bare(fresh.join('\n'));
});

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    wireFileHooks(this.test!.parent!);
  },
};
