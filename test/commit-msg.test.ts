// The commit-msg hook a clone installs (.githooks/): a subject of at most 72 characters, the detail in the body
// after a blank line; `npm install` points git at the hooks in a clone and does nothing anywhere else.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';

const REPO = process.cwd();
const HOOKS = join(REPO, '.githooks');
const hasGit = spawnSync('git', ['--version']).status === 0;

/** Runs a command; resolves with its exit code and what it printed. */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('commit-msg hook', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'zpl-commit-msg-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const check = (message: string): Promise<{ code: number | null; output: string }> => {
    const file = join(dir, 'COMMIT_EDITMSG');
    writeFileSync(file, message);
    return run('sh', [join(HOOKS, 'commit-msg'), file]);
  };

  it('accepts a subject of 72 characters with the detail in the body', async () => {
    const subject = `Decoders refuse a BMP whose masks exceed 32 bits${'.'.repeat(24)}`;
    expect(subject.length).to.equal(72);
    const comment = '# Please enter the commit message (a comment: git drops it, so it is not checked)';
    const { code, output } = await check(`${subject}\n\nThe why and the figures.\n${comment}\n`);
    expect(code, output).to.equal(0);
    expect((await check('Subject only, no body\n')).code).to.equal(0);
  });

  it('refuses a subject over 72 characters, saying how long it is', async () => {
    const { code, output } = await check(`${'x'.repeat(73)}\n\nbody\n`);
    expect(code).to.equal(1);
    expect(output).to.contain('the subject has 73 characters (at most 72)');
  });

  it('counts characters, not bytes', async () => {
    expect((await check(`${'é'.repeat(72)}\n`)).code).to.equal(0);
  });

  it('refuses a body that starts on the line after the subject', async () => {
    const { code, output } = await check('Short subject\nthe detail glued to it\n');
    expect(code).to.equal(1);
    expect(output).to.contain('the line after the subject must be blank');
  });

  it('refuses an empty message, and ignores what is below the scissors of `git commit -v`', async () => {
    expect((await check('# only a comment\n\n')).code).to.equal(1);
    const cut = '# ------------------------ >8 ------------------------\n';
    expect((await check(`Short subject\n\nbody\n${cut}diff --git a/x b/x\n${'y'.repeat(100)}\n`)).code).to.equal(0);
  });

  describe('installed by npm install', () => {
    const prepare = (
      JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts.prepare!;

    it('is the package.json prepare script', () => {
      expect(prepare).to.contain('.githooks/install.mjs');
    });

    it('does nothing, and fails nothing, outside a git checkout (no .githooks: the Dockerfile’s npm ci)', async () => {
      const bare = mkdtempSync(join(dir, 'image-'));
      const { code, output } = await run('sh', ['-c', prepare], { cwd: bare });
      expect(code, output).to.equal(0);
      expect(existsSync(join(bare, '.git'))).to.equal(false);
    });

    it('sets core.hooksPath at the top of a git checkout on npm install or ci, and only there', async function () {
      if (!hasGit) this.skip();
      const clone = mkdtempSync(join(dir, 'clone-'));
      const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', npm_command: 'ci' };
      expect((await run('git', ['init', '-q', clone], { env })).code).to.equal(0);
      cpSync(HOOKS, join(clone, '.githooks'), { recursive: true });
      // `npm pack` runs prepare too: it leaves the checkout's config alone.
      expect((await run('sh', ['-c', prepare], { cwd: clone, env: { ...env, npm_command: 'pack' } })).code).to.equal(0);
      expect((await run('git', ['-C', clone, 'config', 'core.hooksPath'], { env })).code).to.equal(1);
      const { code, output } = await run('sh', ['-c', prepare], { cwd: clone, env });
      expect(code, output).to.equal(0);
      const hooksPath = await run('git', ['-C', clone, 'config', 'core.hooksPath'], { env });
      expect(hooksPath.output.trim()).to.equal('.githooks');

      // A package folder inside someone else's repository (a dependency): their config stays theirs.
      const host = mkdtempSync(join(dir, 'host-'));
      expect((await run('git', ['init', '-q', host], { env })).code).to.equal(0);
      cpSync(HOOKS, join(host, 'node_modules', 'zpl-legacy-compat', '.githooks'), { recursive: true });
      const nested = await run('sh', ['-c', prepare], { cwd: join(host, 'node_modules', 'zpl-legacy-compat'), env });
      expect(nested.code, nested.output).to.equal(0);
      expect((await run('git', ['-C', host, 'config', 'core.hooksPath'], { env })).code).to.equal(1);
    });
  });
});
