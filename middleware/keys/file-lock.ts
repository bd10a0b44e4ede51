// One writer at a time for a file several processes change (the key file of concurrent `zpl-keys --file` runs):
// a lock file created with O_EXCL beside it, holding the owner's pid; a lock whose owner is gone, or older than
// STALE_LOCK_MS, is taken over.

import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** A lock held this long is someone's crash, not work: read, change and write one small file take milliseconds. */
export const STALE_LOCK_MS = 30_000;
/** How long a writer waits for the lock before giving up with an error naming the lock file. */
const LOCK_WAIT_MS = 60_000;

/** True when the lock file's owner (`pid@host`) can no longer release it. */
async function isStale(lockPath: string): Promise<boolean> {
  let owner: string;
  let age: number;
  try {
    owner = await readFile(lockPath, 'utf8');
    age = Date.now() - (await stat(lockPath)).mtimeMs;
  } catch {
    return false; // released meanwhile: try again
  }
  if (age > STALE_LOCK_MS) return true;
  const [pid, host] = owner.trim().split('@');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Runs `work` while holding `<path>.lock`; the lock is released however `work` ends. */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lockPath = `${path}.lock`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}@${hostname()}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await isStale(lockPath)) {
        // Renamed away first, so two writers that both found it stale cannot both remove a fresh lock.
        const aside = `${lockPath}.stale-${process.pid}`;
        await rename(lockPath, aside)
          .then(() => unlink(aside))
          .catch(() => {});
        continue;
      }
      if (Date.now() > until)
        throw new Error(
          `${path} is locked by another writer (${lockPath}); remove that file if no zpl-keys is running`,
        );
      await sleep(Math.min(100, 5 * 2 ** Math.min(attempt, 5)) + Math.random() * 10);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}
