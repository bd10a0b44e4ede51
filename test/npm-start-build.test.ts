// `npm start` compiles what changed before it runs the server; with nothing changed it must write nothing to dist/,
// since a server already running from the same checkout imports those files. The two projects (the package and the
// preview page) once shared one build-info file, so each `tsc -b` found the other's there and rebuilt everything.
// The build step of the start script runs twice in a copy of the sources; the second run leaves every file as it was.

import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const REPO = process.cwd();

/** Every file under `dir` with its modification time (ns) and size. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const stat = statSync(path, { bigint: true });
        files[relative(dir, path)] = `${stat.mtimeNs} ${stat.size}`;
      }
    }
  };
  walk(dir);
  return files;
}

describe('npm start: the build step with nothing changed', function () {
  // Two whole builds on a shared machine; the bound only ends a hang.
  this.timeout(600_000);
  let copy: string;
  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'zpl-start-build-'));
  });
  after(() => rmSync(copy, { recursive: true, force: true }));

  it('writes nothing to dist/ the second time', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const [build, serve] = manifest.scripts.start.split(' && exec ');
    expect(serve, 'start = build && exec server').to.equal('node dist/bin/zpl-server.js');
    const { stdout } = await run('git', ['ls-files', '-z'], { cwd: REPO, maxBuffer: 64 << 20 });
    const sources = stdout.split('\0').filter((f) => /\.(ts|json)$/.test(f) && !f.startsWith('corpus/'));
    for (const file of sources) cpSync(join(REPO, file), join(copy, file));
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const env = { ...process.env, PATH: `${join(REPO, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };

    await run('sh', ['-c', build!], { cwd: copy, env, maxBuffer: 64 << 20 });
    const first = snapshot(join(copy, 'dist'));
    expect(Object.keys(first)).to.include.members(['bin/zpl-server.js', 'web/app.js']);
    await run('sh', ['-c', build!], { cwd: copy, env, maxBuffer: 64 << 20 });
    const second = snapshot(join(copy, 'dist'));
    const changed = Object.keys({ ...first, ...second }).filter((file) => first[file] !== second[file]);
    expect(changed, 'files the second build wrote').to.deep.equal([]);
  });
});
