// A throw-away PostgreSQL server of our own (Debian's binaries, a data folder in /tmp) for outage tests: started
// and stopped at will on a spare port; its data stays on disk across a stop, as a real server's does.

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The folder of the newest installed server's programs (initdb, pg_ctl), or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? join(root, versions[versions.length - 1]!, 'bin') : undefined;
}

export interface PostgresServer {
  url: string;
  start(): Promise<void>;
  /** Stops (SIGSTOP) or resumes (SIGCONT) every process of this server: it hangs, holding its connections open. */
  freeze(signal: 'SIGSTOP' | 'SIGCONT'): Promise<void>;
  /** Stops at once (no clean shutdown), as a crash or a lost host would. */
  stop(): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

/** initdb refuses to run as root: the programs then run as the `postgres` user, which owns the folder. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [bin, args];
  return ['runuser', ['-u', 'postgres', '--', bin, ...args]];
}

/** A new, stopped server on `port` (initdb done), trusting local connections as `postgres`. */
export async function createPostgresServer(port: number): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server programs under /usr/lib/postgresql');
  const dir = await mkdtemp(join(tmpdir(), 'zpl-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const uid = Number(ids.stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    await chown(dir, uid, gid);
  }
  const exec = (program: string, args: string[]) => {
    const [file, argv] = asServerUser(join(bin, program), args);
    return run(file, argv, { timeout: 120_000 });
  };
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  // fsync off: a stop loses nothing committed (the OS keeps the writes), it only skips the disk flushes.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await exec('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '120', 'start']);
    },
    freeze: async (signal) => {
      // The postmaster's pid is the first line of its pid file; its children serve the connections.
      const postmaster = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .stdout.split('\n')
        .map((line) => Number(line.trim()))
        .filter((pid) => pid > 0);
      for (const pid of [postmaster, ...children]) process.kill(pid, signal);
    },
    stop: async () => {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    },
    destroy: async () => {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function canRunPostgresServer(): boolean {
  if (!postgresBinaries()) return false;
  return process.getuid?.() !== 0 || spawnSync('id', ['-u', 'postgres']).status === 0;
}
