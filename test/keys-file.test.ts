// The key file that `zpl-keys --file` changes: written whole (a temporary file renamed over it) under a lock file,
// readable by its owner only. Concurrent runs lose no record; a lock left by a run that died is taken over.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadKeyFile } from '../middleware/index.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist', 'bin', 'zpl-keys.js');

describe('zpl-keys --file: the key file', function () {
  this.timeout(120_000); // processes on a busy machine; the bound only ends a hung run
  let dir = '';
  let file = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zpl-key-file-'));
    file = join(dir, 'keys.json');
    await writeFile(file, '[]\n', { mode: 0o644 });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('seven concurrent create runs lose no record, and the file ends mode 600 with no lock or temporary file left', async () => {
    const runs = Array.from({ length: 7 }, (_, i) =>
      run(process.execPath, [CLI, '--file', file, 'create', '--scope', 'all', '--org', `org${i}`]),
    );
    const outputs = await Promise.all(runs);
    const printed = outputs.map(({ stdout }) => /^key: (\S+)$/m.exec(stdout)![1]!);
    const records = await loadKeyFile(file);
    expect(records.map((r) => r.key).sort()).to.deep.equal([...printed].sort());
    expect(records.map((r) => r.organization).sort()).to.deep.equal([
      'org0',
      'org1',
      'org2',
      'org3',
      'org4',
      'org5',
      'org6',
    ]);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect(await readdir(dir)).to.deep.equal(['keys.json']);
  });

  it('takes over a lock whose owner is gone, and waits for one that is held', async () => {
    await writeFile(`${file}.lock`, `999999999@${hostname()}\n`); // no such process
    await run(process.execPath, [CLI, '--file', file, 'create', '--scope', 'png']);
    expect(await loadKeyFile(file)).to.have.length(1);
    expect(await readdir(dir)).to.deep.equal(['keys.json']);

    await writeFile(`${file}.lock`, `${process.pid}@${hostname()}\n`); // this test holds it
    let done = false;
    const waiting = run(process.execPath, [CLI, '--file', file, 'create', '--scope', 'pdf']).then(() => {
      done = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(done, 'created while the lock was held').to.equal(false);
    expect(await loadKeyFile(file)).to.have.length(1);
    await rm(`${file}.lock`);
    await waiting;
    expect((await loadKeyFile(file)).map((r) => r.scope)).to.deep.equal(['png', 'pdf']);
  });

  it("keeps the file's owner and group when root changes it (a key file a container's user reads)", async function () {
    if (process.getuid?.() !== 0) this.skip(); // only root may give a file to another user
    await chown(file, 4242, 4343);
    await run(process.execPath, [CLI, '--file', file, 'create', '--scope', 'png']);
    const after = await stat(file);
    expect([after.uid, after.gid, after.mode & 0o777]).to.deep.equal([4242, 4343, 0o600]);
    expect(await loadKeyFile(file)).to.have.length(1);
  });

  it('leaves the file as it was when a change fails', async () => {
    await run(process.execPath, [CLI, '--file', file, 'create', '--scope', 'all']);
    const before = await readFile(file, 'utf8');
    const failed = await run(process.execPath, [CLI, '--file', file, 'remove', 'k_nobody_0123456789']).catch(
      (e: { stderr: string }) => e,
    );
    expect((failed as { stderr: string }).stderr).to.match(/no key matches/);
    expect(await readFile(file, 'utf8')).to.equal(before);
    expect(await readdir(dir)).to.deep.equal(['keys.json']);
  });
});
