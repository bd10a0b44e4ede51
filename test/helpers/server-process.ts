// Starts the standalone server (`dist/server/server.js`) as a child process on a free port, for tests.

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const SERVER = join(process.cwd(), 'dist', 'server', 'server.js');

export interface StartedServer {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  base: string;
  /** Every line it printed so far (stdout and stderr). */
  lines: string[];
  /** The printed development key, when it made one. */
  devKey?: string;
}

/** Resolves once the server prints `listening on http://HOST:PORT`; rejects with its output if it exits first. */
export function startServer(env: Record<string, string>): Promise<StartedServer> {
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: '',
      API_KEYS_FILE: '',
      SHUTDOWN_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (!match) return;
      const devKey = lines.find((l) => l.startsWith('dev API key: '))?.slice('dev API key: '.length);
      resolve({ child, base: match[1]!, lines, ...(devKey !== undefined && { devKey }) });
    });
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${lines.join('\n')}`)));
  });
}

/** Sends a signal and resolves with the exit code. */
export function stopServer(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

export interface WatchedProcess {
  child: ChildProcess;
  /** Every line printed so far (stdout and stderr). */
  lines: string[];
  /** Resolves with the first printed line matching `re`; rejects if the process ends without printing one. */
  waitFor(re: RegExp): Promise<string>;
  /** Resolves with the exit code once the process has exited and every holder of its output pipes closed them. */
  closed: Promise<number | null>;
}

export interface SpawnOptions {
  cwd?: string;
  /** Only `env`, not this process's environment as well (a container's start). */
  cleanEnv?: boolean;
  /** Its own process group, so that a signal can reach it and its children (npx and the node it starts). */
  detached?: boolean;
}

/** Spawns a process whose printed lines a test can wait for (events, never a clock). */
export function spawnWatched(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: SpawnOptions = {},
): WatchedProcess {
  const child = spawn(command, args, {
    env: options.cleanEnv ? env : { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    ...(options.detached && { detached: true }),
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  const onLine = (line: string): void => {
    lines.push(line);
    for (const w of waiters.filter((x) => x.re.test(line))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const waitFor = (re: RegExp): Promise<string> => {
    const seen = lines.find((l) => re.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      waiters.push({ re, resolve });
      void closed.then(() => reject(new Error(`exited before printing ${re}:\n${lines.join('\n')}`)));
    });
  };
  return { child, lines, waitFor, closed };
}
